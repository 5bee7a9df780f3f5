//! Elections: the election clock, pre-vote, votes, check-quorum, becoming leader or follower.

use faultline_sim::Level;

use crate::cluster::Cluster;
use crate::ids::PeerId;
use crate::ids::NO_SLOT;
use crate::msg::Kind;
use crate::msg::RaftMsg;
use crate::out::Cx;
use crate::raft::state::Role;
use crate::store::state::LeaderState;

impl Cluster {
    /// Votes needed to win (majority of the region's replicas).
    pub(crate) fn quorum(&self) -> u32 {
        self.replicas / 2 + 1
    }

    /// A fresh election timeout in `[election_ticks, 2 * election_ticks)`, drawn from the
    /// peer's store stream so runs are reproducible.
    pub(crate) fn reset_election_clock(&mut self, pid: PeerId) {
        let e = self.cfg.raft.election_ticks as u64;
        let s = self.slot_store[pid.ix()] as usize;
        let t = self.stores[s].rng.range(e, 2 * e) as u16;
        let p = &mut self.peers[pid.ix()];
        p.election_elapsed = 0;
        p.heartbeat_elapsed = 0;
        p.randomized_timeout = t;
    }

    /// One Raft tick (raft-rs `tick_election` / `tick_heartbeat`).
    pub(crate) fn raft_tick(&mut self, cx: &mut Cx, pid: PeerId) {
        if self.peers[pid.ix()].role == Role::Leader {
            self.tick_heartbeat(cx, pid);
        } else {
            let p = &mut self.peers[pid.ix()];
            p.election_elapsed = p.election_elapsed.saturating_add(1);
            if p.election_elapsed >= p.randomized_timeout {
                p.election_elapsed = 0;
                let pre = self.cfg.raft.prevote;
                self.campaign(cx, pid, pre);
            }
        }
    }

    fn tick_heartbeat(&mut self, cx: &mut Cx, pid: PeerId) {
        let me = pid.slot(self.replicas);
        let quorum = self.quorum();
        let p = &mut self.peers[pid.ix()];
        p.heartbeat_elapsed += 1;
        p.election_elapsed = p.election_elapsed.saturating_add(1);
        if p.election_elapsed as u32 >= self.cfg.raft.election_ticks {
            p.election_elapsed = 0;
            p.transferee = NO_SLOT;
            if self.cfg.raft.check_quorum {
                let active = (p.recent_active | 1 << me).count_ones();
                p.recent_active = 0;
                if active < quorum {
                    let term = p.term;
                    let node = self.node_of(pid);
                    cx.out.log(
                        Some(node),
                        Level::Warn,
                        "stepped down to follower since quorum is not active",
                        format!("region_id={} term={term}", pid.region(self.replicas).0),
                    );
                    self.become_follower(pid, term, NO_SLOT);
                    return;
                }
                let lease = self.cfg.raft.leader_lease.0;
                self.peers[pid.ix()].lease_until = cx.now.0 + lease;
            }
        }
        let p = &mut self.peers[pid.ix()];
        if p.heartbeat_elapsed as u32 >= self.cfg.raft.heartbeat_ticks {
            p.heartbeat_elapsed = 0;
            self.ping(pid);
        }
    }

    /// Heartbeats to every follower (raft-rs `bcast_heartbeat`, TiKV `Peer::ping`), carrying
    /// the newest pending read's context in `index` (raft-rs puts it in `context`).
    pub(crate) fn ping(&mut self, pid: PeerId) {
        let me = pid.slot(self.replicas);
        let r = pid.region(self.replicas).0;
        let ctx = self.read_ctx(pid);
        for s in 0..self.replicas as u8 {
            if s == me {
                continue;
            }
            let p = &self.peers[pid.ix()];
            let mut m = RaftMsg::new(r, me, s, Kind::Heartbeat, p.term);
            m.commit = p.log.commit.min(p.matched[s as usize]);
            m.index = ctx;
            self.send(pid, s, m);
        }
    }

    /// Starts a pre-vote (`pre`) or a real election (raft-rs `campaign`). `force` skips the
    /// receivers' lease check (leader transfer).
    pub(crate) fn campaign_with(&mut self, cx: &mut Cx, pid: PeerId, pre: bool, force: bool) {
        let me = pid.slot(self.replicas);
        let r = pid.region(self.replicas).0;
        self.book.elections_started += 1;
        let was_leader = self.peers[pid.ix()].role == Role::Leader;
        if was_leader {
            self.leader_lost(pid);
        }
        self.reset_election_clock(pid);
        let p = &mut self.peers[pid.ix()];
        let campaign_term = if pre {
            p.role = Role::PreCandidate;
            p.term + 1
        } else {
            p.role = Role::Candidate;
            p.term += 1;
            p.vote = me;
            p.term
        };
        p.leader = NO_SLOT;
        p.granted = 1 << me;
        p.rejected = 0;
        let (li, lt) = (p.log.last_index, p.log.last_term());
        let node = self.node_of(pid);
        cx.out.log(
            Some(node),
            Level::Info,
            "starting a new election",
            format!("region_id={r} term={campaign_term} pre_vote={pre}"),
        );
        if self.quorum() <= 1 {
            self.on_campaign_won(cx, pid, pre);
            return;
        }
        let kind = if pre { Kind::PreVote } else { Kind::Vote };
        for s in 0..self.replicas as u8 {
            if s == me {
                continue;
            }
            let mut m = RaftMsg::new(r, me, s, kind, campaign_term);
            m.index = li;
            m.log_term = lt;
            m.flag = force;
            self.send(pid, s, m);
        }
    }

