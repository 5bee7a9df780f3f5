//! Message-level tests of the workload client's send failures (`send_failure.rs`): timeouts,
//! connection resets of a killed store, keepalive failures, and the follower retry.

use faultline_sim::{NodeState, SimDuration, World};

use crate::msg::CdcTimer;
use crate::out::Out;
use crate::stack::Stack;
use crate::test_world::{cx_at, secs, set_link};
use crate::upstream::send_failure::RST_LATENCY;
use crate::upstream::txn_wire::{TxnFailure, TxnTimer};
use crate::upstream::upstream_txns::tests::{
    begin, cache_every_leader, proposals, quiet_world, reply, timers,
};

/// `onSendFail`: no answer within `ReadTimeoutShort` backs off `BoTiKVRPC` (100 ms, equal
/// jitter: 50-100 ms first); the timeout of an answered request does nothing.
#[test]
fn a_timeout_of_the_current_request_backs_off_and_a_stale_one_is_ignored() {
    let mut w = quiet_world();
    cache_every_leader(&mut w, 0);
    let (id, out) = begin(&mut w);
    let [(_, region, op)] = proposals(&out)[..] else {
        panic!("one region: {out:?}");
    };
    let timeout = |w: &mut World<Stack>, op| {
        let Stack { tikv, cdc } = &mut w.model;
        let mut cx = cx_at(secs(5), &w.kernel.net);
        cdc.on_txn_timer(&mut cx, tikv, TxnTimer::Timeout { op });
        cx.out
    };
    let out = timeout(&mut w, op);
    let [(after, CdcTimer::Txn(TxnTimer::Resend { txn, region: r }))] = timers(&out)[..] else {
        panic!("a resend: {out:?}");
    };
    assert_eq!((txn, r), (id, region));
    let ms = after.0 / 1_000;
    assert!((50..=100).contains(&ms), "BoTiKVRPC's first sleep: {ms} ms");
    assert_eq!(w.model.cdc.workload.failed.timeout, 1);
    assert!(timeout(&mut w, op).commands().is_empty(), "already handled");
}

/// Kills store 0 (tikv-1) and runs what the model runs then: the client's connections to it
/// are reset. Returns what that wrote.
fn kill_store_0(w: &mut World<Stack>) -> Out {
    let store = w.model.cdc.stores[0];
    w.kernel.net.node_mut(store).state = NodeState::Crashed;
    let mut cx = cx_at(secs(5), &w.kernel.net);
    w.model.cdc.client_connections_reset(&mut cx, 0);
    cx.out
}

/// A killed store's host resets the connection (client-go `onSendFail`, "canceled by gRPC
/// remote ... when tikv is killed"): the request in flight fails after the RST's hop, not
/// after `ReadTimeoutShort`, and backs off `BoTiKVRPC`; the resend goes to a follower (the
/// replica selector leaves an unreachable leader), without caching it as the leader.
#[test]
fn a_killed_store_resets_the_request_in_flight_and_refuses_the_next() {
    let mut w = quiet_world();
    cache_every_leader(&mut w, 0);
    let (id, out) = begin(&mut w);
    let [(_, region, op)] = proposals(&out)[..] else {
        panic!("one region: {out:?}");
    };
    let reset = CdcTimer::Txn(TxnTimer::ConnectionReset { op });
    assert_eq!(timers(&kill_store_0(&mut w)), [(RST_LATENCY, reset)]);

    let Stack { tikv, cdc } = &mut w.model;
    let mut cx = cx_at(secs(5), &w.kernel.net);
    cdc.on_txn_timer(&mut cx, tikv, TxnTimer::ConnectionReset { op });
    let out = cx.out;
    let [(after, CdcTimer::Txn(TxnTimer::Resend { txn, region: r }))] = timers(&out)[..] else {
        panic!("a resend: {out:?}");
    };
    assert_eq!((txn, r), (id, region));
    assert!(
        (50..=100).contains(&(after.0 / 1_000)),
        "BoTiKVRPC: {after:?}"
    );
    let failed = cdc.workload.failed;
    assert_eq!((failed.connection_reset, failed.timeout), (1, 0));

    let mut cx = cx_at(secs(5), &w.kernel.net);
    cdc.on_txn_timer(&mut cx, tikv, TxnTimer::Resend { txn: id, region });
    let out = cx.out;
    // The next replica after the dead store's, in PD's peer list.
    let (stores, n) = tikv.region_stores(region);
    let replicas = &stores[..n];
    let dead = replicas
        .iter()
        .position(|s| *s == 0)
        .expect("store 0 holds the region");
    let follower = replicas[(dead + 1) % replicas.len()];
    assert_ne!(follower, 0);
    let [(to, _, _)] = proposals(&out)[..] else {
        panic!("the resend proposed to a follower: {out:?}");
    };
    assert_eq!(to, cdc.stores[follower as usize]);
    assert_eq!(cdc.pd_clients.region_cache.leader(region), None);
}

/// A connect to a store that died with no request in flight is refused at once: the
/// request is not proposed, and the reset comes after the RST's hop.
#[test]
fn a_connect_to_a_dead_store_is_refused() {
    let mut w = quiet_world();
    kill_store_0(&mut w);
    cache_every_leader(&mut w, 0);
    let (_, out) = begin(&mut w);
    assert!(
        proposals(&out).is_empty(),
        "nothing proposed to a dead store: {out:?}"
    );
    let [(after, CdcTimer::Txn(TxnTimer::ConnectionReset { .. }))] = timers(&out)[..] else {
        panic!("the connect refused: {out:?}");
    };
    assert_eq!(after, RST_LATENCY);
}

