//! Which path a follower's answer leaves by (`store::ready_path`), and what a refused send on
//! each path does to the follower (`store::raft_client::send_path`).

use crate::host::routed;
use faultline_sim::World;

use crate::ids::PeerId;
use crate::msg::Kind;
use crate::msg::RaftMsg;
use crate::store::raft_client_tests::world;
use crate::Cluster;

const FOLLOWER: PeerId = PeerId(1);

/// The leader's (slot 0, store 0) append to the follower after its last entry, carrying
/// `entries` new entries of the current term.
fn append(w: &World<Cluster>, entries: u32) -> RaftMsg {
    let p = &w.model.peers[FOLLOWER.ix()];
    let last = p.log.last_index;
    let mut m = RaftMsg::new(0, 0, 1, Kind::Append, p.term);
    m.index = last;
    m.log_term = p
        .log
        .term_at(&w.model.tails[FOLLOWER.ix()].runs, last)
        .unwrap();
    m.commit = p.log.commit;
    m.entries = entries;
    m.ent_term = p.term;
    m
}

/// Store 1 handles `m` from store 0; returns what the follower queued for store 0.
fn answer_to(w: &mut World<Cluster>, m: RaftMsg) -> RaftMsg {
    let before = w.model.stores[1].outbox[0].len();
    routed(&mut w.kernel, |cx| w.model.process_batch(cx, 1, 0, &[m]));
    let outbox = &w.model.stores[1].outbox[0];
    assert_eq!(outbox.len(), before + 1, "one answer");
    outbox[before]
}

#[test]
fn an_answer_to_appended_entries_leaves_after_the_write() {
    let mut w = world();
    let m = append(&w, 1);
    let resp = answer_to(&mut w, m);
    assert_eq!(resp.kind, Kind::AppendResp);
    assert!(resp.after_write, "the ready wrote an entry: store writer");
}

#[test]
fn an_answer_to_an_append_that_changed_nothing_leaves_from_the_poll() {
    let mut w = world();
    let m = append(&w, 0);
    let resp = answer_to(&mut w, m);
    assert_eq!(resp.kind, Kind::AppendResp);
    assert!(
        !resp.after_write,
        "no entries, same commit: no I/O, sent from the poll"
    );
}

#[test]
fn a_heartbeat_that_advances_commit_is_answered_after_the_write() {
    let mut w = world();
    let m = append(&w, 1);
    let _ = answer_to(&mut w, m);
    let p = &w.model.peers[FOLLOWER.ix()];
    let mut hb = RaftMsg::new(0, 0, 1, Kind::Heartbeat, p.term);
    hb.commit = p.log.last_index;
    let resp = answer_to(&mut w, hb);
    assert_eq!(resp.kind, Kind::HeartbeatResp);
    assert!(resp.after_write, "commit is hard state: the ready has I/O");
    let p = &w.model.peers[FOLLOWER.ix()];
    let mut again = RaftMsg::new(0, 0, 1, Kind::Heartbeat, p.term);
    again.commit = p.log.commit;
    let resp = answer_to(&mut w, again);
    assert!(!resp.after_write, "nothing changed: from the poll");
}
