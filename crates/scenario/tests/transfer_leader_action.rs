//! `transfer_leader` in a scenario: PD moves tikv-1's leaders to tikv-2 while a changefeed
//! replicates, TiCDC follows the new leaders and the changefeed keeps its checkpoint moving;
//! a single-region transfer moves only that region.

use faultline_scenario::*;
use faultline_sim::SimTime;

/// 3 stores, 12 regions, one capture and a changefeed, balancer off; `fault` is appended.
fn run_with(fault: &str) -> Run {
    let text = format!(
        r#"
name = "transfer leader"
seed = 5
duration = "60s"

[topology]
stores = 3
regions = 12
captures = 1

[pd]
leader_balance = false

[workload]
txns_per_sec = 50
tables = 2
rows_per_table = 100

[[changefeeds]]
id = "cf-1"

[[faults]]
at = "20s"
action = "transfer_leader"
target = "tikv-2"
{fault}
"#
    );
    let s = parse_scenario("transfer.toml", &text).unwrap();
    Run::new(&s).unwrap()
}

fn secs(s: u64) -> SimTime {
    SimTime(s * 1_000_000)
}

fn last(r: &Run, series: &str) -> f64 {
    r.world.kernel.metrics.last(series).expect(series)
}

#[test]
fn a_store_wide_transfer_empties_the_source_and_the_changefeed_follows() {
    let mut r = run_with("from = \"tikv-1\"");
    r.run_until(secs(19));
    let before = last(&r, "leaders.tikv-1");
    assert!(before > 0.0, "tikv-1 leads regions before the transfer");
    let checkpoint_before = last(&r, "checkpoint_ts.cf-1");
    r.run_until(secs(60));
    assert_eq!(last(&r, "leaders.tikv-1"), 0.0);
    assert_eq!(last(&r, "pd.admin_transfer_ops"), before);
    assert!(last(&r, "checkpoint_ts.cf-1") > checkpoint_before);
    assert!(
        last(&r, "checkpoint_lag.cf-1") < 5.0,
        "TiCDC re-subscribed at the new leaders: lag {}",
        last(&r, "checkpoint_lag.cf-1")
    );
    assert_eq!(last(&r, "consistency_diff_rows.cf-1"), 0.0);
}

#[test]
fn a_region_transfer_moves_that_region_only() {
    let mut r = run_with("region = 0");
    r.run_until(secs(19));
    let before: Vec<f64> = (1..=3)
        .map(|i| last(&r, &format!("leaders.tikv-{i}")))
        .collect();
    r.run_until(secs(30));
    let after: Vec<f64> = (1..=3)
        .map(|i| last(&r, &format!("leaders.tikv-{i}")))
        .collect();
    assert_eq!(after[0], before[0] - 1.0, "region 0 was led by tikv-1");
    assert_eq!(after[1], before[1] + 1.0);
    assert_eq!(after[2], before[2]);
    assert_eq!(last(&r, "pd.admin_transfer_ops"), 1.0);
}
