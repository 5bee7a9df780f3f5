//! `faultline link` writes a link that checks itself, so `faultline verify "$(faultline link F)"`
//! says Reproduced; `--plain` writes the scenario alone; `verify` refuses a record whose cursor
//! no run could have reached.

mod common;

use common::{faultline, stderr, stdout};
use faultline_scenario::{decode_shared, encode_shared};
use faultline_sim::SimTime;

const FILE: &str = "scenarios/raft-basics-kill-a-store.toml";

fn link(args: &[&str]) -> String {
    let o = faultline(&[&["link", FILE][..], args].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o).trim().to_string()
}

#[test]
fn verify_reproduces_what_link_writes_at_the_end_and_at_a_time() {
    for (args, cursor) in [(&[][..], 240), (&["--at", "90s"][..], 90)] {
        let url = link(args);
        let shared = decode_shared(&url).expect("opens");
        let record = shared.record.expect("a self-checking link records the run");
        assert_eq!(record.cursor, SimTime(cursor * 1_000_000), "{args:?}");
        let o = faultline(&["verify", &url]);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stdout(&o));
        assert!(stdout(&o).starts_with("Reproduced"), "{}", stdout(&o));
    }
}

#[test]
fn a_plain_link_records_no_run() {
    let url = link(&["--plain"]);
    assert!(url.starts_with("http://127.0.0.1:8080/#v2."), "{url}");
    assert_eq!(decode_shared(&url).expect("opens").record, None);
    assert_eq!(faultline(&["verify", &url]).status.code(), Some(2));
}

#[test]
fn link_refuses_a_time_past_the_end() {
    let o = faultline(&["link", FILE, "--at", "5m"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--at 5m is past the end of the run"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn verify_refuses_a_cursor_past_the_end_of_the_run() {
    let shared = decode_shared(&link(&[])).expect("opens");
    let mut record = shared.record.expect("a record");
    let end = shared.scenario.duration.to_time();
    record.cursor = SimTime(end.0 + 1_000_000);
    let bad = encode_shared(&shared.scenario, Some(&record));
    let o = faultline(&["verify", &bad]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("past the end of its run"),
        "{}",
        stderr(&o)
    );
}
