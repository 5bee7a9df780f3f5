//! Leader transfers an operator asks PD for (`pd-ctl operator add transfer-leader`): one
//! region, or every leader of a store; PD refuses a store without a replica of the region.

mod common;

use common::*;
use faultline_sim::{SimDuration, World};
use faultline_tikv::{Cluster, TikvAction, TikvConfig, WriteLoad};

/// 4 stores, 3 replicas, 40 regions (10 leaders per store), a light write load; the
/// balancer is off so what the transfers did stays to be seen.
fn cluster(seed: u64, action: TikvAction) -> World<Cluster> {
    let mut cfg = TikvConfig {
        stores: 4,
        regions: 40,
        load: WriteLoad::per_sec(10),
        ..Default::default()
    };
    cfg.pd.leader_balance = false;
    let mut w = world(&cfg, seed);
    let (node, t) = w.model.action_timer(action);
    w.kernel.set_timer(node, SimDuration::from_secs(5), t);
    w
}

/// Regions whose replicas include store `s` (0-based).
fn regions_with_replica_on(w: &World<Cluster>, s: u32) -> Vec<u32> {
    (0..w.model.region_count())
        .filter(|r| {
            let d = w.model.region_detail(*r).expect("region exists");
            d.peers.iter().any(|p| p.store == s)
        })
        .collect()
}

#[test]
fn a_store_wide_transfer_moves_every_leader_that_has_a_replica_on_the_target() {
    for seed in 1..4 {
        let mut w = cluster(
            seed,
            TikvAction::TransferLeaders {
                from_store: 0,
                to_store: 1,
            },
        );
        run_to(&mut w, 5, seed);
        let led: Vec<u32> = (0..w.model.region_count())
            .filter(|r| w.model.region_leader_store(*r) == Some(0))
            .collect();
        let movable: Vec<u32> = regions_with_replica_on(&w, 1)
            .into_iter()
            .filter(|r| led.contains(r))
            .collect();
        // Placement rotates replicas over stores, so every region tikv-1 leads has a replica
        // on tikv-2; the refusal test below covers regions without one.
        assert!(!movable.is_empty(), "seed {seed}");
        run_to(&mut w, 20, seed);
        for r in &led {
            let now = w.model.region_leader_store(*r);
            let want = if movable.contains(r) { 1 } else { 0 };
            assert_eq!(now, Some(want), "seed {seed}: region {r}");
        }
        assert_eq!(last(&w, "pd.admin_transfer_ops"), movable.len() as f64);
        assert_eq!(last(&w, "leaderless_regions"), 0.0, "seed {seed}");
    }
}

#[test]
fn pd_refuses_a_transfer_to_a_store_without_a_replica() {
    let seed = 3;
    let probe = cluster(seed, TikvAction::Write { region: 0 });
    let region = (0..probe.model.region_count())
        .find(|r| !regions_with_replica_on(&probe, 3).contains(r))
        .expect("some region has no replica on tikv-4");
    let leader = probe.model.region_leader_store(region);
    let mut w = cluster(
        seed,
        TikvAction::TransferLeader {
            region,
            to_store: 3,
        },
    );
    run_to(&mut w, 20, seed);
    assert_eq!(w.model.region_leader_store(region), leader);
    assert_eq!(
        w.kernel
            .log
            .count_containing("admin-transfer-leader refused"),
        1
    );
    assert_eq!(last(&w, "pd.admin_transfer_ops"), 0.0);
}

/// PD's log shows the transfer as PD's does: `add operator` naming `admin-transfer-leader`
/// and both stores, then `operator finish` for the same region once a heartbeat shows the new
/// leader.
#[test]
fn pd_logs_the_admin_operator_when_added_and_when_finished() {
    let seed = 1;
    let mut w = cluster(
        seed,
        TikvAction::TransferLeaders {
            from_store: 0,
            to_store: 1,
        },
    );
    run_to(&mut w, 20, seed);
    let lines = |message: &str| -> Vec<String> {
        w.kernel
            .log
            .entries()
            .filter(|e| e.message == message && e.detail.contains("admin-transfer-leader"))
            .map(|e| e.detail.clone())
            .collect()
    };
    let added = lines("add operator");
    assert!(!added.is_empty(), "the transfers were logged");
    let want = "{transfer leader: store 1 to 2}";
    assert!(added.iter().all(|d| d.contains(want)), "{added:?}");
    let region_of = |d: &String| d.split_whitespace().next().map(str::to_string);
    let finished: Vec<_> = lines("operator finish").iter().map(region_of).collect();
    for d in &added {
        assert!(
            finished.contains(&region_of(d)),
            "{d} finished: {finished:?}"
        );
    }
}
