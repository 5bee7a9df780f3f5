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
