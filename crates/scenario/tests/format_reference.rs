//! docs/scenario-format.md's key reference is generated from the knob definitions
//! (`faultline_scenario::reference`); this fails when the checked-in text differs, and says
//! how to regenerate it. It also checks that every key the shipped scenarios use is in it.

use std::path::PathBuf;

use faultline_scenario::reference::{documented_keys, render, BEGIN, END};

fn doc_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/scenario-format.md")
}

#[test]
fn the_reference_matches_the_knob_definitions() {
    let path = doc_path();
    let doc = std::fs::read_to_string(&path).expect("docs/scenario-format.md exists");
    let start = doc.find(BEGIN).expect("the doc has the BEGIN marker");
    let end = doc.find(END).expect("the doc has the END marker") + END.len() + 1;
    let fresh = render();
    if doc[start..end] == fresh {
        return;
    }
    if std::env::var_os("UPDATE_DOCS").is_some() {
        let updated = format!("{}{fresh}{}", &doc[..start], &doc[end..]);
        std::fs::write(&path, updated).expect("writable");
        return;
    }
    panic!(
        "docs/scenario-format.md's key reference is out of date; regenerate it with\n  \
         UPDATE_DOCS=1 cargo test -p faultline-scenario --test format_reference"
    );
}

/// Dotted keys of a TOML table as the reference writes them: `topology.stores`,
/// `faults[].at`, `toggles."cdc.sink_close"`.
fn keys_of(prefix: &str, table: &toml::Table, out: &mut Vec<String>) {
    for (k, v) in table {
        let k = if k.contains('.') {
            format!("\"{k}\"")
        } else {
            k.clone()
        };
        let key = if prefix.is_empty() {
            k
        } else {
            format!("{prefix}.{k}")
        };
        match v {
            toml::Value::Table(t) => keys_of(&key, t, out),
            toml::Value::Array(items)
                if items.iter().all(|i| i.is_table()) && !items.is_empty() =>
            {
                for item in items {
                    keys_of(&format!("{key}[]"), item.as_table().expect("table"), out);
                }
            }
            _ => out.push(key),
        }
    }
}

#[test]
fn every_key_of_the_shipped_scenarios_is_documented() {
    let documented = documented_keys();
    let doc = std::fs::read_to_string(doc_path()).expect("readable");
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let mut checked = 0;
    for entry in std::fs::read_dir(dir).expect("scenarios/ exists") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|x| x != "toml") {
            continue;
        }
        let table: toml::Table =
            toml::from_str(&std::fs::read_to_string(&path).expect("readable")).expect("toml");
        let mut keys = Vec::new();
        keys_of("", &table, &mut keys);
        for key in keys {
            assert!(
                documented.contains(&key) && doc.contains(&format!("| `{key}` |")),
                "{}: `{key}` is not in docs/scenario-format.md's key reference",
                path.display()
            );
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} keys found in scenarios/");
}
