//! The blame view on a merge: between the merge's apply and the moment TiCDC hears of it, the
//! KV client still follows the merged-away region under its old range, and that is what holds
//! the table (tiflow's span frontier), so the view must say so.

use faultline_sim::SimTime;

use super::*;
use crate::view_model::tests::run_at;

const MERGE: &str = "cdc-region-merge-during-replication.toml";

#[test]
fn a_region_followed_after_it_merged_away_is_blamed_as_a_stale_range() {
    // The tour's first merge (region 2 into 3) is asked at 30 s; step to its apply.
    let mut run = run_at(MERGE, 29);
    while run.world.model.tikv.region_merged_into(2).is_none() {
        assert!(run.now() < SimTime(40_000_000), "region 2 never merged");
        run.world.step();
    }
    let followed = run
        .world
        .model
        .cdc
        .processors
        .iter()
        .flatten()
        .any(|p| p.kv.regions().contains_key(&2));
    assert!(
        followed,
        "no capture follows region 2 any more at the apply"
    );
    let b = blame(&run);
    let stale: Vec<&TableBlame> = b.feeds[0]
        .tables
        .iter()
        .filter(|t| t.region.region == 2)
        .collect();
    assert!(!stale.is_empty(), "region 2 holds no listed table: {b:?}");
    for t in stale {
        assert_eq!(
            t.region.reasons.first(),
            Some(&Reason::StaleRange {
                merged_into: Some(3)
            }),
            "{t:?}"
        );
        assert!(
            !t.region
                .reasons
                .iter()
                .any(|r| matches!(r, Reason::Leaderless { .. })),
            "a merged-away region is gone, not leaderless: {t:?}"
        );
    }
}
