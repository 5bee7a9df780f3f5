//! Region splits (`pd-ctl operator add split-region`): the leader proposes the split through
//! Raft, and when it applies, the new regions exist on the parent's stores, their peer on the
//! leader's store campaigns at once, and every resulting region's epoch version grows by the
//! number of new regions. Raft invariants are checked after every event throughout.

mod common;

use common::*;
use faultline_sim::{Fault, SimDuration, World};
use faultline_tikv::{Cluster, RegionEpoch, TikvAction, TikvConfig, WriteLoad};

/// 3 stores, 3 replicas, 6 regions, a light write load; region 2 is split into `parts` at 5 s.
fn splitting(seed: u64, parts: u32) -> World<Cluster> {
    let cfg = TikvConfig {
        stores: 3,
        regions: 6,
        load: WriteLoad::per_sec(10),
        ..Default::default()
    };
    let mut w = world(&cfg, seed);
    let (node, t) = w.model.action_timer(TikvAction::Split {
        region: 2,
        parts,
        at: None,
    });
    w.kernel.set_timer(node, SimDuration::from_secs(5), t);
    w
}

/// The stores of a region's replicas, in slot order.
fn stores_of(w: &World<Cluster>, region: u32) -> Vec<u32> {
    let d = w.model.region_detail(region).expect("region exists");
    d.peers.iter().map(|p| p.store).collect()
}

#[test]
fn a_split_region_elects_a_leader_at_once_on_the_parents_stores() {
    for seed in 1..4 {
        let mut w = splitting(seed, 3);
        run_to(&mut w, 5, seed);
        assert_eq!(
            w.model.region_count(),
            6,
            "seed {seed}: nothing before the split"
        );
        let leader = w.model.region_leader_store(2);
        run_to(&mut w, 6, seed);
        assert_eq!(w.model.region_count(), 8, "seed {seed}: two new regions");
        let split = RegionEpoch {
            conf_ver: 1,
            version: 3,
        };
        for r in [2, 6, 7] {
            assert_eq!(
                w.model.region_epoch(r),
                Some(split),
                "seed {seed} region {r}"
            );
        }
        assert_eq!(w.model.region_epoch(0), Some(RegionEpoch::INIT));
        for r in [6, 7] {
            assert_eq!(stores_of(&w, r), stores_of(&w, 2), "seed {seed} region {r}");
            // Its peer on the parent leader's store campaigned at once: led within a second
            // (an election timeout is 10 s or more).
            assert_eq!(
                w.model.region_leader_store(r),
                leader,
                "seed {seed} region {r}"
            );
        }
        let logged = w.kernel.log.entries().any(|e| {
            e.message == "split region" && e.detail.contains("new_region_ids=6..=7 version=3")
        });
        assert!(logged, "seed {seed}: the split is in the log");
        // The new regions take writes and settle like the others.
        run_to(&mut w, 60, seed);
        assert_eq!(last(&w, "leaderless_regions"), 0.0, "seed {seed}");
        assert!(w.model.region_detail(7).expect("exists").peers[0].commit > 5);
    }
}

/// A split is a Raft entry: a leader that lost its quorum cannot commit it, so nothing splits.
#[test]
fn a_split_without_a_quorum_does_nothing() {
    let seed = 7;
    let mut w = splitting(seed, 2);
    let nodes = w.model.store_nodes().to_vec();
    run_to(&mut w, 4, seed);
    let leader = w.model.region_leader_store(2).expect("region 2 is led") as usize;
    for (s, node) in nodes.iter().enumerate() {
        if s != leader {
            w.kernel.schedule_fault(at(4), Fault::Crash(*node));
        }
    }
    run_to(&mut w, 40, seed);
    assert_eq!(w.model.region_count(), 6);
    assert_eq!(w.model.region_epoch(2), Some(RegionEpoch::INIT));
}

/// A store that is down when the split applies gets its peers of the new regions too, and
/// catches up once it is back: the new regions' logs reach it like any other.
#[test]
fn a_store_down_at_the_split_catches_up_on_the_new_regions() {
    let seed = 3;
    let mut w = splitting(seed, 2);
    run_to(&mut w, 3, seed);
    let leader = w.model.region_leader_store(2).expect("region 2 is led") as usize;
    let down = (0..3).find(|s| *s != leader).expect("three stores");
    let node = w.model.store_nodes()[down];
    w.kernel.schedule_fault(at(3), Fault::Crash(node));
    w.kernel.schedule_fault(at(20), Fault::Restart(node));
    run_to(&mut w, 90, seed);
    assert_eq!(w.model.region_count(), 7);
    let d = w.model.region_detail(6).expect("the new region");
    let commits: Vec<u64> = d.peers.iter().map(|p| p.commit).collect();
    assert!(
        commits.iter().all(|c| *c == commits[0] && *c > 5),
        "{commits:?}"
    );
    assert_eq!(last(&w, "leaderless_regions"), 0.0);
}
