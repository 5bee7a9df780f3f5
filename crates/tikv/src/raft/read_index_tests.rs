//! ReadIndex at message level: the read wakes a hibernated region, is confirmed by a quorum of
//! heartbeat answers carrying its context, fails when its leader steps down, and is refused on
//! a follower (see [`crate::raft::read_index`]).

use crate::host::routed;
use faultline_sim::{Fault, LinkChange, Network, SimDuration, World};

use crate::ids::PeerId;
use crate::msg::Kind;
use crate::msg::RaftMsg;
use crate::raft::state::OpEvent;
use crate::raft::state::OpOutcome;
use crate::store::raft_client_tests::ms;
use crate::store::raft_client_tests::world;
use crate::store::state::GroupState;
use crate::{Cluster, TikvConfig};

const LEADER: PeerId = PeerId(0);

/// Five stores, one hibernated region of five replicas led by slot 0 on store 0.
fn world5() -> World<Cluster> {
    let cfg = TikvConfig {
        stores: 5,
        regions: 1,
        replicas: 5,
        ..Default::default()
    };
    let mut net = Network::new((SimDuration::from_millis(1), SimDuration::from_millis(2)));
    let c = Cluster::new(&cfg, &mut net);
    World::new(c, 5, net, SimDuration::from_secs(1))
}

fn outcomes(w: &mut World<Cluster>) -> Vec<OpOutcome> {
    w.model
        .take_op_events()
        .into_iter()
        .map(|e: OpEvent| e.outcome)
        .collect()
}

/// A heartbeat answer from `slot` echoing `ctx`, in the leader's term.
fn ack(w: &World<Cluster>, slot: u8, ctx: u64) -> RaftMsg {
    let mut m = RaftMsg::new(0, slot, 0, Kind::HeartbeatResp, w.model.peers[0].term);
    m.index = ctx;
    m
}

/// The world at 1.001 s, tikv-1 (the leader's store) cut from the other stores at 1 s, and
/// the store nodes.
fn leader_cut_at_one_second() -> (World<Cluster>, Vec<faultline_sim::NodeId>) {
    let mut w = world();
    let nodes = w.model.store_nodes().to_vec();
    w.kernel.schedule_fault(
        ms(1_000),
        Fault::Links {
            from: vec![nodes[0]],
            to: nodes[1..].to_vec(),
            both_ways: true,
            change: LinkChange::Cut,
        },
    );
    w.run_until(ms(1_001));
    (w, nodes)
}

#[test]
fn a_read_wakes_a_hibernated_leader_and_its_heartbeats_wake_the_followers() {
    let mut w = world();
    w.run_until(ms(1_000));
    assert_eq!(w.model.peers[LEADER.ix()].group, GroupState::Idle);
    assert!(!w.model.peers[LEADER.ix()].awake);
    w.model.read_index(&mut w.kernel, 0, 0, 7);
    let p = &w.model.peers[LEADER.ix()];
    assert_eq!(p.group, GroupState::Ordered, "reset_raft_tick(Ordered)");
    assert!(p.awake);
    assert!(outcomes(&mut w).is_empty(), "no quorum has answered yet");
    w.run_until(ms(1_100));
    for f in [PeerId(1), PeerId(2)] {
        let p = &w.model.peers[f.ix()];
        assert_eq!(p.group, GroupState::Ordered, "a message from the leader");
        assert!(p.awake, "its tick is registered");
    }
    let events = w.model.take_op_events();
    assert_eq!(events.len(), 1);
    assert_eq!((events[0].op, events[0].store), (7, 0));
    assert_eq!(events[0].outcome, OpOutcome::ReadReady);
}

