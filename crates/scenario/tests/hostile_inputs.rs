//! The hostile-input corpus (issue 16 "Done when"): every file in tests/hostile/ is a
//! scenario an attacker or a careless edit could produce (control characters, huge and
//! negative numbers, duplicates, deep nesting, a fault after the end). Each must be rejected
//! with a `ScenarioError` whose message names the field given on its first line
//! (`# field: NAME`), without a panic. Inputs are bounded by the 1 MiB file limit; the time
//! each took is printed, not asserted (the machine may be busy).

use std::path::PathBuf;
use std::time::Instant;

use faultline_scenario::{limits, parse_scenario, ScenarioError};

fn corpus() -> Vec<(String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/hostile");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/hostile exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).expect("readable"))
        })
        .collect()
}

fn expected_field(text: &str) -> &str {
    text.lines()
        .next()
        .and_then(|l| l.strip_prefix("# field: "))
        .expect("each hostile file starts with `# field: NAME`")
        .trim()
}

#[test]
fn every_hostile_file_is_rejected_naming_its_field() {
    let files = corpus();
    assert!(files.len() >= 15, "the corpus is missing files");
    for (name, text) in &files {
        let field = expected_field(text);
        let start = Instant::now();
        let err = parse_scenario(name, text).expect_err(name);
        println!("{name}: {:?}: {err}", start.elapsed());
        let msg = err.to_string();
        assert!(
            msg.contains(&format!("`{field}`")),
            "{name}: the message does not name `{field}`: {msg}"
        );
        assert!(
            !msg.chars().any(|c| c.is_control() && c != '\n'),
            "{name}: the message carries a control character: {msg:?}"
        );
    }
}

#[test]
fn an_oversized_file_is_refused_before_parsing() {
    let text = format!(
        "name = \"t\"\nduration = \"1m\"\ndescription = \"{}\"\n",
        "x".repeat(limits::MAX_SOURCE_BYTES)
    );
    let err = parse_scenario("big.toml", &text).unwrap_err();
    assert!(
        matches!(err, ScenarioError::TooLarge { limit, .. } if limit == limits::MAX_SOURCE_BYTES),
        "{err}"
    );
}
