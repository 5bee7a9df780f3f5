//! One test per GroupState transition named in MODEL.md section 1, driven through the same
//! entry points raftstore uses.

use crate::host::routed;
use faultline_sim::{Kernel, Network, SimDuration, SimTime, World};

use crate::ids::PeerId;
use crate::msg::Kind;
use crate::msg::RaftMsg;
use crate::observe::state::WatchWhat;
use crate::raft::state::Role;
use crate::store::state::GroupState;
use crate::store::state::LeaderState;
use crate::{Cluster, TikvAction, TikvConfig, UnreachableBroadcast};

/// Three stores, one region led by slot 0 on store 0, everything hibernated.
fn world(mode: UnreachableBroadcast) -> World<Cluster> {
    world_of(TikvConfig {
        unreachable_broadcast: mode,
        ..three_stores_one_region()
    })
}

/// The configuration of [`world`], broadcast mode at its default.
fn three_stores_one_region() -> TikvConfig {
    TikvConfig {
        stores: 3,
        regions: 1,
        ..Default::default()
    }
}

/// A world of `cfg`, seed 5, 1-2 ms links.
fn world_of(cfg: TikvConfig) -> World<Cluster> {
    let mut net = Network::new((SimDuration::from_millis(1), SimDuration::from_millis(2)));
    let c = Cluster::new(&cfg, &mut net);
    World::new(c, 5, net, SimDuration::from_secs(1))
}

/// Store `s` reports store `t` unreachable now, and the world runs until its pollers have
/// handled the broadcast (a millisecond is far more than one region's worth of work).
fn report_unreachable(w: &mut World<Cluster>, s: usize, t: usize) {
    routed(&mut w.kernel, |cx| w.model.on_store_unreachable(cx, s, t));
    let handled = w.now().plus(SimDuration::from_millis(1));
    w.run_until(handled);
}

const LEADER: PeerId = PeerId(0);
const FOLLOWER: PeerId = PeerId(1);

fn msg(kind: Kind, from: u8, to: u8, term: u64) -> RaftMsg {
    RaftMsg::new(0, from, to, kind, term)
}

fn secs(s: u64) -> SimTime {
    SimTime(s * 1_000_000)
}

#[test]
fn vote_prevote_and_timeout_now_put_a_hibernated_peer_in_chaos_and_ticking() {
    for kind in [Kind::PreVote, Kind::Vote, Kind::TimeoutNow] {
        let mut w = world(UnreachableBroadcast::OncePerDisconnect);
        assert_eq!(w.model.peers[FOLLOWER.ix()].group, GroupState::Idle);
        assert!(!w.model.peers[FOLLOWER.ix()].awake);
        w.model.on_group_message(FOLLOWER, &msg(kind, 2, 1, 7));
        assert_eq!(
            w.model.peers[FOLLOWER.ix()].group,
            GroupState::Chaos,
            "{kind:?}"
        );
        assert!(
            w.model.peers[FOLLOWER.ix()].awake,
            "{kind:?} registers the tick"
        );
    }
}

#[test]
fn message_from_current_leader_resets_to_ordered_but_others_do_not() {
    let mut w = world(UnreachableBroadcast::OncePerDisconnect);
    w.model.set_group(FOLLOWER, GroupState::Chaos);
    // From the other follower: no change.
    w.model
        .on_group_message(FOLLOWER, &msg(Kind::Heartbeat, 2, 1, 6));
    assert_eq!(w.model.peers[FOLLOWER.ix()].group, GroupState::Chaos);
    // Hibernate extra messages from the leader do not count either.
    w.model
        .on_group_message(FOLLOWER, &msg(Kind::HibernateRequest, 0, 1, 6));
    assert_eq!(w.model.peers[FOLLOWER.ix()].group, GroupState::Chaos);
    w.model
        .on_group_message(FOLLOWER, &msg(Kind::Append, 0, 1, 6));
    assert_eq!(w.model.peers[FOLLOWER.ix()].group, GroupState::Ordered);
    assert!(w.model.peers[FOLLOWER.ix()].awake);
}

#[test]
fn follower_stops_ticking_only_when_not_chaos_with_leader_and_current_last_term() {
    let mut w = world(UnreachableBroadcast::OncePerDisconnect);
    w.model.set_group(FOLLOWER, GroupState::Ordered);
    assert!(w.model.follower_may_sleep(FOLLOWER));
    w.model.set_group(FOLLOWER, GroupState::Chaos);
    assert!(!w.model.follower_may_sleep(FOLLOWER), "Chaos keeps ticking");
    w.model.set_group(FOLLOWER, GroupState::Ordered);
    w.model.peers[FOLLOWER.ix()].term += 1;
    assert!(
        !w.model.follower_may_sleep(FOLLOWER),
        "last log term behind the term"
    );
    w.model.peers[FOLLOWER.ix()].term -= 1;
    w.model.peers[FOLLOWER.ix()].leader = crate::ids::NO_SLOT;
    assert!(!w.model.follower_may_sleep(FOLLOWER), "no leader");
}

