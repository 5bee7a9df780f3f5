//! A killed store that comes back rejoins quietly: once its leaders are balanced back, the
//! cluster holds still. (Regression: PD's leader balancer spent its whole per-second budget
//! on one store pair, overshot the tolerance and moved the leaders back the next round, so
//! leader transfers, and with them elections, never stopped after the restart.)

mod common;

use common::*;
use faultline_sim::{Fault, World};
use faultline_tikv::{Cluster, TikvConfig, WriteLoad};

const KILL_SECS: u64 = 30;
const RESTART_SECS: u64 = 120;
/// Time after the restart by which leaders must have settled.
const SETTLE_SECS: u64 = 60;

/// `scenarios/raft-basics-kill-a-store.toml`: 3 stores, 64 regions, 20 writes/s, tikv-1
/// killed at 30 s and restarted at 2 min.
fn kill_and_restart(seed: u64, hibernate: bool) -> World<Cluster> {
    let mut cfg = TikvConfig {
        stores: 3,
        regions: 64,
        load: WriteLoad::per_sec(20),
        ..Default::default()
    };
    cfg.hibernate.enabled = hibernate;
    let mut w = world(&cfg, seed);
    let victim = w.model.store_nodes()[0];
    w.kernel.schedule_fault(at(KILL_SECS), Fault::Crash(victim));
    w.kernel
        .schedule_fault(at(RESTART_SECS), Fault::Restart(victim));
    w
}

fn leaders(w: &World<Cluster>) -> [f64; 3] {
    [1, 2, 3].map(|i| last(w, &format!("leaders.tikv-{i}")))
}

#[test]
fn restarted_store_gets_leaders_back_then_elections_stop() {
    for seed in 0..4 {
        for hibernate in [false, true] {
            let mut w = kill_and_restart(seed, hibernate);
            run_to(&mut w, RESTART_SECS + SETTLE_SECS, seed);
            let settled = leaders(&w);
            let elections = last(&w, "elections_started");
            assert!(
                settled[0] >= 15.0,
                "seed {seed} hibernate {hibernate}: PD balanced leaders back to tikv-1: {settled:?}"
            );
            run_to(&mut w, RESTART_SECS + SETTLE_SECS + 120, seed);
            let more = last(&w, "elections_started") - elections;
            assert!(
                more <= 2.0,
                "seed {seed} hibernate {hibernate}: {more} elections in 2 quiet minutes after \
                 the restart settled (leaders ping-pong)"
            );
            assert_eq!(
                leaders(&w),
                settled,
                "seed {seed} hibernate {hibernate}: leader counts stable"
            );
            assert_eq!(last(&w, "leaderless_regions"), 0.0);
        }
    }
}

#[test]
fn restarted_followers_learn_the_leader_without_campaigning() {
    // Without hibernation every leader heartbeats, so a restarted follower hears its leader
    // within two ticks and never reaches its election timeout.
    for seed in 0..4 {
        let mut w = kill_and_restart(seed, false);
        run_to(&mut w, RESTART_SECS + SETTLE_SECS, seed);
        let pre_votes = w
            .kernel
            .log
            .entries()
            .filter(|e| e.at >= at(RESTART_SECS) && e.message == "starting a new election")
            .filter(|e| e.detail.contains("pre_vote=true"))
            .count();
        assert_eq!(pre_votes, 0, "seed {seed}: a restarted follower campaigned");
    }
}
