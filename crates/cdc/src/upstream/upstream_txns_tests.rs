//! Message-level tests of the workload's client (client-go's two-phase committer and region
//! request sender) and its PD client: what one begin, answer or backoff writes (send failures:
//! `send_failure_tests.rs`).

use faultline_sim::{NodeId, SimDuration, World};

use crate::msg::{CdcMsg, CdcTimer};
use crate::out::{Command, Out};
use crate::stack::Stack;
use crate::test_world::{cx_at, mysql_feed, secs, world};
use crate::ts::Ts;
use crate::upstream::client_backoff::PREWRITE_MAX_BACKOFF_MS;
use crate::upstream::pd_wire::{PdMsg, PdTimer};
use crate::upstream::txn_wire::{TxnFailure, TxnTimer};
use crate::upstream::workload::Phase;

/// One capture replicating two tables, no workload of its own, at 5 s.
pub(crate) fn quiet_world() -> World<Stack> {
    let mut w = world(1, vec![mysql_feed(2)]);
    w.run_until(secs(5));
    w
}

/// Begins a transaction with start ts 100 and returns its id and what it wrote.
pub(crate) fn begin(w: &mut World<Stack>) -> (u64, Out) {
    let Stack { tikv, cdc } = &mut w.model;
    let id = cdc.workload.next_txn;
    let mut cx = cx_at(secs(5), &w.kernel.net);
    cdc.begin_txn(&mut cx, tikv, Ts(100));
    (id, cx.out)
}

/// The proposals in `out`, as `(store node, region, op)`.
pub(crate) fn proposals(out: &Out) -> Vec<(NodeId, u32, u64)> {
    let propose = |c: &Command| match *c {
        Command::Propose { to, region, op, .. } => Some((to, region, op)),
        _ => None,
    };
    out.commands().iter().filter_map(propose).collect()
}

/// The timers `out` arms, with their delays.
pub(crate) fn timers(out: &Out) -> Vec<(SimDuration, CdcTimer)> {
    let timer = |c: &Command| match c {
        Command::SetTimer { after, timer, .. } => Some((*after, timer.clone())),
        _ => None,
    };
    out.commands().iter().filter_map(timer).collect()
}

/// Caches `store` as the leader of every region, so a request goes out at once.
pub(crate) fn cache_every_leader(w: &mut World<Stack>, store: u32) {
    let cdc = &mut w.model.cdc;
    for region in 0..cdc.ks.regions {
        cdc.pd_clients.region_cache.update_leader(region, store);
    }
}

/// The store answers `op` with `failure` (or success).
pub(crate) fn reply(w: &mut World<Stack>, op: u64, failure: Option<TxnFailure>) -> Out {
    let Stack { tikv, cdc } = &mut w.model;
    let mut cx = cx_at(secs(5), &w.kernel.net);
    cdc.on_txn_reply(&mut cx, tikv, op, failure);
    cx.out
}

#[test]
fn an_uncached_region_is_loaded_from_pd_then_proposed_to_its_leader() {
    let mut w = quiet_world();
    let (client, pd) = (w.model.cdc.client, w.model.cdc.pd);
    let (_, out) = begin(&mut w);
    assert!(
        proposals(&out).is_empty(),
        "nothing to propose to yet: {out:?}"
    );
    let Some(Command::Send {
        from,
        to,
        msg: CdcMsg::Pd(PdMsg::GetRegion { region }),
    }) = out.commands().first().cloned()
    else {
        panic!("a region load first: {out:?}");
    };
    assert_eq!((from, to), (client, pd));
    let load_timeout = timers(&out)[0].clone();
    assert!(
        matches!(load_timeout, (after, CdcTimer::Pd(PdTimer::GetRegionTimeout { .. })) if after == SimDuration::from_secs(3))
    );

    let Stack { tikv, cdc } = &mut w.model;
    let answer = PdMsg::GetRegionResponse {
        region,
        leader: Some(2),
    };
    let mut cx = cx_at(secs(5), &w.kernel.net);
    cdc.on_pd_msg(&mut cx, tikv, (pd, client), answer);
    let out = cx.out;
    let store = cdc.stores[2];
    let [(to, proposed, op)] = proposals(&out)[..] else {
        panic!("one proposal: {out:?}");
    };
    assert_eq!((to, proposed), (store, region));
    let read_timeout = (
        SimDuration::from_secs(30),
        CdcTimer::Txn(TxnTimer::Timeout { op }),
    );
    assert_eq!(timers(&out), [read_timeout], "ReadTimeoutShort armed");
}

