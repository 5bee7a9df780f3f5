//! What a changefeed wrote to MySQL, watched event by event, for the exactly-once tests.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};

use faultline_scenario::Run;
use faultline_sim::SimTime;

/// Runs `r` to `end`; per key, the commit ts of every row the first changefeed wrote to
/// MySQL, in the order it was written (each batch counted once).
pub fn written_per_key(r: &mut Run, end: SimTime) -> BTreeMap<u32, Vec<u64>> {
    let mut seen_batches = BTreeSet::new();
    let mut written: BTreeMap<u32, Vec<u64>> = BTreeMap::new();
    while r.world.now() < end && r.world.step().is_some() {
        let d = &r.world.model.cdc.downstream[0];
        for (batch, rows) in &d.queued {
            if seen_batches.insert(*batch) {
                for row in rows {
                    written.entry(row.key).or_default().push(row.commit_ts.0);
                }
            }
        }
    }
    written
}

/// Every key's versions were written once each, in commit-ts order, and as many versions
/// were written as upstream committed.
pub fn assert_once_in_commit_ts_order(r: &Run, written: &BTreeMap<u32, Vec<u64>>) {
    for (key, ts) in written {
        assert!(
            ts.windows(2).all(|w| w[0] < w[1]),
            "key {key}: written at {ts:?}, not once each in commit-ts order"
        );
    }
    let delivered: usize = written.values().map(Vec::len).sum();
    assert_eq!(
        delivered as u64, r.world.model.cdc.upstream.committed_versions,
        "every version committed upstream was written once"
    );
}

/// The commit ts of a transaction committed at `secs` simulated seconds (logical 0).
pub fn ts_at(secs: u64) -> u64 {
    faultline_cdc::Ts::at(SimTime(secs * 1_000_000), 0).0
}
