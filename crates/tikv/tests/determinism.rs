//! Same seed, same run bit for bit; another seed, another run.

mod common;

use common::*;
use faultline_sim::Fault;
use faultline_tikv::{TikvConfig, WriteLoad};

fn trace(seed: u64) -> (u64, Vec<f64>) {
    let cfg = TikvConfig {
        stores: 4,
        regions: 2_000,
        load: WriteLoad::per_sec(200),
        ..Default::default()
    };
    let mut w = world(&cfg, seed);
    let victim = w.model.store_nodes()[1];
    w.kernel.schedule_fault(at(30), Fault::Crash(victim));
    w.kernel.schedule_fault(at(90), Fault::Restart(victim));
    run_to(&mut w, 150, seed);
    let names = w.kernel.metrics.names().to_vec();
    (w.trace_hash(), names.iter().map(|n| last(&w, n)).collect())
}

#[test]
fn same_seed_gives_same_trace_hash_and_metrics() {
    let (h1, m1) = trace(11);
    let (h2, m2) = trace(11);
    assert_eq!(h1, h2);
    assert_eq!(m1, m2);
}

#[test]
fn different_seed_gives_different_trace() {
    assert_ne!(trace(11).0, trace(12).0);
}

#[test]
fn restarted_store_rejoins_and_leads_again() {
    let cfg = TikvConfig {
        stores: 3,
        regions: 300,
        load: WriteLoad::per_sec(100),
        ..Default::default()
    };
    let mut w = world(&cfg, 3);
    let victim = w.model.store_nodes()[0];
    w.kernel.schedule_fault(at(20), Fault::Crash(victim));
    w.kernel.schedule_fault(at(60), Fault::Restart(victim));
    run_to(&mut w, 60, 3);
    assert_eq!(last(&w, "leaders.tikv-1"), 0.0);
    run_to(&mut w, 400, 3);
    assert_eq!(last(&w, "leaderless_regions"), 0.0);
    // PD's leader balancing moves leaders back onto the restarted store.
    assert!(last(&w, "leaders.tikv-1") > 50.0, "tikv-1 leads again");
}
