//! Message-level tests of the owner's scheduler: who ticks as owner, the heartbeats it sends,
//! whose reports count, and the remove delay of the tiflow#9344 fix.

use faultline_sim::{SimDuration, World};

use crate::etcd::wire::SessionMsg;
use crate::msg::CdcMsg;
use crate::out::{Command, Out};
use crate::owner::scheduler::{TableReport, TableState};
use crate::stack::Stack;
use crate::test_world::{cx_at, mysql_feed, secs};
use crate::ts::Ts;

/// Two captures replicating two tables by 5 s; returns the world and the owner's index.
fn world() -> (World<Stack>, u32) {
    let mut w = crate::test_world::world(2, vec![mysql_feed(2)]);
    w.run_until(secs(5));
    let owner = (0..2)
        .find(|c| w.model.cdc.is_owner(*c))
        .expect("an owner by 5 s");
    (w, owner)
}

/// Runs `ticks` owner ticks of capture `c` starting at 5 s, 50 ms apart.
fn tick(w: &mut World<Stack>, c: u32, ticks: u64) -> (Out, bool) {
    let node = w.model.cdc.captures[c as usize];
    let mut cx = cx_at(secs(5), &w.kernel.net);
    let mut owner = false;
    for i in 0..ticks {
        cx.now = secs(5).plus(SimDuration::from_millis(50 * i));
        owner = w.model.cdc.owner_role_tick(&mut cx, node);
    }
    (cx.out, owner)
}

fn heartbeats(out: &Out) -> usize {
    let is_heartbeat = |c: &Command| {
        matches!(
            c,
            Command::SendOrdered {
                msg: CdcMsg::Session(SessionMsg::Heartbeat { .. }),
                ..
            }
        )
    };
    out.commands().iter().filter(|c| is_heartbeat(c)).count()
}

#[test]
fn only_the_owner_ticks_as_owner_and_it_heartbeats_every_capture() {
    let (mut w, owner) = world();
    let (out, is_owner) = tick(&mut w, 1 - owner, 4);
    assert!(!is_owner && out.commands().is_empty(), "{out:?}");
    let (out, is_owner) = tick(&mut w, owner, 2);
    assert!(is_owner);
    assert_eq!(
        heartbeats(&out),
        2,
        "one heartbeat to each capture per two ticks"
    );
}

#[test]
fn a_report_from_a_capture_the_owner_does_not_know_is_ignored() {
    let (mut w, owner) = world();
    let before = w.model.cdc.sched.tables.clone();
    let stranger = (1 - owner, 99);
    let report = vec![TableReport {
        cf: 0,
        table: 0,
        state: TableState::Replicating,
        checkpoint: Ts(u64::MAX / 2),
    }];
    let mut out = Out::default();
    w.model
        .cdc
        .owner_on_report(&mut out, owner, stranger, report);
    assert!(out.commands().is_empty());
    assert_eq!(
        format!("{:?}", w.model.cdc.sched.tables),
        format!("{before:?}")
    );
}

#[test]
fn a_capture_gone_from_etcd_is_removed_only_after_the_remove_delay() {
    let (mut w, owner) = world();
    let other = 1 - owner;
    let gone = w.model.cdc.sessions[other as usize].id(other);
    w.model.cdc.sessions[owner as usize]
        .view
        .captures
        .retain(|id| *id != gone);
    let (out, _) = tick(&mut w, owner, 1);
    assert!(out.logged().is_empty(), "not removed at once");
    assert!(w.model.cdc.sched.captures.contains_key(&gone));
    let node = w.model.cdc.captures[owner as usize];
    let delay = w.model.cdc.cfg.session.capture_remove_delay;
    let mut cx = cx_at(secs(5).plus(delay), &w.kernel.net);
    w.model.cdc.owner_role_tick(&mut cx, node);
    assert_eq!(cx.out.logged(), vec!["remove capture"]);
    assert!(!w.model.cdc.sched.captures.contains_key(&gone));
}
