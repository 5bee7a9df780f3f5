//! The raft client as TiKV 7.1 `src/server/raft_client.rs` has it: how a broken connection is
//! noticed, and the `Unreachable` report for every message queued meanwhile.

use crate::host::routed;
use faultline_sim::{Fault, LinkChange, Network, SimDuration, SimTime, World};

use crate::ids::PeerId;
use crate::msg::Kind;
use crate::msg::RaftMsg;
use crate::store::state::GroupState;
use crate::{Cluster, TikvConfig};

/// Three stores, one hibernated region led by slot 0 on store 0.
pub(crate) fn world() -> World<Cluster> {
    let cfg = TikvConfig {
        stores: 3,
        regions: 1,
        ..Default::default()
    };
    let mut net = Network::new((SimDuration::from_millis(1), SimDuration::from_millis(2)));
    let c = Cluster::new(&cfg, &mut net);
    World::new(c, 5, net, SimDuration::from_secs(1))
}

const FOLLOWER: PeerId = PeerId(1);

pub(crate) fn ms(ms: u64) -> SimTime {
    SimTime(ms * 1_000)
}

/// Store 1's connection to store 0 is known broken.
fn broken(w: &World<Cluster>) -> bool {
    w.model.stores[1].conn_broken[0]
}

#[test]
fn killed_store_is_noticed_at_once_by_its_connection_reset() {
    let mut w = world();
    let victim = w.model.store_nodes()[0];
    w.kernel.schedule_fault(ms(5_000), Fault::Crash(victim));
    w.run_until(ms(5_100));
    assert!(broken(&w), "the reset arrives within 50 ms");
}

#[test]
fn partition_is_noticed_only_by_keepalive_after_3_to_13_seconds() {
    let mut w = world();
    let (a, b) = (w.model.store_nodes()[0], w.model.store_nodes()[1]);
    let cut = Fault::Links {
        from: vec![a],
        to: vec![b],
        both_ways: true,
        change: LinkChange::Cut,
    };
    w.kernel.schedule_fault(ms(5_000), cut);
    w.run_until(ms(5_000 + 2_900));
    assert!(
        !broken(&w),
        "no reset crosses a cut: the keepalive timeout is 3 s"
    );
    w.run_until(ms(5_000 + 13_100));
    assert!(broken(&w), "a ping within 10 s, unanswered for 3 s");
}

#[test]
fn stalled_store_is_noticed_by_keepalive_too() {
    let mut w = world();
    let victim = w.model.store_nodes()[0];
    w.kernel.schedule_fault(ms(5_000), Fault::Pause(victim));
    w.run_until(ms(5_000 + 13_100));
    assert!(broken(&w), "a stalled process answers no ping");
}

#[test]
fn queued_message_to_the_dead_leader_is_reported_unreachable_and_wakes_its_follower() {
    // The follower answered a late message from its (dead) leader, then went back to sleep.
    // The other follower sleeps too, so no campaign of its wakes this one.
    let mut w = dead_leader_sleeping_followers(8_192);
    let m = &mut w.model;
    let term = m.peers[FOLLOWER.ix()].term;
    m.send(FOLLOWER, 0, RaftMsg::new(0, 1, 0, Kind::AppendResp, term));
    routed(&mut w.kernel, |cx| m.flush(cx));
    assert_eq!(w.model.stores[1].pending[0].len(), 1, "queued, not dropped");
    w.run_until(ms(5_100 + 4_800));
    assert_eq!(
        w.model.peers[FOLLOWER.ix()].group,
        GroupState::Idle,
        "within the 5 s wait"
    );
    w.run_until(ms(5_100 + 5_100));
    assert_eq!(w.model.book.unreachable_reports, 1);
    assert_eq!(w.model.peers[FOLLOWER.ix()].group, GroupState::Chaos);
    assert!(
        w.model.peers[FOLLOWER.ix()].awake,
        "and ticks, so it can campaign"
    );
}

