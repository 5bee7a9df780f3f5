//! Hibernate regions (TiKV `hibernate_state.rs` and the hibernate parts of `peer_fsm.rs`).
//!
//! A peer ticks only while it is in its store's awake list; hibernated peers cost nothing per
//! tick. The rules, as MODEL.md section 1 states them:
//! - vote / pre-vote / TimeoutNow -> `Chaos` and tick; a message from the current leader ->
//!   `Ordered` and tick ([`Cluster::on_group_message`]);
//! - a follower stops ticking (`Idle`) when not `Chaos`, it has a leader, its last log term is
//!   the current term and no reads are pending ([`Cluster::follower_may_sleep`]);
//! - the leader hibernates after polling its peers, every one of which must vote, as in 7.1
//!   ([`Cluster::leader_may_sleep`]);
//! - an Idle follower keeps ticking a few ticks, counting them as missing; the first tick after
//!   a wake-up that keeps them replays them ([`Cluster::count_missing_tick`]);
//! - every `peer_stale_state_check_interval`: `Idle` -> `PreChaos` -> `Chaos` -> tick, and a
//!   leader missing for `abnormal_leader_missing_duration` is logged
//!   ([`Cluster::stale_check_peer`]).

use faultline_sim::Level;

use crate::cluster::Cluster;
use crate::ids::PeerId;
use crate::ids::NO_SLOT;
use crate::msg::Kind;
use crate::msg::RaftMsg;
use crate::out::Cx;
use crate::raft::state::Role;
use crate::store::state::GroupState;
use crate::store::state::LeaderState;

impl Cluster {
    /// Changes a peer's GroupState, keeping the per-state counts; leaving Idle resets the
    /// leader's poll as `HibernateState::reset` does.
    pub(crate) fn set_group(&mut self, pid: PeerId, g: GroupState) {
        let p = &mut self.peers[pid.ix()];
        if p.group == g {
            return;
        }
        let from = p.group;
        self.book.group_counts[p.group as usize] -= 1;
        self.book.group_counts[g as usize] += 1;
        p.group = g;
        if g != GroupState::Idle {
            p.leader_state = LeaderState::Awaken;
        }
        self.watch(pid, crate::observe::state::WatchWhat::Group { from, to: g });
    }

    /// Puts a peer in its store's awake list (TiKV `register_raft_base_tick`).
    pub(crate) fn register_tick(&mut self, pid: PeerId) {
        let p = &mut self.peers[pid.ix()];
        if p.awake {
            return;
        }
        p.awake = true;
        self.book.awake_peers += 1;
        self.changes.note(pid.region(self.replicas));
        let s = self.slot_store[pid.ix()] as usize;
        self.stores[s].awake.push(pid);
    }

    /// `reset_raft_tick(state)`: new GroupState, missing ticks forgotten, tick registered.
    pub(crate) fn reset_raft_tick(&mut self, pid: PeerId, g: GroupState) {
        self.set_group(pid, g);
        self.peers[pid.ix()].missing_ticks = 0;
        self.register_tick(pid);
    }

    /// A tick of an Idle peer (TiKV 7.1 `PeerFsmDelegate::on_raft_base_tick`): Raft does not
    /// tick, but a follower counts the tick as missing while `missing + 1 + election_elapsed +
    /// heartbeat_ticks < election_ticks` (so at most 6 with the defaults) and stays
    /// registered; then it stops ticking. Returns whether the peer keeps ticking.
    pub(crate) fn count_missing_tick(&mut self, pid: PeerId) -> bool {
        let (hb, election) = (self.cfg.raft.heartbeat_ticks, self.cfg.raft.election_ticks);
        let p = &mut self.peers[pid.ix()];
        if p.role == Role::Leader {
            return false;
        }
        let ahead = p.missing_ticks as u32 + 1 + p.election_elapsed as u32 + hb;
        if ahead < election {
            p.missing_ticks += 1;
            return true;
        }
        false
    }

    /// The bootstrapped cluster has been idle long: every follower counted its missing ticks
    /// up to the limit before it stopped ticking.
    pub(crate) fn bootstrap_missing_ticks(&mut self) {
        let (hb, election) = (self.cfg.raft.heartbeat_ticks, self.cfg.raft.election_ticks);
        let full = election.saturating_sub(1 + hb) as u16;
        // By index: `peers` is copy-on-write, and at boot nothing shares its chunks yet.
        for i in 0..self.peers.len() {
            let p = &mut self.peers[i];
            if p.role == Role::Follower && p.group == GroupState::Idle {
                p.missing_ticks = full.saturating_sub(p.election_elapsed);
            }
        }
    }

