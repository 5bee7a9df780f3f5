//! Store and region heartbeats travel to PD over their link (tikv
//! `components/raftstore/src/store/worker/pd.rs`, `handle_store_heartbeat` and
//! `handle_heartbeat`): a store cut from PD looks Down to PD even while it serves, and PD's
//! view of a region's leader is what the last heartbeat that arrived said.

mod common;

use common::*;
use faultline_sim::{Fault, LinkChange, SimDuration};
use faultline_tikv::{TikvAction, TikvConfig};

fn cut(a: faultline_sim::NodeId, b: faultline_sim::NodeId, change: LinkChange) -> Fault {
    Fault::Links {
        from: vec![a],
        to: vec![b],
        both_ways: true,
        change,
    }
}

#[test]
fn a_store_cut_from_pd_only_is_down_to_pd_while_it_still_leads() {
    let mut cfg = TikvConfig {
        stores: 3,
        regions: 6,
        ..Default::default()
    };
    // PD calls a store Down after `max-store-down-time` without its heartbeat.
    cfg.pd.max_store_down_time = SimDuration::from_secs(60);
    let mut w = world(&cfg, 4);
    let pd = w.model.pd_node();
    let store = w.model.store_nodes()[0];
    run_to(&mut w, 20, 4);
    let before = last(&w, "pd.heartbeats_received");
    assert!(before > 0.0, "heartbeats reach PD over a healthy link");
    w.kernel
        .schedule_fault(at(21), cut(store, pd, LinkChange::Cut));
    run_to(&mut w, 120, 4);
    assert_eq!(
        last(&w, "pd.down_stores"),
        1.0,
        "silent to PD for 60 s: Down"
    );
    assert!(
        w.model.region_leader_store(0) == Some(0),
        "tikv-1 still leads region 0: only its link to PD is cut"
    );
    let during = last(&w, "pd.heartbeats_received");
    w.kernel
        .schedule_fault(at(121), cut(store, pd, LinkChange::Restore));
    run_to(&mut w, 140, 4);
    assert_eq!(
        last(&w, "pd.down_stores"),
        0.0,
        "its next heartbeat brings it back"
    );
    assert!(last(&w, "pd.heartbeats_received") > during);
}

#[test]
fn pd_learns_a_new_leader_only_from_a_heartbeat_that_arrives() {
    let mut cfg = TikvConfig {
        stores: 3,
        regions: 3,
        ..Default::default()
    };
    // PD's balancer would act on its stale view; this test is about the view alone. Awake
    // leaders send the periodic region heartbeat (the model skips hibernated ones).
    cfg.pd.leader_balance = false;
    cfg.hibernate.enabled = false;
    let mut w = world(&cfg, 2);
    let pd = w.model.pd_node();
    let target = w.model.store_nodes()[2];
    w.kernel
        .schedule_fault(at(1), cut(target, pd, LinkChange::Cut));
    let (node, t) = w.model.action_timer(TikvAction::TransferLeader {
        region: 0,
        to_store: 2,
    });
    w.kernel.set_timer(node, SimDuration::from_secs(5), t);
    run_to(&mut w, 90, 2);
    assert_eq!(w.model.region_leader_store(0), Some(2));
    assert_eq!(
        w.model.pd_region_leader_store(0),
        Some(0),
        "the new leader's heartbeats cannot reach PD: PD still names tikv-1"
    );
    w.kernel
        .schedule_fault(at(91), cut(target, pd, LinkChange::Restore));
    run_to(&mut w, 160, 2);
    assert_eq!(w.model.pd_region_leader_store(0), Some(2));
}
