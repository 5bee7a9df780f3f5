//! `--set`: the examples the help shows work, items of lists are reached by index, an index
//! past a list names the indices there are, and the argument is quoted on one line.

mod common;

use common::{faultline, stderr, stdout};

const FILE: &str = "scenarios/raft-basics-kill-a-store.toml";

/// Every `` `--set KEY=VALUE` `` example in a subcommand's help, the help's wrapping undone.
fn set_examples(cmd: &str) -> Vec<String> {
    let help = stdout(&faultline(&[cmd, "--help"]));
    let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
    flat.split("`--set ")
        .skip(1)
        .filter_map(|rest| rest.split('`').next().map(String::from))
        .collect()
}

#[test]
fn every_set_example_in_the_help_loads() {
    for cmd in ["run", "chart", "explore", "shrink", "link", "trace-hash"] {
        let examples = set_examples(cmd);
        assert!(!examples.is_empty(), "{cmd} --help shows a --set example");
        for example in examples {
            let o = faultline(&["link", FILE, "--set", &example]);
            assert!(
                o.status.success(),
                "{cmd} --help shows `--set {example}`, which fails: {}",
                stderr(&o)
            );
        }
    }
}

#[test]
fn set_reaches_an_item_of_a_list() {
    let killed = |sets: &[&str]| {
        let mut args = vec![
            "run", FILE, "--for", "40s", "--log", "warn", "--node", "sim",
        ];
        for s in sets {
            args.extend(["--set", s]);
        }
        let o = faultline(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    let as_written = killed(&[]);
    let target = if as_written.contains("kill tikv-1") {
        "tikv-2"
    } else {
        "tikv-1"
    };
    let changed = killed(&[&format!("faults[0].target={target}")]);
    assert!(changed.contains(&format!("kill {target}")), "{changed}");
    assert_ne!(as_written, changed);
}

#[test]
fn an_index_past_the_list_is_refused_with_the_indices_there_are() {
    let o = faultline(&["link", FILE, "--set", "faults[7].target=tikv-2"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("--set faults[7].target=tikv-2: "), "{err}");
    assert!(err.contains("only index is 0"), "{err}");
}

#[test]
fn a_newline_in_a_set_argument_is_not_echoed_raw() {
    let o = faultline(&["link", FILE, "--set", "name=x\nforged line"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(!err.contains("x\nforged"), "{err}");
    assert!(err.contains(r"name=x\nforged line"), "{err}");
}
