//! Log replication: proposals, appends, snapshots, heartbeats, commit and apply, leader
//! transfer.

use crate::cluster::Cluster;
use crate::ids::PeerId;
use crate::ids::NO_SLOT;
use crate::msg::Kind;
use crate::msg::RaftMsg;
use crate::out::Cx;
use crate::raft::state::Role;

/// Most entries sent in one append (raft-rs `max_inflight`/size limits, simplified).
const MAX_ENTRIES_PER_APPEND: u64 = 64;

impl Cluster {
    /// A write reached the leader: append one entry and replicate it.
    pub(crate) fn propose(&mut self, cx: &mut Cx, pid: PeerId) -> bool {
        if self.peers[pid.ix()].role != Role::Leader || self.peers[pid.ix()].transferee != NO_SLOT {
            return false;
        }
        self.wake_leader(pid);
        let me = pid.slot(self.replicas) as usize;
        let p = &mut self.peers[pid.ix()];
        let term = p.term;
        p.log.append(&mut self.tails[pid.ix()].runs, 1, term);
        p.matched[me] = p.log.last_index;
        let next = p.log.last_index + 1;
        self.set_next(pid, me as u8, next);
        self.book.writes_proposed += 1;
        self.book.proposed_per_sec.add(cx.now, 1);
        self.bcast_append(pid);
        self.maybe_commit(cx, pid);
        true
    }

    /// Sends what each follower is missing.
    pub(crate) fn bcast_append(&mut self, pid: PeerId) {
        let me = pid.slot(self.replicas);
        for s in 0..self.replicas as u8 {
            if s != me {
                self.send_append(pid, s);
            }
        }
    }

    /// Sets a leader's next index for slot `to`. Every write to a next index but the probe
    /// (`on_peer_unreachable`) goes through here, so `Cluster::probing` never claims a next
    /// index that moved.
    pub(crate) fn set_next(&mut self, pid: PeerId, to: u8, next: u64) {
        self.tails[pid.ix()].next[to as usize] = next;
        self.probing[pid.ix()] &= !(1 << to);
    }

    /// Sends one append (or a snapshot when the follower needs compacted entries). Empty
    /// appends carry the commit index.
    pub(crate) fn send_append(&mut self, pid: PeerId, to: u8) {
        let me = pid.slot(self.replicas);
        let r = pid.region(self.replicas).0;
        // Read-only until there is something to change: an empty append (a lagging follower's
        // heartbeat answer) leaves the tail's chunk shared with the playground's snapshots.
        let p = &self.peers[pid.ix()];
        let t = &self.tails[pid.ix()];
        let next = t.next[to as usize].max(1);
        let prev = next - 1;
        let Some(prev_term) = p.log.term_at(&t.runs, prev) else {
            // The follower needs entries we compacted: send a snapshot at our commit.
            let mut m = RaftMsg::new(r, me, to, Kind::Snapshot, p.term);
            m.index = p.log.commit;
            m.log_term = p
                .log
                .term_at(&t.runs, p.log.commit)
                .unwrap_or(p.log.snap_term);
            self.set_next(pid, to, m.index + 1);
            self.send(pid, to, m);
            return;
        };
        let mut m = RaftMsg::new(r, me, to, Kind::Append, p.term);
        m.index = prev;
        m.log_term = prev_term;
        m.commit = p.log.commit;
        if next <= p.log.last_index {
            let end = p
                .log
                .run_end(&t.runs, next)
                .min(next + MAX_ENTRIES_PER_APPEND - 1);
            m.entries = (end - next + 1) as u32;
            m.ent_term = p.log.term_at(&t.runs, next).unwrap_or(p.term);
            // Optimistic pipelining in Replicate state; a probe sends one append at a time
            // and waits for its answer (raft-rs `Progress::update_state` vs `pause`).
            if self.probing[pid.ix()] & (1 << to) == 0 {
                self.set_next(pid, to, end + 1);
            }
        }
        self.send(pid, to, m);
    }

