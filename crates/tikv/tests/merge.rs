//! Region merges (`pd-ctl operator add merge-region`): the source's leader proposes
//! PrepareMerge, the target's leader CommitMerge; the target takes the source's range and the
//! source's peers are destroyed. A target whose epoch changed in between makes the source roll
//! back. Raft invariants are checked after every event throughout (`run_to`).

mod common;

use common::*;
use faultline_sim::{SimDuration, World};
use faultline_tikv::{Cluster, OpOutcome, RegionEpoch, TikvAction, TikvConfig, WriteLoad};

/// `stores` stores, 6 small regions (16 MiB: merged, two stay under the split size), a light
/// write load; the actions run at the given microsecond.
fn merging(seed: u64, stores: u32, actions: &[(u64, TikvAction)]) -> World<Cluster> {
    let cfg = TikvConfig {
        stores,
        regions: 6,
        region_size_mib: 16,
        load: WriteLoad::per_sec(10),
        ..Default::default()
    };
    let mut w = world(&cfg, seed);
    for (us, action) in actions {
        let (node, t) = w.model.action_timer(*action);
        w.kernel.set_timer(node, SimDuration(*us), t);
    }
    w
}

const MERGE_2_INTO_3: TikvAction = TikvAction::Merge {
    source: 2,
    target: 3,
};

/// Position of the first log line whose message is `message`.
fn logged_at(w: &World<Cluster>, message: &str) -> Option<usize> {
    w.kernel.log.entries().position(|e| e.message == message)
}

#[test]
fn the_target_takes_the_source_and_the_source_is_gone() {
    for seed in 1..4 {
        let mut w = merging(seed, 3, &[(5_000_000, MERGE_2_INTO_3)]);
        run_to(&mut w, 5, seed);
        assert_eq!(w.model.live_region_count(), 6, "seed {seed}");
        run_to(&mut w, 6, seed);
        assert_eq!(w.model.region_merged_into(2), Some(3), "seed {seed}");
        assert_eq!(w.model.live_region_count(), 5, "seed {seed}");
        // PrepareMerge: version and conf_ver +1 on the source; CommitMerge: the target's
        // version is max(source, target) + 1.
        let source = RegionEpoch {
            conf_ver: 2,
            version: 2,
        };
        assert_eq!(w.model.region_epoch(2), Some(source), "seed {seed}");
        let target = RegionEpoch {
            conf_ver: 1,
            version: 3,
        };
        assert_eq!(w.model.region_epoch(3), Some(target), "seed {seed}");
        assert_eq!(w.model.region_leader_store(2), None, "seed {seed}");
        assert!(
            !w.model.region_leaderless(2),
            "seed {seed}: gone, not leaderless"
        );
        let order: Vec<Option<usize>> = ["merge region operator", "prepare merge", "commit merge"]
            .iter()
            .map(|m| logged_at(&w, m))
            .collect();
        assert!(order.iter().all(Option::is_some), "seed {seed}: {order:?}");
        assert!(
            order.windows(2).all(|p| p[0] < p[1]),
            "seed {seed}: {order:?}"
        );
        run_to(&mut w, 40, seed);
        assert_eq!(last(&w, "regions"), 5.0, "seed {seed}");
        // Both sizes, and the writes since (each region starts at 16 MiB).
        assert!(
            w.model.region_bytes(3) >= 32 << 20,
            "seed {seed}: both sizes"
        );
        assert_eq!(w.model.region_bytes(2), 0, "seed {seed}");
        assert_eq!(last(&w, "leaderless_regions"), 0.0, "seed {seed}");
        // The merged region's writes go to its target, which keeps committing.
        let commit = |w: &World<Cluster>| w.model.region_detail(3).expect("exists").peers[0].commit;
        let before = commit(&w);
        run_to(&mut w, 60, seed);
        assert!(commit(&w) > before, "seed {seed}: the target takes writes");
    }
}

#[test]
fn a_target_that_split_meanwhile_makes_the_source_roll_back() {
    let seed = 2;
    // PD orders the merge with region 3's epoch as it is; a split of region 3 applies before
    // the CommitMerge is proposed, so the merge check finds a newer target and rolls back.
    let split = TikvAction::Split {
        region: 3,
        parts: 2,
        at: None,
    };
    let mut w = merging(seed, 3, &[(5_000_000, split), (5_000_001, MERGE_2_INTO_3)]);
    run_to(&mut w, 5, seed);
    w.model.take_op_events();
    run_to(&mut w, 10, seed);
    assert!(logged_at(&w, "prepare merge").is_some());
    assert!(logged_at(&w, "rollback merge").is_some());
    assert!(logged_at(&w, "commit merge").is_none());
    assert_eq!(w.model.region_merged_into(2), None);
    // PrepareMerge and RollbackMerge each grew the source's version.
    assert_eq!(w.model.region_epoch(2).map(|e| e.version), Some(3));
    let outcomes: Vec<OpOutcome> = (w.model.take_op_events().into_iter())
        .filter(|e| e.region == 2)
        .map(|e| e.outcome)
        .collect();
    assert!(outcomes.contains(&OpOutcome::PrepareMerge { version: 2 }));
    assert!(outcomes.contains(&OpOutcome::RollbackMerge { version: 3 }));
    // Out of the Merging state, the source takes proposals again.
    let leader = w.model.region_leader_store(2).expect("led");
    w.model.propose_local(&mut w.kernel, leader, 2, 77);
    run_to(&mut w, 12, seed);
    let answered = (w.model.take_op_events().into_iter()).find(|e| e.op == 77);
    assert_eq!(answered.map(|e| e.outcome), Some(OpOutcome::Applied));
}

#[test]
fn a_merging_source_refuses_proposals() {
    let seed = 1;
    let split = TikvAction::Split {
        region: 3,
        parts: 2,
        at: None,
    };
    let mut w = merging(seed, 3, &[(5_000_000, split), (5_000_001, MERGE_2_INTO_3)]);
    // Between PrepareMerge's apply and the rollback two seconds of merge checks pass.
    while logged_at(&w, "prepare merge").is_none() {
        w.step();
    }
    let leader = w.model.region_leader_store(2).expect("led");
    w.model.propose_local(&mut w.kernel, leader, 2, 78);
    let answered = (w.model.take_op_events().into_iter()).find(|e| e.op == 78);
    assert_eq!(answered.map(|e| e.outcome), Some(OpOutcome::MergingMode));
}

#[test]
fn pd_refuses_regions_whose_replicas_are_on_different_stores() {
    let seed = 1;
    // With 4 stores, region 0's replicas are on stores 0-2 and region 1's on stores 1-3.
    let merge = TikvAction::Merge {
        source: 0,
        target: 1,
    };
    let mut w = merging(seed, 4, &[(5_000_000, merge)]);
    run_to(&mut w, 8, seed);
    let refused = (w.kernel.log.entries()).find(|e| e.message == "merge region refused");
    let detail = refused.map(|e| e.detail.clone()).unwrap_or_default();
    assert!(detail.contains("different stores"), "{detail}");
    assert_eq!(w.model.region_merged_into(0), None);
    assert_eq!(w.model.live_region_count(), 6);
}
