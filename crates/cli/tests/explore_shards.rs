//! `explore --shard K/N` slices the seeds; `explore-merge` of every shard's `--json` report is
//! the report of one unsharded run.

mod common;

use common::{faultline, stderr, stdout, SMALL};

fn explore_json(scenario: &str, extra: &[&str]) -> String {
    let mut args = vec![
        "explore",
        scenario,
        "--seeds",
        "6",
        "--first-seed",
        "40",
        "--faults",
        "kill=2,pause",
        "--with-expectations",
        "--jobs",
        "2",
        "--json",
    ];
    args.extend_from_slice(extra);
    let o = faultline(&args);
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
    stdout(&o)
}

#[test]
fn merged_shards_equal_the_unsharded_report() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("small.toml");
    std::fs::write(&scenario, SMALL).unwrap();
    let scenario = scenario.to_str().unwrap();

    let whole = explore_json(scenario, &[]);
    let whole_json: serde_json::Value = serde_json::from_str(&whole).unwrap();
    assert_eq!(whole_json["runs"], 6);
    assert!(
        !whole_json["failures"].as_array().unwrap().is_empty(),
        "kills break the expectation on some seed, so the merge has failures to carry"
    );

    let mut files = Vec::new();
    for shard in ["2/2", "1/2"] {
        let part = explore_json(scenario, &["--shard", shard]);
        let v: serde_json::Value = serde_json::from_str(&part).unwrap();
        assert_eq!(v["runs"], 3, "shard {shard} runs half the seeds");
        let file = dir.path().join(format!("shard-{}.json", &shard[..1]));
        std::fs::write(&file, part).unwrap();
        files.push(file.to_str().unwrap().to_string());
    }
    let mut args = vec!["explore-merge"];
    args.extend(files.iter().map(String::as_str));
    let merged = faultline(&args);
    assert_eq!(
        merged.status.code(),
        Some(1),
        "failures carried: {}",
        stderr(&merged)
    );
    assert_eq!(
        stdout(&merged),
        whole,
        "merged shards == one run over every seed"
    );

    // A shard given twice is refused, not counted twice.
    let twice = faultline(&["explore-merge", &files[1], &files[1]]);
    assert_eq!(twice.status.code(), Some(2));
    assert!(stderr(&twice).contains("overlap"), "{}", stderr(&twice));
}

#[test]
fn zero_seeds_are_refused_without_mentioning_a_shard() {
    let file = "scenarios/raft-basics-kill-a-store.toml";
    let o = faultline(&["explore", file, "--seeds", "0"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("at least one seed"), "{err}");
    assert!(!err.contains("shard"), "{err}");
}