    /// The first tick after waking without `reset_raft_tick` (an Unreachable report, the
    /// stale-state check) replays the missing ticks first, so a follower woken to Chaos
    /// campaigns that much sooner (TiKV `on_raft_base_tick`: `for _ in 0..missing_ticks`).
    pub(crate) fn replay_missing_ticks(&mut self, cx: &mut Cx, pid: PeerId) {
        let n = std::mem::take(&mut self.peers[pid.ix()].missing_ticks);
        for _ in 0..n {
            self.raft_tick(cx, pid);
        }
    }

    /// GroupState effect of a raft message, applied before Raft sees it (TiKV
    /// `PeerFsmDelegate::on_raft_message`).
    pub(crate) fn on_group_message(&mut self, pid: PeerId, m: &RaftMsg) {
        if !self.cfg.hibernate.enabled {
            return;
        }
        if m.kind.wakes_to_chaos() {
            if self.peers[pid.ix()].group != GroupState::Chaos {
                self.reset_raft_tick(pid, GroupState::Chaos);
            }
        } else if !m.kind.is_extra() && m.from == self.peers[pid.ix()].leader {
            self.reset_raft_tick(pid, GroupState::Ordered);
        }
    }

    /// A proposal reached an (possibly hibernated) leader: wake it.
    pub(crate) fn wake_leader(&mut self, pid: PeerId) {
        self.reset_raft_tick(pid, GroupState::Ordered);
        self.peers[pid.ix()].leader_state = LeaderState::Awaken;
    }

    /// The follower rule (TiKV `Peer::check_after_tick` for followers): stop ticking when not
    /// Chaos, a leader is known, the last log term equals the term, and no read is pending
    /// (a follower refuses reads at once in the model, so it never has one).
    pub(crate) fn follower_may_sleep(&self, pid: PeerId) -> bool {
        let p = &self.peers[pid.ix()];
        p.role == Role::Follower
            && p.group != GroupState::Chaos
            && p.leader != NO_SLOT
            && p.log.last_term() == p.term
    }

    /// TiKV 7.1 `Peer::check_before_tick` for a leader: nothing left to replicate or apply, no
    /// transfer, no pending read, and the election clock almost at its timeout (TiKV waits that long after
    /// waking). Every peer must have matched the last index, a dead one too ("We choose
    /// availability instead of performance in this case").
    pub(crate) fn leader_up_to_date(&self, pid: PeerId) -> bool {
        let p = &self.peers[pid.ix()];
        if (p.election_elapsed as u32) + 1 < self.cfg.raft.election_ticks
            && p.leader_state == LeaderState::Awaken
        {
            return false;
        }
        let me = pid.slot(self.replicas);
        let last = p.log.last_index;
        if p.log.commit != last || p.transferee != NO_SLOT || self.has_pending_reads(pid) {
            return false;
        }
        (0..self.replicas as u8).all(|s| s == me || p.matched[s as usize] == last)
    }

    /// TiKV 7.1 `HibernateState::maybe_hibernate`: the first call starts a poll; later calls
    /// hibernate once every peer voted. Until then it asks every other peer again, each tick,
    /// voted or not (`PeerFsmDelegate::all_agree_to_hibernate`, `fsm/peer.rs`, loops over all
    /// the region's peers). So a leader with a replica on a dead store stays awake until PD
    /// replaces that replica, and sends its live followers a request every tick. (TiKV 8.x adds
    /// a `down_peer_ids` argument: peers down for `max_peer_down_duration` need not vote if
    /// the voters form a quorum, and it skips the broadcast when every missing voter has been
    /// unreachable for three heartbeats. The model keeps 7.1.)
    pub(crate) fn leader_may_sleep(&mut self, pid: PeerId) -> bool {
        let me = pid.slot(self.replicas);
        match self.peers[pid.ix()].leader_state {
            LeaderState::Hibernated => return true,
            LeaderState::Awaken => {
                let p = &mut self.peers[pid.ix()];
                p.leader_state = LeaderState::Poll;
                p.hib_votes = 1 << me;
            }
            LeaderState::Poll => {}
        }
        let votes = self.peers[pid.ix()].hib_votes;
        let all = (0..self.replicas as u8).all(|s| votes & (1 << s) != 0);
        if all {
            self.peers[pid.ix()].leader_state = LeaderState::Hibernated;
            return true;
        }
        let term = self.peers[pid.ix()].term;
        let r = pid.region(self.replicas).0;
        for s in (0..self.replicas as u8).filter(|&s| s != me) {
            self.send(pid, s, RaftMsg::new(r, me, s, Kind::HibernateRequest, term));
        }
        false
    }

