//! The CLI in pipes and batches: a reader that goes away ends it quietly; `check` checks every
//! file it is given and reports each.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use common::{faultline, root, stdout, SMALL};

/// Runs `faultline ARGS` with stdout into a pipe whose reader takes `lines` lines (0: none)
/// and then closes it, like `| head -1`; returns the exit code and stderr.
fn with_reader_gone(args: &[&str], lines: usize) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_faultline"))
        .args(args)
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawns");
    let out = child.stdout.take().unwrap();
    let mut reader = BufReader::new(out);
    for _ in 0..lines {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
    }
    // Closing the read end: every later write gets EPIPE.
    drop(reader);
    let output = child.wait_with_output().expect("exits");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn a_closed_pipe_ends_explore_and_run_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("small.toml");
    std::fs::write(&file, SMALL).unwrap();
    let file = file.to_str().unwrap();
    let explore = [
        "explore",
        file,
        "--seeds",
        "3",
        "--faults",
        "kill=2",
        "--with-expectations",
    ];
    let series = [
        "run",
        file,
        "--series",
        "leaderless_regions",
        "--every",
        "100ms",
    ];
    for (args, lines) in [(&explore[..], 0), (&explore[..], 1), (&series[..], 1)] {
        let (code, err) = with_reader_gone(args, lines);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!err.contains("Broken pipe"), "{args:?}: {err}");
        assert_eq!(code, Some(0), "{args:?} exits quietly: {err}");
    }
}

#[test]
fn check_reports_every_file_even_after_a_bad_one() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.toml");
    let bad = dir.path().join("bad.toml");
    let good2 = dir.path().join("good2.toml");
    std::fs::write(&good, SMALL).unwrap();
    std::fs::write(&bad, SMALL.replace("regions = 8", "regions = -5")).unwrap();
    std::fs::write(&good2, SMALL.replace("stores = 3", "stores = 4")).unwrap();
    let paths: Vec<&str> = [&good, &bad, &good2]
        .iter()
        .map(|p| p.to_str().unwrap())
        .collect();
    let mut args = vec!["check"];
    args.extend(&paths);
    let o = faultline(&args);
    let text = stdout(&o);
    assert_eq!(
        o.status.code(),
        Some(2),
        "a file could not be checked: {text}"
    );
    assert!(text.contains(&format!("{}: No region ever loses its leader", paths[0])));
    assert!(
        text.contains(&format!("{}: cannot check: ", paths[1])),
        "{text}"
    );
    assert!(
        text.contains(&format!("{}: No region ever loses its leader", paths[2])),
        "the file after the bad one is checked too: {text}"
    );
    assert!(
        text.contains("2 passed, 0 failed, 1 of 3 files not checked"),
        "{text}"
    );
}
