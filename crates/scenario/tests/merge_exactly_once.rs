//! The gallery's merge-under-a-changefeed scenario, watched event by event: every row version
//! committed upstream reaches MySQL exactly once, in commit-ts order per key, before and after
//! the merges, and the regions its tour names are the ones the merges left, each subscribed
//! once.

mod delivery;

use faultline_scenario::{parse_scenario, Run};
use faultline_sim::SimTime;

const TEXT: &str = include_str!("../../../scenarios/cdc-region-merge-during-replication.toml");
/// When the scenario merges region 2 into 3, then region 4 into 5.
const FIRST_MERGE_SECS: u64 = 30;
const SECOND_MERGE_SECS: u64 = 50;

fn run() -> Run {
    let s = parse_scenario("cdc-region-merge-during-replication.toml", TEXT).unwrap();
    Run::new(&s).unwrap()
}

#[test]
fn every_version_reaches_mysql_once_in_commit_ts_order_across_the_merges() {
    let mut r = run();
    let written = delivery::written_per_key(&mut r, SimTime(120_000_000));
    delivery::assert_once_in_commit_ts_order(&r, &written);
    // Tables 1 and 2 (keys 100..300) were written before the first merge and after the second.
    let ts_at = delivery::ts_at;
    let merged = || written.range(100..300).flat_map(|(_, ts)| ts.iter());
    assert!(merged().any(|ts| *ts < ts_at(FIRST_MERGE_SECS)));
    assert!(merged().any(|ts| *ts > ts_at(SECOND_MERGE_SECS + 1)));
}

#[test]
fn the_tour_names_the_regions_the_merges_left_and_they_are_subscribed_once() {
    let mut r = run();
    r.run_until(SimTime(31_000_000));
    let cdc = &r.world.model.cdc;
    // "Region 2 merged into region 3, which now holds all of t1".
    assert_eq!(cdc.ks.regions_in(100, 200), vec![3]);
    assert_eq!(r.world.model.tikv.region_merged_into(2), Some(3));
    let subscribed = |r: &Run, region: u32| {
        (r.world.model.cdc.processors.iter().flatten())
            .filter(|p| p.kv.regions().contains_key(&region))
            .count()
    };
    assert_eq!(subscribed(&r, 3), 1, "region 3 is subscribed once");
    assert_eq!(subscribed(&r, 2), 0, "region 2 is gone");
    r.run_until(SimTime(51_000_000));
    // "Region 4 merged into region 5 the same way: t2 is one region now".
    assert_eq!(r.world.model.cdc.ks.regions_in(200, 300), vec![5]);
    assert_eq!(subscribed(&r, 5), 1);
    assert_eq!(subscribed(&r, 4), 0);
}