    /// A follower handles an append from its leader (raft-rs `handle_append_entries`).
    pub(crate) fn handle_append(&mut self, cx: &mut Cx, pid: PeerId, m: &RaftMsg) {
        let me = pid.slot(self.replicas);
        let p = &self.peers[pid.ix()];
        let mut resp = RaftMsg::new(m.region, me, m.from, Kind::AppendResp, p.term);
        if m.index < p.log.commit {
            resp.index = p.log.commit;
            self.send(pid, m.from, resp);
            return;
        }
        let runs = &self.tails[pid.ix()].runs;
        if p.log.term_at(runs, m.index) != Some(m.log_term) {
            // raft-rs `handle_append_entries`: the rejected index and a hint of where the
            // follower's log ends (`reject_hint`, carried in `commit`).
            resp.flag = true;
            resp.index = m.index;
            resp.commit = m.index.min(p.log.last_index);
            self.send(pid, m.from, resp);
            return;
        }
        let last_new = m.index + m.entries as u64;
        if m.entries > 0 {
            let runs = &self.tails[pid.ix()].runs;
            if let Some(c) = p
                .log
                .first_conflict(runs, m.index + 1, last_new, m.ent_term)
            {
                let log = &mut self.peers[pid.ix()].log;
                let runs = &mut self.tails[pid.ix()].runs;
                if !log.truncate_after(runs, c - 1) {
                    self.inv.fail(format!(
                        "committed entry lost: region {} peer slot {me} asked to truncate at {c} below commit {}",
                        m.region, log.commit
                    ));
                }
                log.append(runs, last_new - log.last_index, m.ent_term);
            }
        }
        self.advance_commit(cx, pid, m.commit.min(last_new));
        resp.index = last_new;
        self.send(pid, m.from, resp);
    }

    /// A follower installs a snapshot (instantly: no data moves in the model).
    pub(crate) fn handle_snapshot(&mut self, cx: &mut Cx, pid: PeerId, m: &RaftMsg) {
        let me = pid.slot(self.replicas);
        let p = &mut self.peers[pid.ix()];
        if m.index > p.log.commit {
            let t = &mut self.tails[pid.ix()];
            p.log.restore(&mut t.runs, m.index, m.log_term);
            let p = &self.peers[pid.ix()];
            self.inv
                .on_commit(pid.region(self.replicas), &p.log, &t.runs, p.term);
            let _ = cx;
        }
        let p = &self.peers[pid.ix()];
        let mut resp = RaftMsg::new(m.region, me, m.from, Kind::AppendResp, p.term);
        resp.index = p.log.last_index;
        self.send(pid, m.from, resp);
    }

    /// A follower handles a heartbeat, echoing its read context (raft-rs
    /// `handle_heartbeat` copies `context` into `MsgHeartbeatResponse`).
    pub(crate) fn handle_heartbeat(&mut self, cx: &mut Cx, pid: PeerId, m: &RaftMsg) {
        let me = pid.slot(self.replicas);
        self.advance_commit(cx, pid, m.commit);
        let mut resp = RaftMsg::new(
            m.region,
            me,
            m.from,
            Kind::HeartbeatResp,
            self.peers[pid.ix()].term,
        );
        resp.index = m.index;
        self.send(pid, m.from, resp);
    }

    /// The leader handles an append answer.
    pub(crate) fn handle_append_response(&mut self, cx: &mut Cx, pid: PeerId, m: &RaftMsg) {
        let f = m.from as usize;
        let next = self.tails[pid.ix()].next[f];
        let p = &mut self.peers[pid.ix()];
        p.recent_active |= 1 << m.from;
        if m.flag {
            self.on_append_rejected(pid, m, next);
            return;
        }
        if m.index > p.matched[f] {
            p.matched[f] = m.index;
            self.probing[pid.ix()] &= !(1 << m.from);
        }
        if m.index + 1 > next {
            self.set_next(pid, m.from, m.index + 1);
        }
        let p = &self.peers[pid.ix()];
        let more = next.max(m.index + 1) <= p.log.last_index;
        let transfer_ready = p.transferee == m.from && p.matched[f] == p.log.last_index;
        if self.maybe_commit(cx, pid) {
            self.bcast_append(pid);
        } else if more {
            self.send_append(pid, m.from);
        }
        if transfer_ready {
            self.send_timeout_now(pid, m.from);
        }
    }

