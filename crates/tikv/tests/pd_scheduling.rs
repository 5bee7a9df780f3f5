//! PD: TSO, Down stores and replica repair, leader balancing.

mod common;

use common::*;
use faultline_sim::{Fault, SimDuration, SimTime};
use faultline_tikv::{TikvAction, TikvConfig, UnreachableBroadcast, WriteLoad};

#[test]
fn tso_is_strictly_increasing_and_carries_physical_millis() {
    let cfg = TikvConfig::default();
    let mut w = world(&cfg, 1);
    let a = w.model.pd_tso(SimTime(5_000_000));
    let b = w.model.pd_tso(SimTime(5_000_000));
    let c = w.model.pd_tso(SimTime(4_000_000));
    assert!(a < b && b < c);
    assert_eq!(a >> 18, 5_000);
}

#[test]
fn down_store_replicas_are_rebuilt_on_live_stores() {
    let mut cfg = TikvConfig {
        stores: 4,
        regions: 400,
        load: WriteLoad { writes_per_sec: 50 },
        // The fixed broadcast, so no region is left leaderless by tikv#14547 (PD can only
        // repair regions that have a leader).
        unreachable_broadcast: UnreachableBroadcast::RepeatIfNewMessages,
        ..Default::default()
    };
    cfg.pd.max_peer_down_duration = SimDuration::from_secs(60);
    let mut w = world(&cfg, 9);
    let victim = w.model.store_nodes()[3];
    w.kernel.schedule_fault(at(30), Fault::Crash(victim));
    run_to(&mut w, 79, 9); // the last heartbeat was at most 10 s before the kill
    assert_eq!(
        last(&w, "pd.down_stores"),
        0.0,
        "not Down before max_peer_down_duration"
    );
    run_to(&mut w, 200, 9);
    assert_eq!(last(&w, "pd.down_stores"), 1.0);
    assert_eq!(w.kernel.log.count_containing("store is down"), 1);
    for r in 0..400 {
        let d = w.model.region_detail(r).unwrap();
        assert!(
            d.peers.iter().all(|p| p.store != 3),
            "region {r} still has a replica on the dead store: {d:?}"
        );
        let mut stores: Vec<u32> = d.peers.iter().map(|p| p.store).collect();
        stores.dedup();
        assert_eq!(stores.len(), 3, "replicas on distinct stores");
    }
    assert_eq!(last(&w, "leaderless_regions"), 0.0);
    // A write after repair commits on the new replica too.
    let (node, t) = w.model.action_timer(TikvAction::Write { region: 3 });
    w.kernel.set_timer(node, SimDuration::from_secs(1), t);
    run_to(&mut w, 240, 9);
    let d = w.model.region_detail(3).unwrap();
    let commits: Vec<u64> = d.peers.iter().map(|p| p.commit).collect();
    assert!(
        commits.iter().all(|c| *c == commits[0]),
        "all replicas caught up: {commits:?}"
    );
}

#[test]
fn transfer_leader_action_moves_leadership() {
    let cfg = TikvConfig {
        stores: 3,
        regions: 3,
        ..Default::default()
    };
    let mut w = world(&cfg, 2);
    assert_eq!(w.model.region_leader_store(0), Some(0));
    let (node, t) = w.model.action_timer(TikvAction::TransferLeader {
        region: 0,
        to_store: 2,
    });
    w.kernel.set_timer(node, SimDuration::from_secs(5), t);
    run_to(&mut w, 10, 2);
    assert_eq!(w.model.region_leader_store(0), Some(2));
    assert!(w.model.region_leader_in_lease(0));
}