#[test]
fn write_wakes_region_then_followers_sleep_and_leader_hibernates_after_poll() {
    let mut w = world(UnreachableBroadcast::OncePerDisconnect);
    w.model.watch_region(0);
    let (node, t) = w.model.action_timer(TikvAction::Write { region: 0 });
    w.kernel.set_timer(node, SimDuration::from_secs(5), t);
    w.run_until(secs(5).plus(SimDuration::from_millis(300)));
    assert_eq!(
        w.model.peers[LEADER.ix()].group,
        GroupState::Ordered,
        "the write woke the leader"
    );
    let woke = w.model.watch_events().iter().any(|e| {
        e.slot == 1
            && e.what
                == WatchWhat::Group {
                    from: GroupState::Idle,
                    to: GroupState::Ordered,
                }
    });
    assert!(woke, "its MsgAppend woke the follower");
    w.run_until(secs(8));
    assert_eq!(
        w.model.peers[FOLLOWER.ix()].group,
        GroupState::Idle,
        "follower stopped ticking"
    );
    assert!(
        w.model.peers[LEADER.ix()].awake,
        "the leader waits for the poll"
    );
    w.run_until(secs(40));
    let l = &w.model.peers[LEADER.ix()];
    assert_eq!(l.leader_state, LeaderState::Hibernated);
    assert_eq!(l.group, GroupState::Idle);
    assert!(!l.awake);
    assert_eq!(
        l.log.commit, l.log.last_index,
        "the write committed before hibernating"
    );
}

#[test]
fn leader_does_not_hibernate_while_a_live_peer_has_not_voted() {
    let mut w = world(UnreachableBroadcast::OncePerDisconnect);
    // Pause store 2 (alive, connection up): it cannot vote, and it is not down.
    let s2 = w.model.store_nodes()[2];
    w.kernel
        .schedule_fault(secs(4), faultline_sim::Fault::Pause(s2));
    let (node, t) = w.model.action_timer(TikvAction::Write { region: 0 });
    w.kernel.set_timer(node, SimDuration::from_secs(5), t);
    w.run_until(secs(60));
    let l = &w.model.peers[LEADER.ix()];
    assert!(
        l.awake && l.leader_state != LeaderState::Hibernated,
        "{:?}",
        l.leader_state
    );
    assert_eq!(l.role, Role::Leader);
}

#[test]
fn stale_check_moves_idle_to_prechaos_to_chaos_then_registers_tick() {
    let mut w = world(UnreachableBroadcast::OncePerDisconnect);
    let k: &mut Kernel<Cluster> = &mut w.kernel;
    let m = &mut w.model;
    assert!(!m.peers[FOLLOWER.ix()].awake);
    routed(k, |cx| m.stale_check_peer(cx, FOLLOWER));
    assert_eq!(m.peers[FOLLOWER.ix()].group, GroupState::PreChaos);
    assert!(!m.peers[FOLLOWER.ix()].awake, "PreChaos does not tick");
    routed(k, |cx| m.stale_check_peer(cx, FOLLOWER));
    assert_eq!(m.peers[FOLLOWER.ix()].group, GroupState::Chaos);
    assert!(
        !m.peers[FOLLOWER.ix()].awake,
        "Chaos alone does not register the tick"
    );
    routed(k, |cx| m.stale_check_peer(cx, FOLLOWER));
    assert!(
        m.peers[FOLLOWER.ix()].awake,
        "the third check registers the tick"
    );
}

#[test]
fn idle_follower_that_still_ticks_keeps_idle_on_stale_check() {
    let mut w = world(UnreachableBroadcast::OncePerDisconnect);
    w.model.register_tick(FOLLOWER);
    routed(&mut w.kernel, |cx| w.model.stale_check_peer(cx, FOLLOWER));
    assert_eq!(w.model.peers[FOLLOWER.ix()].group, GroupState::Idle);
}