/// client-go's store liveness: once a send to store 0 failed with the store out of reach, a
/// new transaction whose region is cached as led there goes straight to a follower, with no
/// connection reset; when the store runs again, requests go back to it.
#[test]
fn a_store_found_unreachable_is_skipped_until_it_runs_again() {
    let mut w = quiet_world();
    cache_every_leader(&mut w, 0);
    let (_, out) = begin(&mut w);
    let [(_, _, op)] = proposals(&out)[..] else {
        panic!("one region: {out:?}");
    };
    kill_store_0(&mut w);
    let Stack { tikv, cdc } = &mut w.model;
    let mut cx = cx_at(secs(5), &w.kernel.net);
    cdc.on_txn_timer(&mut cx, tikv, TxnTimer::ConnectionReset { op });
    assert!(cdc.workload.unreachable_stores.contains(&0));

    cache_every_leader(&mut w, 0);
    let (id, out) = begin(&mut w);
    let [(to, region, op)] = proposals(&out)[..] else {
        panic!("proposed to a follower at once: {out:?}");
    };
    assert_ne!(to, w.model.cdc.stores[0]);
    assert!(timers(&out)
        .iter()
        .all(|(_, t)| !matches!(t, CdcTimer::Txn(TxnTimer::ConnectionReset { .. }))));

    // The follower still names the dead store as leader: no send there, a backoff instead.
    let named_dead = Some(TxnFailure::NotLeader { leader: Some(0) });
    let out = reply(&mut w, op, named_dead);
    assert!(proposals(&out).is_empty(), "{out:?}");
    let resend = CdcTimer::Txn(TxnTimer::Resend { txn: id, region });
    assert_eq!(timers(&out), [(SimDuration::from_millis(2), resend)]);

    let store = w.model.cdc.stores[0];
    w.kernel.net.node_mut(store).state = NodeState::Up;
    let (_, out) = begin(&mut w);
    let [(to, _, _)] = proposals(&out)[..] else {
        panic!("one region: {out:?}");
    };
    assert_eq!(to, store, "back to the cached leader once it runs");
    assert!(w.model.cdc.workload.unreachable_stores.is_empty());
}

/// No RST crosses a cut link: a request in flight to a store that is killed while cut from
/// the client waits for the connection's keepalive to give up, as one to a paused store does.
#[test]
fn a_store_killed_behind_a_cut_link_resets_nothing() {
    let mut w = quiet_world();
    cache_every_leader(&mut w, 0);
    let (_, out) = begin(&mut w);
    assert_eq!(proposals(&out).len(), 1);
    let (store, client) = (w.model.cdc.stores[0], w.model.cdc.client);
    set_link(&mut w, (store, client), false);
    assert!(kill_store_0(&mut w).commands().is_empty());
}

/// The keepalive of the connection to a paused store: the store falls silent at 5 s, and
/// 13 s later (client-go's 10 s `GrpcKeepAliveTime` and 3 s `GrpcKeepAliveTimeout`) the
/// request in flight fails and the store counts as unreachable; a wait armed by a silence
/// that ended does nothing.
#[test]
fn a_paused_store_breaks_the_connection_after_the_keepalive() {
    let mut w = quiet_world();
    w.model.cdc.cfg.workload.txns_per_sec = 1;
    cache_every_leader(&mut w, 0);
    let (_, out) = begin(&mut w);
    let [(_, _, op)] = proposals(&out)[..] else {
        panic!("one region: {out:?}");
    };
    let store = w.model.cdc.stores[0];
    let set_state = |w: &mut World<Stack>, state, at| {
        w.kernel.net.node_mut(store).state = state;
        let mut cx = cx_at(at, &w.kernel.net);
        w.model.cdc.client_connections_may_break(&mut cx);
        timers(&cx.out)
    };
    let keepalive = CdcTimer::Txn(TxnTimer::KeepaliveFailed { store: 0 });
    let fire = |w: &mut World<Stack>, at| {
        let Stack { tikv, cdc } = &mut w.model;
        let mut cx = cx_at(at, &w.kernel.net);
        cdc.client_keepalive_failed(&mut cx, tikv, 0);
        cx.out
    };
    let after = SimDuration::from_secs(13);
    assert_eq!(
        set_state(&mut w, NodeState::Paused, secs(5)),
        [(after, keepalive.clone())]
    );
    assert_eq!(set_state(&mut w, NodeState::Up, secs(6)), [], "heard again");
    assert_eq!(
        set_state(&mut w, NodeState::Paused, secs(7)),
        [(after, keepalive)]
    );
    assert!(
        fire(&mut w, secs(18)).commands().is_empty(),
        "the first wait is void"
    );
    assert!(w.model.cdc.current_request(op).is_some(), "still waiting");
    let out = fire(&mut w, secs(20));
    assert!(matches!(
        timers(&out)[..],
        [(_, CdcTimer::Txn(TxnTimer::Resend { .. }))]
    ));
    assert_eq!(w.model.cdc.workload.failed.keepalive, 1);
    assert!(w.model.cdc.workload.unreachable_stores.contains(&0));
    assert_eq!(w.model.cdc.current_request(op), None, "the request failed");
}
