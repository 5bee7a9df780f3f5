//! A dead client's locks hold the changefeed until TiCDC's lock resolver clears them (issue
//! 13; docs/model.md, "TiCDC's lock resolver"). The workload's client dies mid-transaction;
//! its locks stay, the regions' resolved ts stays at their start ts, and after 20 s behind
//! with ten standing resolved-ts events the KV client asks the leaders to resolve locks older
//! than 10 s. The locks' 3 s TTL has run out, so they are rolled back, and the checkpoint
//! catches up. The consistency check then still finds every row equal.

use faultline_scenario::*;
use faultline_sim::SimTime;

const SCENARIO: &str = r#"
name = "client dies holding locks"
seed = 3
duration = "2m"

[topology]
stores = 3
regions = 24
replicas = 3
captures = 2

[hibernate]
enabled = false

[workload]
kind = "oltp_write_only"
txns_per_sec = 50
tables = 4
rows_per_table = 100

[[changefeeds]]
id = "cf-1"

[[faults]]
at = "30s"
action = "kill"
target = "client-1"
"#;

const KILL_S: u64 = 30;

#[test]
fn orphan_locks_hold_the_checkpoint_until_ticdc_resolves_them() {
    let s = parse_scenario("orphans.toml", SCENARIO).unwrap();
    let mut r = Run::new(&s).unwrap();
    r.run_until(SimTime((KILL_S + 1) * 1_000_000));
    let orphans = r.world.model.cdc.workload.orphans.len();
    assert!(orphans > 0, "the dead client left locks behind");

    // The locks hold the checkpoint: 15 s after the kill it is about 15 s behind.
    r.run_until(SimTime((KILL_S + 15) * 1_000_000));
    let held = r.metric_at_secs("checkpoint_lag.cf-1", KILL_S + 15);
    assert!(held > 10.0, "lag {held} s while the orphan locks stand");

    // 20 s behind and ten standing events later, the resolver asks; the 3 s TTL ran out long
    // ago, so the locks go and the checkpoint catches up within the next 5 s check or two.
    r.run_until(SimTime((KILL_S + 45) * 1_000_000));
    assert!(
        r.world.model.cdc.workload.orphans.is_empty(),
        "every orphan resolved"
    );
    let lag = r.metric_at_secs("checkpoint_lag.cf-1", KILL_S + 45);
    assert!(lag < 5.0, "lag {lag} s after the resolver");
    r.run_to_end();
    assert_eq!(r.metric_at_secs("consistency_diff_rows.cf-1", 120), 0.0);
}