#[test]
fn leader_missing_longer_than_abnormal_duration_is_logged_and_counted() {
    let mut w = world(UnreachableBroadcast::OncePerDisconnect);
    let msg = "leader missing longer than abnormal_leader_missing_duration";
    routed(&mut w.kernel, |cx| w.model.stale_check_peer(cx, FOLLOWER)); // starts the clock at t=0
    w.run_until(secs(9 * 60));
    w.model.peers[FOLLOWER.ix()].leader_missing_since = 0; // pretend no leader message since
    routed(&mut w.kernel, |cx| w.model.stale_check_peer(cx, FOLLOWER));
    assert_eq!(
        w.kernel.log.count_containing(msg),
        0,
        "9 min is not abnormal"
    );
    w.run_until(secs(10 * 60 + 1));
    w.model.peers[FOLLOWER.ix()].leader_missing_since = 0;
    routed(&mut w.kernel, |cx| w.model.stale_check_peer(cx, FOLLOWER));
    assert_eq!(w.kernel.log.count_containing(msg), 1);
    assert!(w.model.book.leader_missing.contains(&0));
}

#[test]
fn unreachable_broadcast_puts_followers_of_that_store_in_chaos_once_per_backoff() {
    let mut w = world(UnreachableBroadcast::OncePerDisconnect);
    // Store 1 hosts the follower of region 0 whose leader is on store 0.
    report_unreachable(&mut w, 1, 0);
    assert_eq!(w.model.peers[FOLLOWER.ix()].group, GroupState::Chaos);
    assert!(w.model.peers[FOLLOWER.ix()].awake);
    w.model.set_group(FOLLOWER, GroupState::Idle);
    w.run_until(secs(9));
    report_unreachable(&mut w, 1, 0);
    assert_eq!(
        w.model.peers[FOLLOWER.ix()].group,
        GroupState::Idle,
        "within the 10 s backoff"
    );
    w.run_until(secs(11));
    report_unreachable(&mut w, 1, 0);
    assert_eq!(
        w.model.peers[FOLLOWER.ix()].group,
        GroupState::Chaos,
        "a report after the backoff broadcasts"
    );
}

#[test]
fn the_broadcast_reaches_a_follower_only_when_the_pollers_get_to_it() {
    let mut w = world(UnreachableBroadcast::OncePerDisconnect);
    // A second of work already waits for store 1's pollers.
    let now = crate::store::pollers::ns(w.now().as_micros());
    w.model.schedule_work(1, now, 1_000_000_000);
    report_unreachable(&mut w, 1, 0);
    assert_eq!(
        w.model.peers[FOLLOWER.ix()].group,
        GroupState::Idle,
        "StoreUnreachable waits behind the earlier work"
    );
    w.run_until(w.now().plus(SimDuration::from_secs(1)));
    assert_eq!(w.model.peers[FOLLOWER.ix()].group, GroupState::Chaos);
}

#[test]
fn fixed_mode_rebroadcasts_only_if_messages_arrived_since_last_broadcast() {
    let mut w = world(UnreachableBroadcast::RepeatIfNewMessages);
    w.model.stores[1].recv_count[0] = 5; // store 0 had sent messages before it died
    report_unreachable(&mut w, 1, 0);
    w.model.set_group(FOLLOWER, GroupState::Idle);
    w.run_until(secs(11));
    report_unreachable(&mut w, 1, 0);
    assert_eq!(
        w.model.peers[FOLLOWER.ix()].group,
        GroupState::Idle,
        "no new messages from store 0"
    );
    w.model.stores[1].recv_count[0] += 1; // a late message from store 0 arrived
    report_unreachable(&mut w, 1, 0);
    assert_eq!(w.model.peers[FOLLOWER.ix()].group, GroupState::Chaos);
}

#[test]
fn fixed_mode_rebroadcasts_while_nothing_ever_arrived_from_that_store() {
    let mut w = world(UnreachableBroadcast::RepeatIfNewMessages);
    w.model.stores[1].recv_count[0] = 0;
    report_unreachable(&mut w, 1, 0);
    w.model.set_group(FOLLOWER, GroupState::Idle);
    w.run_until(secs(11));
    report_unreachable(&mut w, 1, 0);
    assert_eq!(
        w.model.peers[FOLLOWER.ix()].group,
        GroupState::Chaos,
        "a counter still at 0 does not gate the broadcast (20b75dc443)"
    );
}

#[test]
fn idle_follower_counts_missing_ticks_up_to_the_limit_then_stops_ticking() {
    let mut w = world(UnreachableBroadcast::OncePerDisconnect);
    let p = &mut w.model.peers[FOLLOWER.ix()];
    p.missing_ticks = 0;
    p.election_elapsed = 1;
    // 10 election ticks - 1 (the next tick) - 1 elapsed - 2 heartbeat ticks = 6 (TiKV's comment).
    let kept = (0..10)
        .take_while(|_| w.model.count_missing_tick(FOLLOWER))
        .count();
    assert_eq!(kept, 6);
    assert_eq!(w.model.peers[FOLLOWER.ix()].missing_ticks, 6);
    assert!(
        !w.model.count_missing_tick(LEADER),
        "an Idle leader does not tick"
    );
}

