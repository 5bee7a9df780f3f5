//! PD moves a replica through a learner, as its joint-consensus operators do: add a learner,
//! send it a snapshot (its transfer takes region size / 100 MiB/s), promote it and demote the
//! old voter, remove the old peer. Raft invariants are checked on every step (`run_to`).

mod common;

use common::*;
use faultline_sim::{Fault, LinkChange, LogEntry, SimDuration, World};
use faultline_tikv::{Cluster, StoreState, TikvAction, TikvConfig, WriteLoad};

/// 3 stores and one region under 20 writes/s until 60 s; tikv-4 joins at 5 s and tikv-3 is removed at
/// 15 s, so PD moves tikv-3's replica to tikv-4. `size_mib` is the region's data.
fn move_world(seed: u64, size_mib: u32) -> World<Cluster> {
    let cfg = TikvConfig {
        stores: 3,
        max_stores: 4,
        regions: 1,
        region_size_mib: size_mib,
        load: WriteLoad {
            stop_at: Some(SimDuration::from_secs(60)),
            ..WriteLoad::per_sec(20)
        },
        ..Default::default()
    };
    let mut w = world(&cfg, seed);
    for (secs, action) in [
        (5, TikvAction::AddStore { store: 3 }),
        (15, TikvAction::RemoveStore { store: 2 }),
    ] {
        let (node, t) = w.model.action_timer(action);
        w.kernel.set_timer(node, SimDuration::from_secs(secs), t);
    }
    w
}

/// The first log line whose message contains `message`.
fn first<'a>(w: &'a World<Cluster>, message: &str) -> Option<&'a LogEntry> {
    w.kernel.log.entries().find(|e| e.message.contains(message))
}

fn replicas_on(w: &World<Cluster>, store: u32) -> f64 {
    last(w, &format!("replicas.tikv-{}", store + 1))
}

/// `store`'s links to every other store (cut or restored).
fn isolate(w: &World<Cluster>, store: usize, change: LinkChange) -> Fault {
    let nodes = w.model.store_nodes();
    Fault::Links {
        from: vec![nodes[store]],
        to: (0..4).filter(|s| *s != store).map(|s| nodes[s]).collect(),
        both_ways: true,
        change,
    }
}

#[test]
fn a_move_adds_a_learner_sends_it_a_snapshot_then_swaps_it_in() {
    let seed = 3;
    let mut w = move_world(seed, 96);
    run_to(&mut w, 40, seed);
    let added = first(&w, "add learner").expect("a learner was added");
    assert!(added.detail.contains("store_id=4"), "{}", added.detail);
    let landed = first(&w, "learner applied snapshot").expect("the snapshot landed");
    let promoted = first(&w, "promote learner").expect("the learner was promoted");
    // 96 MiB at 100 MiB/s, plus the link's delay.
    let transfer = landed.at.0 - added.at.0;
    assert!(
        (960_000..1_100_000).contains(&transfer),
        "snapshot took {transfer} µs"
    );
    assert!(promoted.at > landed.at);
    assert!(promoted
        .detail
        .contains("promoted_store_id=4 removed_store_id=3"));
    assert_eq!(replicas_on(&w, 2), 0.0);
    assert_eq!(replicas_on(&w, 3), 1.0);
    assert_eq!(last(&w, "learners"), 0.0);
    assert_eq!(w.model.store_state(2), Some(StoreState::Tombstone));
    // Add learner (+1), enter joint (+2), leave joint (+2), remove the demoted peer (+1).
    let epoch = w.model.region_detail(0).expect("region 0").epoch;
    assert_eq!(epoch.conf_ver, 1 + 1 + 5);
}

#[test]
fn a_bigger_region_takes_longer_to_send() {
    let seed = 3;
    let mut w = move_world(seed, 960);
    run_to(&mut w, 40, seed);
    let added = first(&w, "add learner").expect("a learner was added").at;
    let landed = first(&w, "learner applied snapshot").expect("landed").at;
    let transfer = landed.0 - added.0;
    assert!(
        (9_600_000..9_800_000).contains(&transfer),
        "960 MiB took {transfer} µs"
    );
}

/// While the learner waits for its snapshot the region has four members; the old voter
/// still votes, so the region keeps committing.
#[test]
fn the_region_keeps_committing_while_its_learner_catches_up() {
    let seed = 5;
    let mut w = move_world(seed, 960);
    run_to(&mut w, 18, seed);
    assert_eq!(last(&w, "learners"), 1.0);
    assert_eq!(last(&w, "replicas_per_region.max"), 4.0);
    assert_eq!(last(&w, "snapshots_in_flight"), 1.0);
    let before = last(&w, "writes_applied");
    run_to(&mut w, 22, seed);
    assert!(last(&w, "writes_applied") >= before + 60.0);
    assert_eq!(replicas_on(&w, 2), 1.0, "tikv-3 votes until the swap");
}

/// A snapshot whose link breaks mid-transfer is lost; the leader sends a new one once the
/// first should have landed, and the move completes after the link heals.
#[test]
fn a_snapshot_lost_to_a_cut_is_sent_again() {
    let seed = 7;
    let mut w = move_world(seed, 960);
    run_to(&mut w, 16, seed);
    assert!(
        first(&w, "add learner").is_some(),
        "the learner exists at 16 s"
    );
    let cut = isolate(&w, 3, LinkChange::Cut);
    w.kernel.schedule_fault(at(17), cut);
    let heal = isolate(&w, 3, LinkChange::Restore);
    w.kernel.schedule_fault(at(30), heal);
    run_to(&mut w, 29, seed);
    assert!(first(&w, "learner applied snapshot").is_none());
    assert_eq!(replicas_on(&w, 2), 1.0, "no swap without a snapshot");
    run_to(&mut w, 80, seed);
    assert!(first(&w, "learner applied snapshot").is_some());
    assert_eq!(replicas_on(&w, 3), 1.0);
    assert_eq!(replicas_on(&w, 2), 0.0);
}

/// Joint consensus keeps a quorum of the old and the new configuration: a move of tikv-3's
/// replica completes while tikv-2 is cut off, with no committed entry lost (the invariants
/// are checked on every step), and tikv-2 catches up once it is back.
#[test]
fn a_move_completes_while_another_replica_lags() {
    let seed = 4;
    let mut w = move_world(seed, 96);
    let cut = isolate(&w, 1, LinkChange::Cut);
    w.kernel.schedule_fault(at(10), cut);
    let heal = isolate(&w, 1, LinkChange::Restore);
    w.kernel.schedule_fault(at(40), heal);
    run_to(&mut w, 39, seed);
    assert_eq!(w.model.region_leader_store(0), Some(0));
    assert_eq!(
        replicas_on(&w, 2),
        0.0,
        "moved off tikv-3 while tikv-2 lags"
    );
    assert_eq!(replicas_on(&w, 3), 1.0);
    run_to(&mut w, 90, seed);
    let d = w.model.region_detail(0).expect("region 0");
    let commit = d.peers.iter().map(|p| p.commit).max().unwrap_or(0);
    for p in &d.peers {
        assert_eq!(p.commit, commit, "tikv-{} caught up", p.store + 1);
    }
    assert_eq!(w.model.store_state(2), Some(StoreState::Tombstone));
}
