//! Scheduler v3 as tiflow runs it: a capture answers a dispatch with the one table it names
//! (`DispatchTableResponse`) and only a heartbeat with every table (`HeartbeatResponse`). A
//! full report per dispatch made the first dispatch of 1,000 tables cost tables x tables.

use faultline_scenario::*;

const FEED: &str = r#"
name = "dispatch"
seed = 3
duration = "20s"
[topology]
stores = 3
regions = 12
captures = 2
[workload]
kind = "oltp_write_only"
txns_per_sec = 20
tables = 6
rows_per_table = 20
[[changefeeds]]
id = "cf-1"
"#;

#[test]
fn a_dispatch_is_answered_with_its_table_and_a_heartbeat_with_all() {
    let scenario = parse_scenario("dispatch.toml", FEED).expect("valid");
    let mut run = Run::new(&scenario).expect("runs");
    run.world.kernel.messages.set_capacity(1_000_000);
    run.run_to_end();
    let labels: Vec<&str> = run
        .world
        .kernel
        .messages
        .records()
        .map(|m| m.label.as_str())
        .collect();
    let count = |p: &dyn Fn(&str) -> bool| labels.iter().filter(|l| p(l)).count();
    // "schedulerv3 AddSecondary { .. } table 3", "schedulerv3 Promote table 3", ...
    let dispatches = count(&|l| {
        l.starts_with("schedulerv3 ")
            && l != "schedulerv3 heartbeat"
            && l.contains(" table ")
            && !l.contains(" is ")
    });
    // "schedulerv3 table 3 is Prepared"
    let answers = count(&|l| l.starts_with("schedulerv3 table ") && l.contains(" is "));
    let heartbeats = count(&|l| l == "schedulerv3 heartbeat");
    let reports = count(&|l| l.starts_with("schedulerv3 report "));
    assert!(
        dispatches >= 12,
        "6 tables added then promoted: {dispatches} dispatches"
    );
    assert_eq!(
        answers, dispatches,
        "every delivered dispatch gets its own answer"
    );
    assert!(
        reports <= heartbeats,
        "{reports} full reports for {heartbeats} heartbeats: a dispatch was answered with all tables"
    );
}