#[test]
fn follower_woken_by_unreachable_replays_missing_ticks_on_its_first_tick() {
    let mut w = world(UnreachableBroadcast::OncePerDisconnect);
    // The bootstrapped cluster has been idle long: 10 - 1 - 2 = 7 missing ticks each.
    assert_eq!(w.model.peers[FOLLOWER.ix()].missing_ticks, 7);
    w.model.on_peer_unreachable(FOLLOWER, 0, 0);
    assert_eq!(w.model.peers[FOLLOWER.ix()].group, GroupState::Chaos);
    w.run_until(secs(1).plus(SimDuration::from_millis(1)));
    let p = &w.model.peers[FOLLOWER.ix()];
    assert_eq!(p.missing_ticks, 0);
    assert_eq!(p.election_elapsed, 8, "7 replayed + this tick");
}

#[test]
fn a_message_from_the_leader_forgets_missing_ticks() {
    let mut w = world(UnreachableBroadcast::OncePerDisconnect);
    w.model
        .on_group_message(FOLLOWER, &msg(Kind::Heartbeat, 0, 1, 6));
    assert_eq!(w.model.peers[FOLLOWER.ix()].missing_ticks, 0);
}

#[test]
fn leader_with_a_dead_replica_stays_awake_as_in_7_1() {
    let mut w = world(UnreachableBroadcast::OncePerDisconnect);
    let s2 = w.model.store_nodes()[2];
    w.kernel
        .schedule_fault(secs(4), faultline_sim::Fault::Crash(s2));
    let (node, t) = w.model.action_timer(TikvAction::Write { region: 0 });
    w.kernel.set_timer(node, SimDuration::from_secs(5), t);
    w.run_until(secs(120));
    let l = &w.model.peers[LEADER.ix()];
    assert_eq!(l.role, Role::Leader);
    assert!(
        l.awake,
        "the dead replica never votes, so the poll never ends"
    );
    assert_ne!(l.leader_state, LeaderState::Hibernated);
}

/// TiKV `PeerFsmDelegate::all_agree_to_hibernate`: while the poll is open the leader asks every
/// other peer again at each tick, the ones that already voted too (upstream loops over all the
/// region's peers). Asking only the missing voters sent the live follower of a leader whose
/// other replica is on a dead store nothing, where TiKV sends it a request every tick.
#[test]
fn an_open_hibernate_poll_asks_every_peer_each_tick_voted_or_not() {
    let mut w = world(UnreachableBroadcast::OncePerDisconnect);
    let c = &mut w.model;
    c.peers[LEADER.ix()].leader_state = LeaderState::Poll;
    c.peers[LEADER.ix()].hib_votes = 0b011; // the leader and slot 1 voted; slot 2 did not
    c.stores[0].outbox.iter_mut().for_each(Vec::clear);
    assert!(!c.leader_may_sleep(LEADER), "slot 2 has not voted");
    for to in [1usize, 2] {
        let asked = c.stores[0].outbox[to]
            .iter()
            .any(|m| m.kind == Kind::HibernateRequest && m.to as usize == to);
        assert!(asked, "slot {to} asked");
    }
    c.peers[LEADER.ix()].hib_votes = 0b111;
    c.stores[0].outbox.iter_mut().for_each(Vec::clear);
    assert!(c.leader_may_sleep(LEADER), "every peer voted");
    assert!(
        c.stores[0].outbox.iter().all(Vec::is_empty),
        "no request once all voted"
    );
}

/// The benchmark's work count: a hibernated region's peers tick nothing; with hibernation off
/// every peer ticks once per base tick (1 s), so ten seconds cost three peers ten ticks each.
#[test]
fn peer_ticks_count_one_per_awake_peer_per_base_tick() {
    let mut w = world(UnreachableBroadcast::OncePerDisconnect);
    w.run_until(secs(20));
    assert_eq!(
        w.model.raft_work().peer_ticks,
        0,
        "a hibernated region ticks nothing"
    );

    let mut cfg = three_stores_one_region();
    cfg.hibernate.enabled = false;
    let mut w = world_of(cfg);
    w.run_until(SimTime(secs(5).0 + 500_000));
    let before = w.model.raft_work();
    w.run_until(SimTime(secs(15).0 + 500_000));
    let after = w.model.raft_work();
    assert_eq!(after.peer_ticks - before.peer_ticks, 3 * 10);
    assert!(after.messages > before.messages, "the leader heartbeats");
    assert_eq!(
        after.total() - before.total(),
        (after.peer_ticks - before.peer_ticks) + (after.messages - before.messages),
        "no store is down, so nothing is reported unreachable"
    );
}
