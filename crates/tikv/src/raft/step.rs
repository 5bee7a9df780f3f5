//! `step`: one Raft message into one peer (raft-rs `Raft::step`), term rules first, then by
//! role.

use crate::cluster::Cluster;
use crate::ids::PeerId;
use crate::ids::NO_SLOT;
use crate::msg::Kind;
use crate::msg::RaftMsg;
use crate::out::Cx;
use crate::raft::state::Role;

impl Cluster {
    /// Feeds one message to a peer.
    pub(crate) fn step(&mut self, cx: &mut Cx, pid: PeerId, m: &RaftMsg) {
        let me = pid.slot(self.replicas);
        let p = &self.peers[pid.ix()];
        if m.term > p.term {
            let vote_like = matches!(m.kind, Kind::PreVote | Kind::Vote);
            if vote_like && !m.flag && self.cfg.raft.check_quorum && self.in_lease(pid) {
                // A peer that hears from a live leader ignores disruptive campaigns.
                return;
            }
            let keeps_term = m.kind == Kind::PreVote || (m.kind == Kind::PreVoteResp && !m.flag);
            if !keeps_term {
                let leader = match m.kind {
                    Kind::Append | Kind::Heartbeat | Kind::Snapshot => m.from,
                    _ => NO_SLOT,
                };
                self.become_follower(pid, m.term, leader);
            }
        } else if m.term < p.term {
            match m.kind {
                // Tell a stale leader about the newer term so it steps down (raft-rs does this
                // with check-quorum or pre-vote on).
                Kind::Append | Kind::Heartbeat => {
                    let resp = RaftMsg::new(m.region, me, m.from, Kind::AppendResp, p.term);
                    self.send(pid, m.from, resp);
                }
                Kind::PreVote => {
                    let mut resp = RaftMsg::new(m.region, me, m.from, Kind::PreVoteResp, p.term);
                    resp.flag = true;
                    self.send(pid, m.from, resp);
                }
                _ => {}
            }
            return;
        }
        match m.kind {
            Kind::PreVote | Kind::Vote => self.handle_vote_request(pid, m),
            Kind::HibernateRequest => self.on_hibernate_request(pid, m),
            Kind::HibernateResponse => self.on_hibernate_response(pid, m),
            _ => match self.peers[pid.ix()].role {
                Role::Leader => self.step_leader(cx, pid, m),
                Role::Follower => self.step_follower(cx, pid, m),
                Role::PreCandidate | Role::Candidate => self.step_candidate(cx, pid, m),
            },
        }
    }

    /// raft-rs `in_lease`: a follower that heard from its leader within the election timeout,
    /// or a leader, refuses to help a campaign.
    fn in_lease(&self, pid: PeerId) -> bool {
        let p = &self.peers[pid.ix()];
        p.leader != NO_SLOT
            && (p.role == Role::Leader
                || (p.election_elapsed as u32) < self.cfg.raft.election_ticks)
    }

    fn step_leader(&mut self, cx: &mut Cx, pid: PeerId, m: &RaftMsg) {
        match m.kind {
            Kind::AppendResp => self.handle_append_response(cx, pid, m),
            Kind::HeartbeatResp => self.handle_heartbeat_response(pid, m),
            _ => {}
        }
    }

    fn step_follower(&mut self, cx: &mut Cx, pid: PeerId, m: &RaftMsg) {
        match m.kind {
            Kind::Append | Kind::Heartbeat | Kind::Snapshot => {
                let p = &mut self.peers[pid.ix()];
                p.election_elapsed = 0;
                p.leader = m.from;
                p.leader_missing_since = u64::MAX;
                match m.kind {
                    Kind::Append => self.handle_append(cx, pid, m),
                    Kind::Heartbeat => self.handle_heartbeat(cx, pid, m),
                    _ => self.handle_snapshot(cx, pid, m),
                }
            }
            Kind::TimeoutNow => self.campaign_with(cx, pid, false, true),
            _ => {}
        }
    }

    fn step_candidate(&mut self, cx: &mut Cx, pid: PeerId, m: &RaftMsg) {
        match m.kind {
            Kind::Append | Kind::Heartbeat | Kind::Snapshot => {
                let term = m.term;
                self.become_follower(pid, term, m.from);
                self.step_follower(cx, pid, m);
            }
            Kind::PreVoteResp | Kind::VoteResp => self.handle_vote_response(cx, pid, m),
            _ => {}
        }
    }
}
