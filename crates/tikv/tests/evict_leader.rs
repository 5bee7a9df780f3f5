//! PD's evict-leader scheduler, as a rolling restart uses it: the store sheds every leader
//! within the leader-schedule-limit, takes none back while the scheduler stays, and the
//! balancer returns leaders once it is removed.

mod common;

use common::*;
use faultline_sim::{SimDuration, World};
use faultline_tikv::{Cluster, TikvAction, TikvConfig, WriteLoad};

const EVICT_SECS: u64 = 10;
const REMOVE_SECS: u64 = 90;

/// 3 stores, 60 regions (about 20 leaders each), 20 writes/s; tikv-1 evicted at 10 s, the
/// scheduler removed at 90 s.
fn evicting_world(seed: u64) -> World<Cluster> {
    let cfg = TikvConfig {
        stores: 3,
        regions: 60,
        load: WriteLoad::per_sec(20),
        ..Default::default()
    };
    let mut w = world(&cfg, seed);
    for (secs, action) in [
        (EVICT_SECS, TikvAction::EvictLeader { store: 0 }),
        (REMOVE_SECS, TikvAction::RemoveEvictLeader { store: 0 }),
    ] {
        let (node, t) = w.model.action_timer(action);
        w.kernel.set_timer(node, SimDuration::from_secs(secs), t);
    }
    w
}

#[test]
fn an_evicted_store_sheds_its_leaders_and_takes_none_until_the_scheduler_goes() {
    for seed in 1..4 {
        let mut w = evicting_world(seed);
        run_to(&mut w, EVICT_SECS, seed);
        let before = last(&w, "leaders.tikv-1");
        assert!(
            before >= 10.0,
            "seed {seed}: tikv-1 leads {before} at the start"
        );
        // 4 transfers in flight at most; each ends within a second.
        run_to(&mut w, EVICT_SECS + 15, seed);
        assert_eq!(last(&w, "leaders.tikv-1"), 0.0, "seed {seed}: leaders left");
        assert!(last(&w, "pd.evict_leader_ops") >= before, "seed {seed}");
        // The balancer sees 0 against about 30 and would move leaders back, but must not.
        run_to(&mut w, REMOVE_SECS, seed);
        let window =
            w.kernel
                .metrics
                .window("leaders.tikv-1", at(EVICT_SECS + 15), at(REMOVE_SECS));
        assert!(window.len() >= 60, "seed {seed}: {} samples", window.len());
        assert!(
            window.iter().all(|n| *n == 0.0),
            "seed {seed}: leaders came back while evicting: {window:?}"
        );
        let transfers = last(&w, "pd.evict_leader_ops");
        assert!(
            transfers <= before + 2.0,
            "seed {seed}: {transfers} evict transfers for {before} leaders (moved back and off again)"
        );
        assert_eq!(last(&w, "leaderless_regions"), 0.0, "seed {seed}");
        run_to(&mut w, REMOVE_SECS + 60, seed);
        let back = last(&w, "leaders.tikv-1");
        assert!(
            back >= 15.0,
            "seed {seed}: balanced back to {back} after the removal"
        );
    }
}
