//! Message-level tests of a capture's etcd session against PD's lessor, on the full stack with
//! no workload and no changefeed: only the session messages and timers run.

use crate::test_world::{secs, world};

#[test]
fn every_capture_registers_and_the_first_campaigner_is_owner() {
    let mut w = world(2, Vec::new());
    w.run_until(secs(1));
    let cdc = &w.model.cdc;
    assert!(cdc.sessions.iter().all(|s| s.alive() && s.epoch == 1));
    let owner = cdc.owner_capture().expect("an owner");
    assert!(cdc.is_owner(owner));
    assert!(!cdc.is_owner(1 - owner), "one owner at a time");
}

#[test]
fn a_join_retried_after_its_key_was_deleted_starts_a_new_capture_id() {
    let mut w = world(1, Vec::new());
    w.run_until(secs(1));
    // The capture's `Joined` answer is lost (it knows no lease) and PD's lessor deletes the
    // key of that session meanwhile: the next Join retry must not bring the ID back.
    let cdc = &mut w.model.cdc;
    cdc.sessions[0].lease = None;
    assert_eq!(cdc.etcd.expire(secs(60)), vec![(0, 1)]);
    w.run_until(secs(3));
    let cdc = &w.model.cdc;
    let log = &w.kernel.log;
    assert_eq!(
        log.count_containing("register capture failed, lease not found"),
        1
    );
    assert_eq!(cdc.sessions[0].epoch, 2, "a new session, a new capture ID");
    assert!(cdc.sessions[0].alive());
    assert_eq!(cdc.etcd.snapshot().captures, vec![(0, 2)]);
    assert_eq!(cdc.owner_capture(), Some(0));
}

/// Three captures with the v7.3.0-alpha processor close (`deferred`), one MySQL changefeed of
/// three tables, running for 5 s.
fn deferred_world() -> faultline_sim::World<crate::stack::Stack> {
    let mut cdc = crate::config::CdcConfig {
        captures: 3,
        changefeeds: vec![crate::test_world::mysql_feed(3)],
        ..crate::config::CdcConfig::default()
    };
    cdc.session.processor_close = crate::etcd::ProcessorClose::Deferred;
    let mut w = crate::test_world::world_with(cdc);
    w.run_until(secs(5));
    w
}

/// Cuts capture `c` from every other node at 6 s and runs to 25 s; returns how long after
/// its session ended its processors closed.
fn processors_close_after_session_end(c: u32) -> faultline_sim::SimDuration {
    use faultline_sim::{Fault, LinkChange};
    let mut w = deferred_world();
    let node = w.model.cdc.captures[c as usize];
    let others = (0..w.network().nodes().len() as u32)
        .map(faultline_sim::NodeId)
        .filter(|n| *n != node)
        .collect();
    let cut = Fault::Links {
        from: vec![node],
        to: others,
        both_ways: true,
        change: LinkChange::Cut,
    };
    w.kernel.schedule_fault(secs(6), cut);
    w.run_until(secs(25));
    let at = |message: &str| {
        let entry = w
            .kernel
            .log
            .entries()
            .find(|e| e.node == Some(node) && e.message.contains(message));
        entry
            .unwrap_or_else(|| panic!("capture {c}: no {message:?}"))
            .at
    };
    at("processors closed").since(at("capture session done"))
}

#[test]
fn only_the_owner_waits_for_its_resign_before_closing_its_processors() {
    let w = deferred_world();
    let owner = w.model.cdc.owner_capture().expect("an owner");
    let other = (owner + 1) % 3;
    let resign = w.model.cdc.cfg.session.owner_resign_timeout;
    assert_eq!(processors_close_after_session_end(owner), resign);
    assert_eq!(
        processors_close_after_session_end(other),
        faultline_sim::SimDuration::ZERO,
        "a non-owner's run loop returns at once"
    );
}