    /// A follower answers the leader's hibernate poll (TiKV `on_hibernate_request`): only to
    /// its leader, and only with nothing uncommitted.
    pub(crate) fn on_hibernate_request(&mut self, pid: PeerId, m: &RaftMsg) {
        let p = &self.peers[pid.ix()];
        if p.leader != m.from || p.term != m.term || p.log.last_index != p.log.commit {
            return;
        }
        let me = pid.slot(self.replicas);
        let resp = RaftMsg::new(m.region, me, m.from, Kind::HibernateResponse, p.term);
        self.send(pid, m.from, resp);
    }

    /// The leader counts a vote (TiKV `on_hibernate_response`).
    pub(crate) fn on_hibernate_response(&mut self, pid: PeerId, m: &RaftMsg) {
        let p = &mut self.peers[pid.ix()];
        if p.role == Role::Leader && p.term == m.term && p.leader_state == LeaderState::Poll {
            p.hib_votes |= 1 << m.from;
        }
    }

    /// One peer's part of the `peer_stale_state_check_interval` tick (TiKV
    /// `on_check_peer_stale_state_tick`).
    pub(crate) fn stale_check_peer(&mut self, cx: &mut Cx, pid: PeerId) {
        let now = cx.now.0;
        if self.cfg.hibernate.enabled {
            let p = &self.peers[pid.ix()];
            match p.group {
                GroupState::Idle if p.role == Role::Leader => {
                    // An Idle leader pings its followers and reports to PD.
                    self.ping(pid);
                    let r = pid.region(self.replicas).0;
                    let s = self.slot_store[pid.ix()] as usize;
                    let term = self.peers[pid.ix()].term;
                    self.stores[s].region_hb.push((r, term));
                }
                // A follower that still ticks (just went Idle) keeps its state.
                GroupState::Idle if !p.awake => self.set_group(pid, GroupState::PreChaos),
                GroupState::PreChaos => self.set_group(pid, GroupState::Chaos),
                GroupState::Chaos => self.register_tick(pid),
                _ => {}
            }
        }
        self.check_stale_state(cx, pid, now);
    }

    /// TiKV `Peer::check_stale_state`: how long has this follower missed its leader?
    fn check_stale_state(&mut self, cx: &mut Cx, pid: PeerId, now: u64) {
        let abnormal = self.cfg.hibernate.abnormal_leader_missing_duration.0;
        let max = self.cfg.hibernate.max_leader_missing_duration.0;
        let p = &mut self.peers[pid.ix()];
        if p.role == Role::Leader {
            p.leader_missing_since = u64::MAX;
            return;
        }
        if p.leader_missing_since == u64::MAX {
            p.leader_missing_since = now;
            return;
        }
        let missing = now.saturating_sub(p.leader_missing_since);
        let r = pid.region(self.replicas).0;
        let node = self.store_nodes[self.slot_store[pid.ix()] as usize];
        if missing >= max {
            p.leader_missing_since = now;
            cx.out.log(
                Some(node),
                Level::Warn,
                "leader missing longer than max_leader_missing_duration. To check with pd and other peers whether it's still valid",
                format!("region_id={r} peer_slot={} missing_secs={}", pid.slot(self.replicas), missing / 1_000_000),
            );
        } else if missing >= abnormal {
            cx.out.log(
                Some(node),
                Level::Warn,
                "leader missing longer than abnormal_leader_missing_duration",
                format!(
                    "region_id={r} peer_slot={} missing_secs={}",
                    pid.slot(self.replicas),
                    missing / 1_000_000
                ),
            );
            self.book.leader_missing.insert(r);
        }
    }
}
