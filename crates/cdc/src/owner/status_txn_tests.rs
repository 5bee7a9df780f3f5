//! Message-level tests of the owner's status txn: an owner that cannot reach PD's etcd stops
//! ticking (no checkpoint moves, in memory or in etcd) until another capture owns, a short cut
//! only pauses it, and a new owner starts from the checkpoint etcd holds.

use faultline_sim::World;

use crate::stack::Stack;
use crate::test_world::{mysql_feed, secs, set_link, world};
use crate::ts::Ts;

/// Two captures, one MySQL changefeed over two tables, at 5 s; returns the owner's index.
fn two_captures() -> (World<Stack>, u32) {
    let mut w = world(2, vec![mysql_feed(2)]);
    w.run_until(secs(5));
    let owner = w.model.cdc.owner_capture().expect("an owner at 5 s");
    (w, owner)
}

/// The changefeed checkpoint in the owner's memory and in etcd.
fn checkpoints(w: &World<Stack>) -> (Ts, Option<Ts>) {
    let cdc = &w.model.cdc;
    (cdc.watermarks[0].checkpoint, cdc.etcd.feed_checkpoint(0))
}

#[test]
fn an_owner_cut_from_pd_advances_no_checkpoint_until_another_capture_owns() {
    let (mut w, owner) = two_captures();
    let (pd, node) = (w.model.cdc.pd, w.model.cdc.captures[owner as usize]);
    let (_, stored) = checkpoints(&w);
    assert!(
        stored.is_some(),
        "the owner committed a status before the cut"
    );
    set_link(&mut w, (node, pd), false);
    // The txn of the pass at the cut may still land; from then on nothing moves.
    w.run_until(secs(6));
    let frozen = checkpoints(&w);
    w.run_until(secs(12));
    assert_eq!(
        checkpoints(&w),
        frozen,
        "no tick, no txn while etcd is unreachable"
    );
    assert_eq!(
        w.model.cdc.owner_capture(),
        Some(owner),
        "the lease has not expired yet"
    );
    // The owner's last pass computed a checkpoint its txn never committed: the changefeed
    // list, like `cdc cli changefeed list`, shows the one etcd holds.
    let (memory, stored) = frozen;
    let stored = stored.expect("committed before the cut");
    assert!(memory > stored, "the pass at the cut ran ahead of etcd");
    let row = &w.model.cdc.changefeed_list(secs(12))[0];
    assert_eq!(row.checkpoint_secs, stored.sim_time().as_secs_f64());
    // The 10 s lease expires; the other capture owns and the checkpoint moves again.
    w.run_until(secs(25));
    let (memory, stored) = checkpoints(&w);
    assert_eq!(w.model.cdc.owner_capture(), Some(1 - owner));
    assert!(memory > frozen.0, "the new owner advances the checkpoint");
    assert!(stored > frozen.1, "and commits it to etcd");
}

#[test]
fn a_cut_shorter_than_the_lease_only_pauses_the_owner() {
    let (mut w, owner) = two_captures();
    let (pd, node) = (w.model.cdc.pd, w.model.cdc.captures[owner as usize]);
    set_link(&mut w, (node, pd), false);
    w.run_until(secs(6));
    let frozen = checkpoints(&w);
    w.run_until(secs(8));
    assert_eq!(checkpoints(&w), frozen);
    set_link(&mut w, (node, pd), true);
    // The unanswered txn goes out again within `status_txn_retry` of the heal.
    w.run_until(secs(10));
    assert_eq!(w.model.cdc.owner_capture(), Some(owner), "still the owner");
    let (memory, stored) = checkpoints(&w);
    assert!(memory > frozen.0 && stored > frozen.1, "ticking again");
}

#[test]
fn a_new_owner_term_starts_from_the_checkpoint_in_its_etcd_view() {
    let (mut w, owner) = two_captures();
    let cdc = &mut w.model.cdc;
    let older = Ts(cdc.watermarks[0].checkpoint.0 / 2);
    cdc.sessions[owner as usize].view.feed_checkpoints = vec![older];
    cdc.status_txn_term_begins(owner);
    assert_eq!(
        (cdc.watermarks[0].checkpoint, cdc.watermarks[0].resolved),
        (older, older),
        "the old owner's memory is gone; etcd's checkpoint is where the term starts"
    );
    assert_eq!(
        cdc.sessions[owner as usize].status_txn.committed,
        vec![older]
    );
}
