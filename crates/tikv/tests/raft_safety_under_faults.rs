//! Raft safety (one leader per region per term, committed entries never lost) across many
//! seeds while stores are killed, restarted, paused and partitioned, with writes flowing.

mod common;

use common::*;
use faultline_sim::{Fault, LinkChange, SimRng};
use faultline_tikv::{TikvConfig, UnreachableBroadcast, WriteLoad};

fn chaos_run(seed: u64, hibernate: bool) -> (u64, u64) {
    let mut cfg = TikvConfig {
        stores: 5,
        regions: 24,
        load: WriteLoad::per_sec(40),
        unreachable_broadcast: UnreachableBroadcast::RepeatIfNewMessages,
        ..Default::default()
    };
    cfg.hibernate.enabled = hibernate;
    let mut w = world(&cfg, seed);
    let stores = w.model.store_nodes().to_vec();
    let mut rng = SimRng::stream(seed, "test-faults");
    // A fault every 5-20 s for 4 minutes, then 2 quiet minutes to recover.
    let mut t = 10;
    while t < 240 {
        let a = stores[rng.below(stores.len() as u64) as usize];
        let b = stores[rng.below(stores.len() as u64) as usize];
        let heal_at = t + rng.range(3, 30);
        match rng.below(3) {
            0 => {
                w.kernel.schedule_fault(at(t), Fault::Crash(a));
                w.kernel.schedule_fault(at(heal_at), Fault::Restart(a));
            }
            1 => {
                w.kernel.schedule_fault(at(t), Fault::Pause(a));
                w.kernel.schedule_fault(at(heal_at), Fault::Resume(a));
            }
            _ => {
                let cut = Fault::Links {
                    from: vec![a],
                    to: vec![b],
                    both_ways: rng.chance(1, 2),
                    change: LinkChange::Cut,
                };
                let heal = Fault::Links {
                    from: vec![a],
                    to: vec![b],
                    both_ways: true,
                    change: LinkChange::Restore,
                };
                w.kernel.schedule_fault(at(t), cut);
                w.kernel.schedule_fault(at(heal_at), heal);
            }
        }
        t += rng.range(5, 20);
    }
    run_to(&mut w, 400, seed);
    (
        last(&w, "writes_applied") as u64,
        last(&w, "leaderless_regions") as u64,
    )
}

#[test]
fn invariants_hold_across_fifty_seeds_with_kills_pauses_and_partitions() {
    for seed in 0..50 {
        let (applied, leaderless) = chaos_run(seed, seed % 5 != 0);
        assert!(
            applied > 1000,
            "seed {seed}: writes stalled ({applied} applied)"
        );
        assert_eq!(
            leaderless, 0,
            "seed {seed}: regions still leaderless after faults healed"
        );
    }
}
