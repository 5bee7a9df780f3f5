//! Without a terminal, long work prints a plain progress line on stderr now and then, and
//! `run --series` prints each row as the run reaches it: a run cut short by a timeout leaves
//! what it did.

mod common;

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Output, Stdio};

use common::{root, stderr, stdout};

const FILE: &str = "scenarios/raft-basics-kill-a-store.toml";

/// `faultline ARGS` with stderr into a pipe and a progress line at every step.
fn with_progress(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_faultline"))
        .args(args)
        .current_dir(root())
        .env("FAULTLINE_PROGRESS_SECS", "0")
        .output()
        .expect("runs")
}

#[test]
fn long_work_prints_plain_progress_lines_without_a_terminal() {
    let run = with_progress(&["run", FILE, "--for", "60s", "--json"]);
    assert!(run.status.success(), "{}", stderr(&run));
    let lines: Vec<String> = stderr(&run).lines().map(String::from).collect();
    assert!(lines.len() > 10, "{lines:?}");
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with("faultline: run: simulated ")),
        "{lines:?}"
    );
    assert!(
        lines.last().unwrap().contains("of 01:00.000 (100%)"),
        "{lines:?}"
    );
    assert!(serde_json::from_str::<serde_json::Value>(&stdout(&run)).is_ok());

    let explore = with_progress(&["explore", FILE, "--seeds", "2", "--jobs", "1"]);
    assert!(
        stderr(&explore).contains("faultline: explore: 1/2 seeds (50%), "),
        "{}",
        stderr(&explore)
    );
    let check = with_progress(&["check", FILE]);
    assert!(
        stderr(&check).contains("faultline: run: simulated 04:00.000 of 04:00.000 (100%)"),
        "{}",
        stderr(&check)
    );
}

#[test]
fn short_work_prints_no_progress_line() {
    let o = common::faultline(&["run", FILE, "--for", "60s", "--json"]);
    assert!(o.status.success());
    assert_eq!(stderr(&o), "", "lines come only every 10 s of wall time");
}

#[test]
fn series_rows_arrive_while_the_run_goes_on() {
    // At full scale each simulated second costs milliseconds or more, so a run that printed
    // its rows only at its end would have every row out before the first one is read.
    let file = "scenarios/tikv-14547-full-scale.toml";
    let text = std::fs::read_to_string(root().join(file)).expect("shipped");
    let secs = faultline_scenario::parse_scenario(file, &text)
        .unwrap()
        .duration
        .0
        / 1_000_000;
    let mut child = Command::new(env!("CARGO_BIN_EXE_faultline"))
        .args(["run", file, "--series", "leaderless_regions"])
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawns");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let (mut header, mut first) = (String::new(), String::new());
    out.read_line(&mut header).unwrap();
    out.read_line(&mut first).unwrap();
    child.kill().expect("still running, or just ended");
    child.wait().unwrap();
    let mut rest = String::new();
    out.read_to_string(&mut rest).unwrap();
    assert_eq!(header.trim(), "time_s,leaderless_regions");
    assert!(first.starts_with("1,"), "{first}");
    let rows = 1 + rest.lines().count() as u64;
    assert!(
        rows < secs / 2,
        "{rows} of {secs} rows were out when the first was read"
    );
}