#[test]
fn unreachable_report_to_a_leader_stops_pipelining_to_that_peer() {
    let mut w = world();
    let leader = PeerId(0);
    let matched = w.model.peers[leader.ix()].matched[2];
    w.model.tails[leader.ix()].next[2] = matched + 10;
    w.model.on_peer_unreachable(leader, 2, 2);
    let next = w.model.tails[leader.ix()].next[2];
    assert_eq!(next, matched + 1, "raft-rs become_probe");
    // A probe sends one append and waits for its answer (raft-rs Probe state pauses).
    let term = w.model.peers[leader.ix()].term;
    let (p, t) = (
        &mut w.model.peers[leader.ix()],
        &mut w.model.tails[leader.ix()],
    );
    p.log.append(&mut t.runs, 3, term);
    let last = p.log.last_index;
    w.model.send_append(leader, 2);
    assert_eq!(
        w.model.tails[leader.ix()].next[2],
        matched + 1,
        "no pipelining while probing"
    );
    // The follower acks everything: Replicate again, so appends pipeline and the next report
    // probes again.
    let mut ack = RaftMsg::new(0, 2, 0, Kind::AppendResp, term);
    ack.index = last;
    routed(&mut w.kernel, |cx| {
        w.model.handle_append_response(cx, leader, &ack)
    });
    assert_eq!(w.model.tails[leader.ix()].next[2], last + 1);
    w.model.on_peer_unreachable(leader, 2, 2);
    assert_ne!(w.model.probing[leader.ix()] & (1 << 2), 0, "probing again");
    assert_eq!(w.model.tails[leader.ix()].next[2], last + 1);
}

#[test]
fn a_stale_rejection_changes_nothing_while_probing() {
    let mut w = world();
    let leader = PeerId(0);
    w.model.on_peer_unreachable(leader, 2, 2);
    let next = w.model.tails[leader.ix()].next[2];
    let term = w.model.peers[leader.ix()].term;
    // The answer to an older append, at an index above the probe's.
    let mut old = RaftMsg::new(0, 2, 0, Kind::AppendResp, term);
    old.flag = true;
    old.index = next + 5;
    old.commit = next + 5;
    let before = w.model.stores[0].outbox[2].len();
    routed(&mut w.kernel, |cx| {
        w.model.handle_append_response(cx, leader, &old)
    });
    assert_eq!(w.model.tails[leader.ix()].next[2], next);
    assert_eq!(
        w.model.stores[0].outbox[2].len(),
        before,
        "raft-rs maybe_decr_to: stale, no new append"
    );
}

#[test]
fn reconnect_sends_what_was_queued_once_the_store_is_back() {
    let mut w = world();
    let (a, b) = (w.model.store_nodes()[0], w.model.store_nodes()[1]);
    let link = |change| Fault::Links {
        from: vec![a],
        to: vec![b],
        both_ways: true,
        change,
    };
    w.kernel.schedule_fault(ms(5_000), link(LinkChange::Cut));
    w.run_until(ms(20_000));
    assert!(broken(&w));
    let term = w.model.peers[FOLLOWER.ix()].term;
    let m = &mut w.model;
    m.send(
        FOLLOWER,
        0,
        RaftMsg::new(0, 1, 0, Kind::HeartbeatResp, term),
    );
    routed(&mut w.kernel, |cx| m.flush(cx));
    w.kernel
        .schedule_fault(ms(20_001), link(LinkChange::Restore));
    // The next attempt ends at most one 5 s wait later.
    w.run_until(ms(26_000));
    assert!(!broken(&w), "reconnected");
    assert!(w.model.stores[1].pending[0].is_empty(), "queue sent");
    assert_eq!(w.model.book.unreachable_reports, 0, "nothing was dropped");
}

/// Store 1's connection to store 0 (the leader's) broken, with both followers asleep and
/// following the dead leader in slot 0; queues hold `queue_size` messages.
fn dead_leader_sleeping_followers(queue_size: usize) -> World<Cluster> {
    let mut w = world();
    w.model.cfg.raft.raft_client_queue_size = queue_size;
    let victim = w.model.store_nodes()[0];
    w.kernel.schedule_fault(ms(5_000), Fault::Crash(victim));
    w.run_until(ms(5_100));
    assert!(broken(&w));
    let m = &mut w.model;
    for pid in [FOLLOWER, PeerId(2)] {
        m.set_group(pid, GroupState::Idle);
        m.peers[pid.ix()].awake = false;
        m.peers[pid.ix()].leader = 0;
    }
    w
}

