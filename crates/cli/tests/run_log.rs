//! `run --log LEVEL --node NAME`: every kept line of the named nodes, and a clear error for a
//! node the scenario does not have.

mod common;

use common::{faultline, stderr, stdout};

const SCENARIO: &str = "scenarios/raft-basics-kill-a-store.toml";

#[test]
fn log_info_for_one_node_prints_only_that_nodes_lines_routine_ones_too() {
    let o = faultline(&["run", SCENARIO, "--log", "info", "--node", "tikv-2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('(')).collect();
    assert!(!lines.is_empty(), "tikv-2 logs something in this run");
    for l in &lines {
        let node = l.split_whitespace().nth(2);
        assert_eq!(node, Some("tikv-2"), "{l}");
    }
    assert!(
        lines.iter().any(|l| l.contains(" INFO ")),
        "routine lines too"
    );
}

#[test]
fn an_unknown_node_is_refused_before_the_run_naming_the_known_ones() {
    let o = faultline(&["run", SCENARIO, "--log", "warn", "--node", "tikv-99"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("--node tikv-99"), "{err}");
    assert!(err.contains("tikv-1") && err.contains("sim"), "{err}");
}
