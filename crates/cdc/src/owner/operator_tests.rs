//! Unit tests of the operator actions: what each changes in etcd and the sessions, what it
//! logs, and which capture it asks to open a session.

use faultline_sim::World;

use crate::config::CdcConfig;
use crate::etcd::wire::OperatorAction;
use crate::etcd::SessionConfig;
use crate::stack::Stack;
use crate::test_world::{cx_at, mysql_feed, secs, world_with};

/// Two captures, cdc-2 not yet part of the cluster, one MySQL changefeed, at 5 s.
fn world() -> World<Stack> {
    let mut w = world_with(CdcConfig {
        captures: 2,
        changefeeds: vec![mysql_feed(1)],
        session: SessionConfig {
            initially_absent: vec![1],
            ..SessionConfig::default()
        },
        ..CdcConfig::default()
    });
    w.run_until(secs(5));
    w
}

/// Applies `a`; returns what it logged and the capture it asks to start.
fn apply(w: &mut World<Stack>, a: OperatorAction) -> (Vec<&'static str>, Option<u32>) {
    let mut cx = cx_at(w.kernel.now(), &w.kernel.net);
    let begin = w.model.cdc.apply_operator_action(&mut cx, a);
    (cx.out.logged(), begin)
}

#[test]
fn pause_and_resume_flip_the_changefeed_and_bump_the_revision() {
    let mut w = world();
    let rev = w.model.cdc.etcd.revision;
    let paused = apply(&mut w, OperatorAction::PauseChangefeed(0));
    assert_eq!(paused, (vec!["changefeed paused"], None));
    assert!(w.model.cdc.paused[0]);
    let resumed = apply(&mut w, OperatorAction::ResumeChangefeed(0));
    assert_eq!(resumed, (vec!["changefeed resumed"], None));
    assert!(!w.model.cdc.paused[0]);
    assert_eq!(w.model.cdc.etcd.revision, rev + 2);
}

#[test]
fn a_drained_capture_is_marked_until_it_is_added_back() {
    let mut w = world();
    let drained = apply(&mut w, OperatorAction::RemoveCapture(0));
    assert_eq!(drained, (vec!["drain capture (scale-in)"], None));
    assert!(w.model.cdc.etcd.draining.contains(&0));
    let added = apply(&mut w, OperatorAction::AddCapture(0));
    assert_eq!(added.1, None, "cdc-1 is joined already: no new session");
    assert!(!w.model.cdc.etcd.draining.contains(&0));
}

#[test]
fn scaling_out_a_running_capture_opens_its_session_once() {
    let mut w = world();
    assert!(
        !w.model.cdc.sessions[1].joined,
        "cdc-2 starts outside the cluster"
    );
    let added = apply(&mut w, OperatorAction::AddCapture(1));
    assert_eq!(added, (vec!["add capture (scale-out)"], Some(1)));
    assert!(w.model.cdc.sessions[1].joined);
    let again = apply(&mut w, OperatorAction::AddCapture(1));
    assert_eq!(again.1, None, "a joined capture is not started twice");
}