/// As above, with a one-message queue that one heartbeat answer fills.
fn full_queue_to_dead_leader() -> World<Cluster> {
    let mut w = dead_leader_sleeping_followers(1);
    let m = &mut w.model;
    let term = m.peers[FOLLOWER.ix()].term;
    m.send(
        FOLLOWER,
        0,
        RaftMsg::new(0, 1, 0, Kind::HeartbeatResp, term),
    );
    routed(&mut w.kernel, |cx| m.flush(cx));
    assert_eq!(w.model.stores[1].pending[0].len(), 1, "the queue is full");
    w
}

#[test]
fn full_queue_loses_a_followers_append_answer_without_an_unreachable_report() {
    let mut w = full_queue_to_dead_leader();
    let m = &mut w.model;
    let term = m.peers[FOLLOWER.ix()].term;
    let mut answer = RaftMsg::new(0, 1, 0, Kind::AppendResp, term);
    answer.after_write = true; // it came from a ready that wrote entries
    m.send(FOLLOWER, 0, answer);
    routed(&mut w.kernel, |cx| m.flush(cx));
    let m = &w.model;
    assert_eq!(m.book.raft_queue_full, 1, "refused: DiscardReason::Full");
    assert_eq!(
        m.book.unreported_drops, 1,
        "the store writer only counts it"
    );
    assert_eq!(m.book.unreachable_reports, 0);
    assert_eq!(
        m.peers[FOLLOWER.ix()].group,
        GroupState::Idle,
        "nothing tells the follower its leader is gone"
    );
}

#[test]
fn full_queue_reports_a_raftstore_threads_message_to_the_leader_at_once() {
    let mut w = full_queue_to_dead_leader();
    let m = &mut w.model;
    let term = m.peers[FOLLOWER.ix()].term;
    m.send(
        FOLLOWER,
        0,
        RaftMsg::new(0, 1, 0, Kind::HeartbeatResp, term),
    );
    routed(&mut w.kernel, |cx| m.flush(cx));
    let m = &w.model;
    assert_eq!(m.book.raft_queue_full, 1);
    assert_eq!(m.book.unreported_drops, 0);
    assert_eq!(
        m.book.unreachable_reports, 1,
        "send_raft_messages reports it"
    );
    assert_eq!(
        m.peers[FOLLOWER.ix()].group,
        GroupState::Chaos,
        "leader_unreachable: Chaos"
    );
    assert!(m.peers[FOLLOWER.ix()].awake, "and ticking");
}

#[test]
fn queue_peak_counts_what_waits_for_a_broken_connection() {
    let mut w = world();
    let victim = w.model.store_nodes()[0];
    w.kernel.schedule_fault(ms(5_000), Fault::Crash(victim));
    w.run_until(ms(5_100));
    let m = &mut w.model;
    let term = m.peers[FOLLOWER.ix()].term;
    for _ in 0..3 {
        m.send(
            FOLLOWER,
            0,
            RaftMsg::new(0, 1, 0, Kind::HeartbeatResp, term),
        );
    }
    routed(&mut w.kernel, |cx| m.flush(cx));
    assert_eq!(w.model.book.raft_queue_peak, 3);
    assert_eq!(
        w.model.book.raft_queue_full, 0,
        "8,192 slots: nothing refused"
    );
}

#[test]
fn a_leader_that_steps_down_forgets_its_probes() {
    let mut w = world();
    let m = &mut w.model;
    let old = PeerId(0);
    m.on_peer_unreachable(old, 1, 1);
    // Slot 1 leads now; the old leader follows it, and store 1 becomes unreachable.
    let term = m.peers[old.ix()].term + 1;
    m.become_follower(old, term, 1);
    m.cfg.raft.raft_client_queue_size = 0;
    let answer = RaftMsg::new(0, 0, 1, Kind::HeartbeatResp, term);
    m.queue_while_broken(0, 1, vec![answer]);
    assert_eq!(
        m.peers[old.ix()].group,
        GroupState::Chaos,
        "reported as a follower whose leader is unreachable, not skipped as a probe"
    );
}