/// client-go's `onRegionError`: NotLeader with a hint retries at once at the hinted store;
/// without one the region is dropped from the cache and the request backs off
/// `BoRegionScheduling` (2 ms first), and the resend loads the region again.
#[test]
fn not_leader_follows_a_hint_at_once_and_backs_off_without_one() {
    let mut w = quiet_world();
    cache_every_leader(&mut w, 0);
    let (id, out) = begin(&mut w);
    let [(_, region, op)] = proposals(&out)[..] else {
        panic!("one region: {out:?}");
    };
    let hinted = reply(&mut w, op, Some(TxnFailure::NotLeader { leader: Some(1) }));
    let [(to, again, op)] = proposals(&hinted)[..] else {
        panic!("a retry: {hinted:?}");
    };
    assert_eq!((to, again), (w.model.cdc.stores[1], region));
    assert_eq!(w.model.cdc.pd_clients.region_cache.leader(region), Some(1));

    let backed_off = reply(&mut w, op, Some(TxnFailure::NotLeader { leader: None }));
    let resend = CdcTimer::Txn(TxnTimer::Resend { txn: id, region });
    assert_eq!(
        timers(&backed_off),
        [(SimDuration::from_millis(2), resend.clone())]
    );
    assert!(proposals(&backed_off).is_empty());
    assert_eq!(w.model.cdc.pd_clients.region_cache.leader(region), None);
    let failed = &w.model.cdc.workload.failed;
    assert_eq!((failed.not_leader, failed.no_leader), (1, 1));

    let Stack { tikv, cdc } = &mut w.model;
    let mut cx = cx_at(secs(5), &w.kernel.net);
    let CdcTimer::Txn(t) = resend else {
        unreachable!()
    };
    cdc.on_txn_timer(&mut cx, tikv, t);
    let out = cx.out;
    let reload = CdcMsg::Pd(PdMsg::GetRegion { region });
    assert!(matches!(out.commands().first(), Some(Command::Send { msg, .. }) if *msg == reload));
}

/// The two phases: every prewrite answered arms the commit (after the client's 2-6 ms),
/// which asks PD for the commit ts; the commit ts proposes every region again, and the last
/// answer ends the transaction as committed.
#[test]
fn a_transaction_commits_after_every_prewrite_and_every_commit_answer() {
    let mut w = quiet_world();
    cache_every_leader(&mut w, 0);
    let (id, out) = begin(&mut w);
    let [(_, _, op)] = proposals(&out)[..] else {
        panic!("one region: {out:?}");
    };
    let out = reply(&mut w, op, None);
    let [(after, CdcTimer::TxnCommit { txn })] = timers(&out)[..] else {
        panic!("the commit armed: {out:?}");
    };
    assert_eq!(txn, id);
    assert!((2_000..6_000).contains(&after.0), "{after:?}");

    let Stack { tikv, cdc } = &mut w.model;
    let mut out = Out::default();
    cdc.commit(&mut out, id);
    let asks_tso = |c: &Command| matches!(c, Command::Send { to, msg: CdcMsg::Pd(PdMsg::TsoRequest { .. }), .. } if *to == cdc.pd);
    assert!(out.commands().iter().any(asks_tso), "{out:?}");
    let mut cx = cx_at(secs(5), &w.kernel.net);
    cdc.commit_at(&mut cx, tikv, id, Ts(200));
    let out = cx.out;
    assert_eq!(cdc.workload.open[&id].phase, Phase::Commit);
    let [(_, _, op)] = proposals(&out)[..] else {
        panic!("one commit: {out:?}");
    };
    let committed = cdc.workload.committed;
    reply(&mut w, op, None);
    assert_eq!(w.model.cdc.workload.committed, committed + 1);
    assert!(!w.model.cdc.workload.open.contains_key(&id));
}

