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
        load: WriteLoad::per_sec(50),
        // The fixed broadcast, so no region is left leaderless by tikv#14547 (PD can only
        // repair regions that have a leader).
        unreachable_broadcast: UnreachableBroadcast::RepeatIfNewMessages,
        ..Default::default()
    };
    cfg.pd.max_store_down_time = SimDuration::from_secs(60);
    cfg.pd.max_peer_down_duration = SimDuration::from_secs(60);
    // Lift the store limit so the whole repair fits in the run; its own test is below.
    cfg.pd.store_limit_add_peer_per_min = 100_000;
    let mut w = world(&cfg, 9);
    let victim = w.model.store_nodes()[3];
    w.kernel.schedule_fault(at(30), Fault::Crash(victim));
    run_to(&mut w, 79, 9); // the last heartbeat was at most 10 s before the kill
    assert_eq!(
        last(&w, "pd.down_stores"),
        0.0,
        "not Down before max_store_down_time"
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

/// A 4-store cluster of 400 regions whose store 3 is killed at 30 s, PD configured by `tune`.
fn killed_store_world(
    tune: impl FnOnce(&mut TikvConfig),
) -> faultline_sim::World<faultline_tikv::Cluster> {
    let mut cfg = TikvConfig {
        stores: 4,
        regions: 400,
        load: WriteLoad::per_sec(50),
        unreachable_broadcast: UnreachableBroadcast::RepeatIfNewMessages,
        ..Default::default()
    };
    tune(&mut cfg);
    let mut w = world(&cfg, 9);
    let victim = w.model.store_nodes()[3];
    w.kernel.schedule_fault(at(30), Fault::Crash(victim));
    w
}

#[test]
fn a_store_is_down_only_after_max_store_down_time_of_30_minutes() {
    let mut w = killed_store_world(|_| {});
    run_to(&mut w, 29 * 60, 9);
    assert_eq!(
        last(&w, "pd.down_stores"),
        0.0,
        "silent 28.5 min: not Down yet"
    );
    assert_eq!(w.kernel.log.count_containing("add peer by pd"), 0);
    run_to(&mut w, 31 * 60, 9);
    assert_eq!(last(&w, "pd.down_stores"), 1.0, "silent 30.5 min: Down");
    assert!(
        w.kernel.log.count_containing("add peer by pd") > 0,
        "repair started"
    );
}

/// Replicas PD added between `from` and `to` seconds in [`killed_store_world`], with the store
/// Down and its peers down after 60 s instead of 30 and 10 min, and `tune` applied.
fn replicas_added(tune: impl FnOnce(&mut TikvConfig), from: u64, to: u64) -> u64 {
    let mut w = killed_store_world(|cfg| {
        cfg.pd.max_store_down_time = SimDuration::from_secs(60);
        cfg.pd.max_peer_down_duration = SimDuration::from_secs(60);
        tune(cfg);
    });
    run_to(&mut w, from, 9);
    let start = w.kernel.log.count_containing("add peer by pd");
    assert!(start > 0, "repair started before {from} s");
    run_to(&mut w, to, 9);
    w.kernel.log.count_containing("add peer by pd") - start
}

#[test]
fn store_limit_caps_new_replicas_at_15_per_store_per_minute() {
    // Down at about 80-90 s; about 300 replicas to rebuild on 3 live stores.
    let minute = replicas_added(|_| {}, 100, 160);
    // 3 stores x 15 per minute, plus the token each store may hold at the start.
    assert!(
        (30..=48).contains(&minute),
        "{minute} replicas added in one minute"
    );
}

#[test]
fn replica_schedule_limit_caps_operators_in_flight() {
    let added = replicas_added(
        |cfg| {
            cfg.pd.store_limit_add_peer_per_min = 100_000;
            cfg.pd.replica_schedule_limit = 2;
        },
        100,
        110,
    );
    // Each operator ends within a PD round (the snapshot lands in milliseconds), so two in
    // flight allow about two new ones per one-second round.
    assert!((1..=22).contains(&added), "{added} replicas added in 10 s");
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
