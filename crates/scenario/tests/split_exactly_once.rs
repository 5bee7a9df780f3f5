//! The gallery's split-under-a-changefeed scenario, watched event by event: every row version
//! committed upstream reaches MySQL exactly once, in commit-ts order per key, before and after
//! the splits, and the regions its tour names exist and are subscribed from the split
//! region's resolved ts.

mod delivery;

use faultline_scenario::{parse_scenario, Run};
use faultline_sim::SimTime;

const TEXT: &str = include_str!("../../../scenarios/cdc-region-split-during-replication.toml");
/// When the scenario splits region 2, then region 3.
const FIRST_SPLIT_SECS: u64 = 40;
const SECOND_SPLIT_SECS: u64 = 60;

fn run() -> Run {
    let s = parse_scenario("cdc-region-split-during-replication.toml", TEXT).unwrap();
    Run::new(&s).unwrap()
}

#[test]
fn every_version_reaches_mysql_once_in_commit_ts_order_across_the_splits() {
    let mut r = run();
    let written = delivery::written_per_key(&mut r, SimTime(180_000_000));
    delivery::assert_once_in_commit_ts_order(&r, &written);
    // Table 1 (keys 100..200) was written before the first split and after the second.
    let ts_at = delivery::ts_at;
    let t1 = || written.range(100..200).flat_map(|(_, ts)| ts.iter());
    assert!(t1().any(|ts| *ts < ts_at(FIRST_SPLIT_SECS)));
    assert!(t1().any(|ts| *ts > ts_at(SECOND_SPLIT_SECS)));
}

#[test]
fn the_tour_names_the_regions_the_splits_made_and_they_are_subscribed() {
    let mut r = run();
    r.run_until(SimTime(41_000_000));
    let cdc = &r.world.model.cdc;
    // "Region 2 split into four (regions 8, 9 and 10 are new; 2 keeps the last part)".
    let order: Vec<u32> = cdc.ks.regions_in(100, 150);
    assert_eq!(order, vec![8, 9, 10, 2]);
    let tracked: Vec<u32> = (cdc.processors.iter().flatten())
        .flat_map(|p| p.kv.regions().keys())
        .filter(|r| order.contains(r))
        .collect();
    assert_eq!(
        tracked.len(),
        4,
        "each of them subscribed once: {tracked:?}"
    );
    r.run_until(SimTime(61_000_000));
    let cdc = &r.world.model.cdc;
    // "Region 3 split the same way (regions 11, 12 and 13): t1 now spans eight regions".
    assert_eq!(cdc.ks.regions_in(150, 200), vec![11, 12, 13, 3]);
    assert_eq!(cdc.ks.table_regions(1).len(), 8);
}
