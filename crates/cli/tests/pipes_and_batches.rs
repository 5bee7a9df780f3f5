//! The CLI in pipes and batches: a reader that goes away ends it quietly; `check` checks every
//! file it is given and reports each.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use common::{faultline, root, stdout, SMALL};

/// How the reader of the CLI's stdout goes away.
#[derive(Clone, Copy, Debug)]
enum Reader {
    /// Closed before the CLI starts: its first write gets EPIPE, every time.
    GoneBeforeStart,
    /// Takes one line and closes, like `| head -1`. Whether the CLI still had lines to write
    /// then depends on scheduling: it may have written everything into the pipe's buffer.
    TakesOneLine,
}

/// Runs `faultline ARGS` with stdout into a pipe whose reader goes away as `reader` says;
/// returns the exit code and stderr.
fn with_reader_gone(args: &[&str], reader: Reader) -> (Option<i32>, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_faultline"));
    cmd.args(args).current_dir(root()).stderr(Stdio::piped());
    let output = match reader {
        Reader::GoneBeforeStart => {
            let (read_end, write_end) = std::io::pipe().expect("a pipe");
            drop(read_end);
            cmd.stdout(write_end).output().expect("runs")
        }
        Reader::TakesOneLine => {
            let mut child = cmd.stdout(Stdio::piped()).spawn().expect("spawns");
            let mut lines = BufReader::new(child.stdout.take().unwrap());
            let mut line = String::new();
            lines.read_line(&mut line).unwrap();
            // Closing the read end: every later write gets EPIPE.
            drop(lines);
            child.wait_with_output().expect("exits")
        }
    };
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The exit code of `faultline ARGS` with a reader that takes everything.
fn code_with_a_reader(args: &[&str]) -> Option<i32> {
    faultline(args).status.code()
}

#[test]
fn a_closed_pipe_ends_explore_and_run_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("small.toml");
    std::fs::write(&file, SMALL).unwrap();
    let file = file.to_str().unwrap();
    // explore finds failing seeds here (it exits 1 when its report reaches a reader).
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
        "1s",
    ];
    for args in [&explore[..], &series[..]] {
        let full = code_with_a_reader(args);
        for reader in [Reader::GoneBeforeStart, Reader::TakesOneLine] {
            let (code, err) = with_reader_gone(args, reader);
            assert!(!err.contains("panicked"), "{args:?} {reader:?}: {err}");
            assert!(!err.contains("Broken pipe"), "{args:?} {reader:?}: {err}");
            // A closed pipe ends the process with 0; a reader that left after the last line
            // was written leaves the command's own code.
            let quiet = match reader {
                Reader::GoneBeforeStart => code == Some(0),
                Reader::TakesOneLine => code == Some(0) || code == full,
            };
            assert!(quiet, "{args:?} {reader:?} exits quietly: {code:?}, {err}");
        }
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