    /// raft-rs `Progress::maybe_decr_to`, then `become_probe` and one append: a rejection of
    /// an append older than the probe in flight (Probe: it does not answer the append at
    /// `next - 1`) or of an index already matched (Replicate) is stale and changes nothing.
    /// Answering stale rejections too multiplied the appends in flight without bound once
    /// delivery got faster than a heartbeat.
    fn on_append_rejected(&mut self, pid: PeerId, m: &RaftMsg, next: u64) {
        let f = m.from as usize;
        let rejected = m.index;
        let hint = m.commit;
        let matched = self.peers[pid.ix()].matched[f];
        let probing = self.probing[pid.ix()] & (1 << m.from) != 0;
        let stale = if probing {
            next == 0 || next - 1 != rejected
        } else {
            rejected <= matched
        };
        if stale {
            return;
        }
        let to = if probing {
            rejected.min(hint + 1)
        } else {
            matched + 1
        };
        self.set_next(pid, m.from, to.max(1));
        self.probing[pid.ix()] |= 1 << m.from;
        self.send_append(pid, m.from);
    }

    /// The leader handles a heartbeat answer: catch the follower up if it lags, and count it
    /// for the read whose context it echoes.
    pub(crate) fn handle_heartbeat_response(&mut self, pid: PeerId, m: &RaftMsg) {
        let p = &mut self.peers[pid.ix()];
        p.recent_active |= 1 << m.from;
        if p.matched[m.from as usize] < p.log.last_index {
            self.send_append(pid, m.from);
        }
        self.read_acked(pid, m);
    }

    /// Commits what a quorum has, but only entries of the leader's own term (Raft §5.4.2).
    pub(crate) fn maybe_commit(&mut self, cx: &mut Cx, pid: PeerId) -> bool {
        let n = self.replicas as usize;
        let p = &self.peers[pid.ix()];
        let mut m = [0u64; crate::raft::state::MAX_REPLICAS];
        m[..n].copy_from_slice(&p.matched[..n]);
        m[..n].sort_unstable();
        let quorum_index = m[n - self.quorum() as usize];
        let runs = &self.tails[pid.ix()].runs;
        if quorum_index > p.log.commit && p.log.term_at(runs, quorum_index) == Some(p.term) {
            self.advance_commit(cx, pid, quorum_index);
            return true;
        }
        false
    }

    /// Raises a peer's commit index; applying is immediate in the model, so tracked client
    /// operations resolve here. Counts applied entries on leaders (entries include each
    /// term's empty entry).
    pub(crate) fn advance_commit(&mut self, cx: &mut Cx, pid: PeerId, c: u64) {
        let p = &mut self.peers[pid.ix()];
        let before = p.log.commit;
        let n = p.log.commit_to(c);
        if n == 0 {
            // Most heartbeats end here: nothing else is read, so a follower's heartbeat stays
            // on the peer's hot lines (the runs `term_at` reads lie beyond them).
            return;
        }
        // Committing does not change the runs, so this is the old commit index's term.
        let runs = &self.tails[pid.ix()].runs;
        let before_term = p.log.term_at(runs, before);
        if p.role == Role::Leader {
            self.book.writes_applied += n;
            self.book.applied_per_sec.add(cx.now, n);
            p.lease_until = cx.now.0 + self.cfg.raft.leader_lease.0;
        }
        let p = &self.peers[pid.ix()];
        self.inv
            .on_commit(pid.region(self.replicas), &p.log, runs, p.term);
        let after = p.log.commit;
        let leads = p.role == Role::Leader;
        self.ops_committed(pid, before, after);
        if leads {
            self.reads_on_commit(pid, before_term);
        }
    }

    /// Leader transfer (raft-rs `MsgTransferLeader`): wait until the target is caught up,
    /// then tell it to campaign at once.
    pub(crate) fn transfer_leader(&mut self, pid: PeerId, to: u8) {
        let me = pid.slot(self.replicas);
        if to == me || self.peers[pid.ix()].role != Role::Leader {
            return;
        }
        self.wake_leader(pid);
        let p = &mut self.peers[pid.ix()];
        p.transferee = to;
        p.election_elapsed = 0;
        if p.matched[to as usize] == p.log.last_index {
            self.send_timeout_now(pid, to);
        } else {
            self.send_append(pid, to);
        }
    }

    fn send_timeout_now(&mut self, pid: PeerId, to: u8) {
        let me = pid.slot(self.replicas);
        let r = pid.region(self.replicas).0;
        let m = RaftMsg::new(r, me, to, Kind::TimeoutNow, self.peers[pid.ix()].term);
        self.send(pid, to, m);
    }
}
