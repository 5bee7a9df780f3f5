//! Message-level tests of a split as the layers above Raft see it: where the parent's locks go.

use crate::out::Out;
use crate::stack::Stack;
use crate::ts::Ts;
use crate::upstream::upstream_txns::tests::quiet_world;
use crate::upstream::workload::{Phase, Txn};

/// A transaction wrote two keys of region 0; the commit of the first already applied (it was
/// another region's then, which merged into this one), so only the second is locked. A split
/// between them leaves a lock on the second key's region only: the first key's new region has
/// none (issue 52: a lock placed on every key of the transaction in the parent's range was
/// never released, and held the new region's resolved ts back for good).
#[test]
fn a_split_moves_only_the_keys_still_locked() {
    let mut w = quiet_world();
    let Stack { tikv, cdc } = &mut w.model;
    let (start, end) = cdc.ks.region_keys(0);
    assert!(end - start >= 2, "region 0 holds two keys");
    let (committed, locked) = (start, end - 1);
    let start_ts = Ts(100);
    let txn = Txn {
        start_ts,
        commit_ts: Ts(200),
        writes: vec![(committed, 1), (locked, 2)],
        phase: Phase::Commit,
        reqs: Vec::new(),
        backoff: Default::default(),
        ops: Vec::new(),
    };
    cdc.workload.open.insert(cdc.workload.next_txn, txn);
    cdc.upstream.lock(0, start_ts, &[locked]);
    let first = tikv.region_count();
    cdc.on_region_split(&mut Out::default(), 0, (first, 1, 2), Some(locked));
    let (here, there) = (cdc.ks.region_of(committed), cdc.ks.region_of(locked));
    assert_ne!(here, there, "the split fell between the two keys");
    assert_eq!(
        cdc.upstream.oldest_lock(here),
        None,
        "no lock on the committed key"
    );
    assert_eq!(cdc.upstream.oldest_lock(there), Some(start_ts));
}
