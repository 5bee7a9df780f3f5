//! Scenarios shared by the explore and shrink tests.

use faultline_scenario::{parse_scenario, Scenario};

/// A small cluster that expects no region to ever lose its leader: cannot hold once a store
/// that leads regions is killed. Hibernate is off so leaders are found by elections fast.
pub fn never_leaderless() -> Scenario {
    parse_scenario(
        "never-leaderless.toml",
        include_str!("never-leaderless.toml"),
    )
    .expect("test scenario is valid")
}

/// Expects that no fault is ever injected: fails on every seed explore gives a fault, whatever
/// the model does, so it tests the machinery rather than the model.
pub fn no_faults_expected() -> Scenario {
    parse_scenario(
        "no-faults.toml",
        r#"
name = "No fault is ever injected"
duration = "2m"
[topology]
stores = 3
regions = 4
[[expect]]
name = "no faults"
log = "fault injected"
op = "=="
value = 0
"#,
    )
    .expect("test scenario is valid")
}
