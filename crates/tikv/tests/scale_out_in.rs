//! An elastic cluster: stores join (`add_store`) and PD's balance-region scheduler fills
//! them; stores leave (`remove_store`) and PD drains them to Tombstone. Raft invariants are
//! checked on every step (`run_to` panics on a violation).

mod common;

use common::*;
use faultline_sim::{SimDuration, World};
use faultline_tikv::{Cluster, StoreState, TikvAction, TikvConfig, WriteLoad};

const JOIN_SECS: u64 = 10;
const LEAVE_SECS: u64 = 200;
const WRITES_STOP_SECS: u64 = 400;

/// 3 stores that may grow to 6, 60 regions, 20 writes/s until 400 s; tikv-4..6 join at
/// 10 s, tikv-1..3 are removed at 200 s.
fn elastic_world(seed: u64) -> World<Cluster> {
    let cfg = TikvConfig {
        stores: 3,
        max_stores: 6,
        regions: 60,
        load: WriteLoad {
            stop_at: Some(SimDuration::from_secs(WRITES_STOP_SECS)),
            ..WriteLoad::per_sec(20)
        },
        ..Default::default()
    };
    let mut w = world(&cfg, seed);
    let mut at = |secs: u64, action: TikvAction| {
        let (node, t) = w.model.action_timer(action);
        w.kernel.set_timer(node, SimDuration::from_secs(secs), t);
    };
    for store in 3..6 {
        at(JOIN_SECS, TikvAction::AddStore { store });
    }
    for store in 0..3 {
        at(LEAVE_SECS, TikvAction::RemoveStore { store });
    }
    w
}

fn replicas_on(w: &World<Cluster>, store: u32) -> f64 {
    last(w, &format!("replicas.tikv-{}", store + 1))
}

#[test]
fn new_stores_fill_up_and_removed_stores_drain_to_tombstone() {
    for seed in 1..3 {
        let mut w = elastic_world(seed);
        run_to(&mut w, JOIN_SECS - 1, seed);
        assert_eq!(last(&w, "stores.up"), 3.0);
        assert_eq!(w.model.store_state(3), Some(StoreState::Absent));
        run_to(&mut w, LEAVE_SECS - 1, seed);
        assert_eq!(last(&w, "stores.up"), 6.0, "seed {seed}");
        for s in 0..6 {
            let n = replicas_on(&w, s);
            assert!(
                (29.0..=31.0).contains(&n),
                "seed {seed}: tikv-{} holds {n}",
                s + 1
            );
        }
        let leaders: Vec<f64> = (1..=6)
            .map(|i| last(&w, &format!("leaders.tikv-{i}")))
            .collect();
        eprintln!(
            "leaders {leaders:?} moves {} transfers {}",
            last(&w, "pd.region_moves"),
            w.kernel.log.count_containing("transfer")
        );
        assert!(
            last(&w, "leaders.tikv-4") > 0.0,
            "the balancer moves leaders too"
        );
        run_to(&mut w, WRITES_STOP_SECS + 60, seed);
        assert_eq!(last(&w, "stores.tombstone"), 3.0, "seed {seed}");
        for s in 0..3 {
            assert_eq!(
                replicas_on(&w, s),
                0.0,
                "seed {seed}: tikv-{} drained",
                s + 1
            );
            assert_eq!(w.model.store_state(s), Some(StoreState::Tombstone));
        }
        for s in 3..6 {
            assert_eq!(replicas_on(&w, s), 60.0, "seed {seed}: tikv-{}", s + 1);
        }
        assert_eq!(last(&w, "leaderless_regions"), 0.0, "seed {seed}");
        every_replica_has_every_committed_write(&w, seed);
        operator_series_match_the_log(&w, seed);
    }
}

/// Every operator PD added is running, finished or timed out, and the series count what
/// PD's log says.
fn operator_series_match_the_log(w: &World<Cluster>, seed: u64) {
    let count = |m: &str| last(w, m) as u64;
    let logged = |m: &str| w.kernel.log.count_containing(m);
    let finished = count("pd.operators_finished");
    assert!(finished > 0, "seed {seed}: operators finished");
    assert_eq!(finished, logged("operator finish"), "seed {seed}");
    let timed_out = count("pd.operators_timed_out");
    assert_eq!(timed_out, logged("operator timeout"), "seed {seed}");
    let running = count("pd.operators_running");
    assert_eq!(
        finished + timed_out + running,
        logged("add operator"),
        "seed {seed}"
    );
}

/// Every region's three replicas are on the stores that remain, and each has applied up to
/// its leader's commit index (writes stopped a minute ago).
fn every_replica_has_every_committed_write(w: &World<Cluster>, seed: u64) {
    for r in 0..w.model.region_count() {
        let d = w.model.region_detail(r).expect("region");
        let leader = d
            .peers
            .iter()
            .find(|p| p.role == "leader")
            .unwrap_or_else(|| panic!("seed {seed}: region {r} has a leader"));
        assert!(leader.commit > 6, "seed {seed}: region {r} took writes");
        for p in &d.peers {
            assert!(
                p.store >= 3,
                "seed {seed}: region {r} still on tikv-{}",
                p.store + 1
            );
            assert_eq!(
                p.commit,
                leader.commit,
                "seed {seed}: region {r} on tikv-{}",
                p.store + 1
            );
        }
    }
}

#[test]
fn pd_refuses_to_remove_a_store_the_replicas_need() {
    let cfg = TikvConfig {
        stores: 3,
        regions: 6,
        ..Default::default()
    };
    let mut w = world(&cfg, 1);
    let (node, t) = w.model.action_timer(TikvAction::RemoveStore { store: 0 });
    w.kernel.set_timer(node, SimDuration::from_secs(5), t);
    run_to(&mut w, 30, 1);
    assert_eq!(w.model.store_state(0), Some(StoreState::Up));
    assert_eq!(w.kernel.log.count_containing("store delete refused"), 1);
    assert_eq!(last(&w, "replicas.tikv-1"), 6.0);
}
