//! After a lossy link heals, replication settles: a follower whose log diverged is probed one
//! append at a time and stale rejections are ignored (raft-rs Probe state), so the message
//! rate falls back instead of growing with every heartbeat.

mod common;

use common::*;
use faultline_sim::{Fault, LinkChange};
use faultline_tikv::{TikvConfig, WriteLoad};

/// Raft messages handled between `from` and `to` seconds.
fn messages_between(
    w: &mut faultline_sim::World<faultline_tikv::Cluster>,
    from: u64,
    to: u64,
) -> f64 {
    run_to(w, from, 0);
    let before = last(w, "raft_messages");
    run_to(w, to, 0);
    last(w, "raft_messages") - before
}

#[test]
fn message_rate_settles_after_a_lossy_store_heals() {
    let cfg = TikvConfig {
        stores: 4,
        regions: 200,
        load: WriteLoad { writes_per_sec: 50 },
        ..Default::default()
    };
    let mut w = world(&cfg, 5);
    let stores = w.model.store_nodes().to_vec();
    let (lossy, rest) = (
        stores[2],
        stores.iter().copied().filter(|s| *s != stores[2]),
    );
    let links = |change| Fault::Links {
        from: vec![lossy],
        to: rest.clone().collect(),
        both_ways: true,
        change,
    };
    w.kernel
        .schedule_fault(at(60), links(LinkChange::LossPpm(580_000)));
    w.kernel.schedule_fault(at(200), links(LinkChange::Restore));
    let early = messages_between(&mut w, 300, 360);
    let late = messages_between(&mut w, 540, 600);
    assert!(
        late <= early * 1.5 + 1_000.0,
        "raft messages per minute grew from {early} to {late} after the heal"
    );
}