/// A prewrite whose backoffs passed `PrewriteMaxBackoff` (40 s) is rolled back: every region
/// resends at once, now as a rollback.
#[test]
fn a_prewrite_past_its_backoff_budget_rolls_back() {
    let mut w = quiet_world();
    cache_every_leader(&mut w, 0);
    let (id, out) = begin(&mut w);
    let [(_, region, op)] = proposals(&out)[..] else {
        panic!("one region: {out:?}");
    };
    let txn = w.model.cdc.workload.open.get_mut(&id).unwrap();
    txn.backoff.slept_ms = PREWRITE_MAX_BACKOFF_MS;
    let out = reply(&mut w, op, Some(TxnFailure::Stale));
    let resend = CdcTimer::Txn(TxnTimer::Resend { txn: id, region });
    assert_eq!(timers(&out), [(SimDuration::ZERO, resend)]);
    assert_eq!(w.model.cdc.workload.open[&id].phase, Phase::Rollback);
}

/// What TiKV applying the entries does (`txn_apply.rs`): a prewrite locks its keys, so
/// resolved ts cannot pass its start ts; the commit writes the rows and releases the lock;
/// applying an entry twice (a retried request a new leader also committed) changes nothing.
#[test]
fn an_applied_prewrite_locks_and_the_applied_commit_writes_and_unlocks() {
    use faultline_tikv::{OpEvent, OpOutcome};

    let mut w = quiet_world();
    cache_every_leader(&mut w, 0);
    let (id, out) = begin(&mut w);
    let [(_, region, op)] = proposals(&out)[..] else {
        panic!("one region: {out:?}");
    };
    let apply = |w: &mut World<Stack>, op: u64| {
        let Stack { tikv, cdc } = &mut w.model;
        let e = OpEvent {
            op,
            region,
            store: 0,
            outcome: OpOutcome::Applied,
        };
        let mut cx = cx_at(secs(5), &w.kernel.net);
        cdc.on_op_event(&mut cx, tikv, e);
        assert!(
            cx.out.commands().is_empty(),
            "applying answers nobody: {:?}",
            cx.out
        );
    };
    apply(&mut w, op);
    assert_eq!(w.model.cdc.upstream.oldest_lock(region), Some(Ts(100)));
    apply(&mut w, op);
    assert_eq!(w.model.cdc.upstream.oldest_lock(region), Some(Ts(100)));

    reply(&mut w, op, None);
    let Stack { tikv, cdc } = &mut w.model;
    let mut cx = cx_at(secs(5), &w.kernel.net);
    cdc.commit_at(&mut cx, tikv, id, Ts(200));
    let out = cx.out;
    let [(_, _, commit_op)] = proposals(&out)[..] else {
        panic!("one commit: {out:?}");
    };
    let (key, value) = cdc.workload.open[&id].writes[0];
    apply(&mut w, commit_op);
    let up = &w.model.cdc.upstream;
    assert_eq!(up.oldest_lock(region), None, "the commit released the lock");
    assert_eq!((up.row(key).value, up.row(key).commit_ts), (value, Ts(200)));
}

/// The largest checkpoint lag of a MySQL changefeed over two tables at 20 txn/s, sampled
/// every second from 10 s to 40 s, with every `every`th transaction a large one whose
/// prewrite takes 15 s.
fn max_checkpoint_lag(every: u32) -> f64 {
    use crate::config::{CdcConfig, WorkloadConfig};

    let cdc = CdcConfig {
        captures: 1,
        changefeeds: vec![mysql_feed(2)],
        workload: WorkloadConfig {
            txns_per_sec: 20,
            tables: 2,
            large_txn_every: every,
            large_txn_prewrite: SimDuration::from_secs(15),
            ..WorkloadConfig::default()
        },
        ..CdcConfig::default()
    };
    let mut w = crate::test_world::world_with(cdc);
    let mut worst: f64 = 0.0;
    for s in 10..=40 {
        w.run_until(secs(s));
        worst = worst.max(w.model.cdc.watermarks[0].checkpoint.lag_secs(secs(s)));
    }
    worst
}

/// `workload.large_txn_every`: a large transaction's locks hold resolved ts, and so the
/// changefeed's checkpoint, back for as long as its prewrite goes on.
#[test]
fn large_transactions_hold_the_checkpoint_back_for_their_prewrite() {
    let normal = max_checkpoint_lag(0);
    let large = max_checkpoint_lag(10);
    assert!(
        normal < 5.0,
        "without large transactions the lag stays small: {normal} s"
    );
    assert!(
        large > 12.0,
        "a 15 s prewrite holds the checkpoint about that long: {large} s (normal {normal} s)"
    );
}