    /// Campaign after an election timeout.
    pub(crate) fn campaign(&mut self, cx: &mut Cx, pid: PeerId, pre: bool) {
        self.campaign_with(cx, pid, pre, false);
    }

    fn on_campaign_won(&mut self, cx: &mut Cx, pid: PeerId, pre: bool) {
        if pre {
            self.campaign_with(cx, pid, false, false);
        } else {
            self.become_leader(cx, pid);
        }
    }

    /// Handles a (pre-)vote request whose term is not stale (raft-rs `step`, vote branch).
    pub(crate) fn handle_vote_request(&mut self, pid: PeerId, m: &RaftMsg) {
        let me = pid.slot(self.replicas);
        let p = &self.peers[pid.ix()];
        let pre = m.kind == Kind::PreVote;
        let can_vote = p.vote == m.from
            || (p.vote == NO_SLOT && p.leader == NO_SLOT)
            || (pre && m.term > p.term);
        let grant = can_vote && p.log.is_up_to_date(m.index, m.log_term);
        let kind = if pre {
            Kind::PreVoteResp
        } else {
            Kind::VoteResp
        };
        let mut resp = RaftMsg::new(
            m.region,
            me,
            m.from,
            kind,
            if grant { m.term } else { p.term },
        );
        resp.flag = !grant;
        if grant && !pre {
            let p = &mut self.peers[pid.ix()];
            p.election_elapsed = 0;
            p.vote = m.from;
        }
        self.send(pid, m.from, resp);
    }

    /// Tallies a (pre-)vote answer for the current campaign.
    pub(crate) fn handle_vote_response(&mut self, cx: &mut Cx, pid: PeerId, m: &RaftMsg) {
        let p = &mut self.peers[pid.ix()];
        let (want_role, pre) = match m.kind {
            Kind::PreVoteResp => (Role::PreCandidate, true),
            _ => (Role::Candidate, false),
        };
        if p.role != want_role {
            return;
        }
        if m.flag {
            p.rejected |= 1 << m.from;
        } else {
            p.granted |= 1 << m.from;
        }
        let (g, rj, term) = (p.granted.count_ones(), p.rejected.count_ones(), p.term);
        if g >= self.quorum() {
            self.on_campaign_won(cx, pid, pre);
        } else if rj >= self.quorum() {
            self.become_follower(pid, term, NO_SLOT);
        }
    }

    /// raft-rs `become_follower`: a new term forgets the vote.
    pub(crate) fn become_follower(&mut self, pid: PeerId, term: u64, leader: u8) {
        if self.peers[pid.ix()].role == Role::Leader {
            self.leader_lost(pid);
        }
        self.reset_election_clock(pid);
        let p = &mut self.peers[pid.ix()];
        if term != p.term {
            p.term = term;
            p.vote = NO_SLOT;
        }
        p.role = Role::Follower;
        p.leader = leader;
        p.transferee = NO_SLOT;
        if leader != NO_SLOT {
            p.leader_missing_since = u64::MAX;
        }
    }

    /// raft-rs `become_leader`: reset progress and append an empty entry of the new term.
    pub(crate) fn become_leader(&mut self, cx: &mut Cx, pid: PeerId) {
        let me = pid.slot(self.replicas);
        let r = pid.region(self.replicas);
        self.reset_election_clock(pid);
        let now = cx.now.0;
        let lease = self.cfg.raft.leader_lease.0;
        let p = &mut self.peers[pid.ix()];
        p.role = Role::Leader;
        p.leader = me;
        p.transferee = NO_SLOT;
        p.recent_active = 0;
        p.leader_state = LeaderState::Awaken;
        p.leader_missing_since = u64::MAX;
        p.lease_until = now + lease;
        self.probing[pid.ix()] = 0;
        let p = &mut self.peers[pid.ix()];
        let t = &mut self.tails[pid.ix()];
        let term = p.term;
        p.log.append(&mut t.runs, 1, term);
        let last = p.log.last_index;
        for s in 0..self.replicas as usize {
            p.matched[s] = 0;
            t.next[s] = last;
        }
        p.matched[me as usize] = last;
        t.next[me as usize] = last + 1;
        self.leader_gained(cx, pid);
        // TiKV reports a new leader to PD at once (`on_role_changed` -> `heartbeat_pd`).
        let s = self.slot_store[pid.ix()] as usize;
        self.stores[s].region_hb.push((r.0, term));
        self.watch(pid, crate::observe::state::WatchWhat::BecameLeader { term });
        let node = self.node_of(pid);
        cx.out.log(
            Some(node),
            Level::Info,
            "became leader",
            format!("region_id={} term={term}", r.0),
        );
        self.bcast_append(pid);
        self.maybe_commit(cx, pid);
    }
}