#[test]
fn a_read_is_confirmed_only_by_answers_from_a_quorum_of_distinct_followers() {
    let mut w = world5();
    w.run_until(ms(1_000));
    // Keep the real heartbeats from arriving: the answers are fed by hand.
    let leader_node = w.model.store_nodes()[0];
    let others = w.model.store_nodes()[1..].to_vec();
    w.kernel.schedule_fault(
        ms(1_000),
        Fault::Links {
            from: vec![leader_node],
            to: others,
            both_ways: true,
            change: LinkChange::Cut,
        },
    );
    w.run_until(ms(1_001));
    w.model.read_index(&mut w.kernel, 0, 0, 9);
    let ctx = w.model.read_ctx(LEADER);
    assert_ne!(ctx, 0, "the heartbeats carry the read's context");
    for m in [ack(&w, 1, ctx + 1), ack(&w, 1, ctx), ack(&w, 1, ctx)] {
        routed(&mut w.kernel, |cx| w.model.step(cx, LEADER, &m));
    }
    assert!(
        outcomes(&mut w).is_empty(),
        "another context and a repeated answer do not count: 2 of 5"
    );
    let m = ack(&w, 3, ctx);
    routed(&mut w.kernel, |cx| w.model.step(cx, LEADER, &m));
    assert_eq!(outcomes(&mut w), vec![OpOutcome::ReadReady], "3 of 5");
    assert!(!w.model.has_pending_reads(LEADER));
}

#[test]
fn a_leader_cut_from_its_followers_never_confirms_and_fails_the_read_when_it_steps_down() {
    let (mut w, _) = leader_cut_at_one_second();
    w.model.read_index(&mut w.kernel, 0, 0, 5);
    w.run_until(ms(1_500));
    assert!(outcomes(&mut w).is_empty(), "no answer crosses the cut");
    assert!(w.model.has_pending_reads(LEADER));
    assert!(
        w.model.peers[LEADER.ix()].awake,
        "a leader with a pending read does not hibernate"
    );
    w.run_until(ms(30_000));
    assert!(!w.model.peers[LEADER.ix()].is_leader(), "check-quorum");
    assert_eq!(outcomes(&mut w), vec![OpOutcome::ReadStale]);
    assert!(!w.model.has_pending_reads(LEADER));
}

#[test]
fn a_read_on_a_follower_is_refused_with_a_hint_and_wakes_it() {
    let mut w = world();
    w.run_until(ms(1_000));
    let follower = PeerId(1);
    assert_eq!(w.model.peers[follower.ix()].group, GroupState::Idle);
    w.model.read_index(&mut w.kernel, 1, 0, 3);
    assert_eq!(
        outcomes(&mut w),
        vec![OpOutcome::ReadNotLeader { leader: Some(0) }]
    );
    let p = &w.model.peers[follower.ix()];
    assert_eq!(p.group, GroupState::Chaos);
    assert!(p.awake);
    assert_eq!(w.model.book.follower_wakeups, 1);
    assert!(!w.model.peers[LEADER.ix()].awake, "the leader sleeps on");
}

#[test]
fn a_killed_leader_store_answers_nothing() {
    let (mut w, nodes) = leader_cut_at_one_second();
    w.model.read_index(&mut w.kernel, 0, 0, 5);
    w.kernel.schedule_fault(ms(1_200), Fault::Crash(nodes[0]));
    w.run_until(ms(30_000));
    assert!(
        outcomes(&mut w).is_empty(),
        "the callback died with the process"
    );
    assert!(!w.model.has_pending_reads(LEADER));
}

#[test]
fn a_new_leader_holds_a_read_until_it_commits_an_entry_of_its_term() {
    let (mut w, _) = leader_cut_at_one_second();
    // Slot 0 wins a new term (its votes are not the point): its empty entry is uncommitted.
    w.model.peers[LEADER.ix()].term += 1;
    routed(&mut w.kernel, |cx| w.model.become_leader(cx, LEADER));
    w.model.read_index(&mut w.kernel, 0, 0, 4);
    assert_eq!(
        w.model.read_ctx(LEADER),
        0,
        "raft-rs commit_to_current_term"
    );
    let p = &w.model.peers[LEADER.ix()];
    let mut resp = RaftMsg::new(0, 1, 0, Kind::AppendResp, p.term);
    resp.index = p.log.last_index;
    routed(&mut w.kernel, |cx| w.model.step(cx, LEADER, &resp));
    let ctx = w.model.read_ctx(LEADER);
    assert_ne!(ctx, 0, "the commit released the read to the heartbeats");
    assert!(outcomes(&mut w).is_empty());
    let m = ack(&w, 1, ctx);
    routed(&mut w.kernel, |cx| w.model.step(cx, LEADER, &m));
    assert_eq!(outcomes(&mut w), vec![OpOutcome::ReadReady]);
}
