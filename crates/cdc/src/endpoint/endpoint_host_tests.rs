//! Message-level tests of a registration's ReadIndex answer at TiKV's CDC endpoint: a
//! confirmed read schedules the incremental scan, a refused one fails the registration.

use faultline_sim::World;
use faultline_tikv::{OpEvent, OpOutcome};

use crate::change::{RegionError, RegionEventKind};
use crate::endpoint::store_endpoint::{ScanRequest, Subscriber};
use crate::msg::CdcTimer;
use crate::out::{Command, Out};
use crate::stack::Stack;
use crate::test_world::{cx_at, mysql_feed, secs};
use crate::ts::Ts;

const SUB: Subscriber = Subscriber {
    capture: 0,
    cf: 0,
    stream: 77,
};

/// A world at 5 s in which store 0 has a ReadIndex waiting for region `r`, one of its
/// replicas; returns it with the region and the read's op id.
fn registered() -> (World<Stack>, u32, u64) {
    let mut w = crate::test_world::world(1, vec![mysql_feed(1)]);
    w.run_until(secs(5));
    let Stack { tikv, cdc } = &mut w.model;
    let region = (0..16)
        .find(|r| {
            let (stores, n) = tikv.region_stores(*r);
            stores[..n].contains(&0)
        })
        .expect("store 0 holds some region");
    let req = ScanRequest {
        sub: SUB,
        region,
        version: faultline_tikv::RegionEpoch::INIT.version,
        request: 5,
        checkpoint: Ts::ZERO,
    };
    cdc.endpoint_on_register(tikv, 0, req);
    let op = cdc.read_requests.last_op;
    (w, region, op)
}

fn answer(w: &mut World<Stack>, region: u32, op: u64, outcome: OpOutcome) -> Out {
    let Stack { tikv, cdc } = &mut w.model;
    let e = OpEvent {
        op,
        region,
        store: 0,
        outcome,
    };
    let mut cx = cx_at(secs(5), &w.kernel.net);
    cdc.endpoint_read_answered(&mut cx, tikv, e);
    cx.out
}

#[test]
fn a_confirmed_read_schedules_the_scan_on_the_store() {
    let (mut w, region, op) = registered();
    let out = answer(&mut w, region, op, OpOutcome::ReadReady);
    let store = w.model.cdc.stores[0];
    match out.commands() {
        [Command::SetTimer {
            node,
            timer: CdcTimer::ScanDone { region: r, .. },
            ..
        }] => assert_eq!((*node, *r), (store, region)),
        other => panic!("expected the scan's timer: {other:?}"),
    }
    let again = answer(&mut w, region, op, OpOutcome::ReadReady);
    assert!(again.commands().is_empty(), "an answer counts once");
}

#[test]
fn a_refused_read_fails_the_registration_with_not_leader() {
    let (mut w, region, op) = registered();
    let out = answer(
        &mut w,
        region,
        op,
        OpOutcome::ReadNotLeader { leader: None },
    );
    assert!(out.commands().is_empty(), "no scan");
    let events = &w.model.cdc.endpoints[0].outbox[&SUB];
    let last = events.last().expect("an event for the subscriber");
    assert_eq!(last.region, region);
    assert!(
        matches!(
            last.kind,
            RegionEventKind::Error(RegionError::NotLeader { .. })
        ),
        "{last:?}"
    );
}
