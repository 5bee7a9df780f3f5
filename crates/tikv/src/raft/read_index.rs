//! ReadIndex requests of the layer above (TiCDC's endpoint registering a region), confirmed
//! the way raft-rs `ReadOnlyOption::Safe` confirms them.
//!
//! Upstream, TiKV 7.1 `components/raftstore/src/store/fsm/peer.rs`,
//! `PeerFsmDelegate::on_capture_change`, turns a CDC registration into a ReadIndex command
//! (`new_read_index_request`) sent through `propose_raft_command_internal`; the incremental
//! scan (`ApplyTask::Change`) is scheduled only in the read's callback. What the model keeps:
//! - **On the leader** the read wakes the region (`Peer::read_index` sets `should_wake_up`,
//!   and `propose_raft_command_internal` then calls `reset_raft_tick(GroupState::Ordered)`).
//!   raft-rs `Raft::step_leader` (`MsgReadIndex`, ReadOnlySafe) records the read under a
//!   fresh context and broadcasts heartbeats carrying it (`bcast_heartbeat_with_ctx`); later
//!   heartbeats carry the newest pending context (`bcast_heartbeat`,
//!   `ReadOnly::last_pending_request_ctx`), so a lost heartbeat is made good by the next one.
//!   Followers echo the context in `MsgHeartbeatResponse`; the read is ready once a quorum,
//!   the leader counting itself, answered it (`ReadOnly::recv_ack`), and `ReadOnly::advance`
//!   releases every older read with it. A new leader that has not yet committed an entry of
//!   its term holds the read until it has (`Raft::commit_to_current_term`,
//!   `pending_read_index_messages`). A single-replica region is ready at once.
//! - **A leader with pending reads does not hibernate** (TiKV 7.1 `Peer::check_before_tick`,
//!   reason "pending read").
//! - **A leader that steps down** answers its pending reads with an error: TiKV
//!   `Peer::apply_reads` -> `ReadIndexQueue::clear_uncommitted_on_role_change` notifies
//!   `StaleCommand` ([`OpOutcome::ReadStale`]). A killed store answers nothing: its callbacks
//!   die with the process.
//! - **Not on the leader** the model refuses at once with `NotLeader` and the local peer's
//!   leader hint, waking the follower as a write does (`Cluster::propose_op`).
//!   Simplified: 7.1 lets a ReadIndex through `pre_propose_raft_command` on a follower
//!   (`is_read_index_request`); `Peer::read_index` answers `NotLeader` without a hint at once
//!   only when no leader is known, otherwise forwards `MsgReadIndex` to the leader and answers
//!   `StaleCommand` when the index comes back (`Peer::response_read`, a non-replica-read
//!   command), keeping the follower awake while it waits.
//!
//! Not modelled: amending a read onto a recent one inside the lease (`can_amend_read`: every
//! read here gets its own context, which a quorum confirms as fast), and waiting for the
//! apply of the read index (the model applies at commit).
//!
//! Reads are kept per leader peer, so the cost follows the reads asked for: a step-down looks
//! up one peer, a heartbeat answer only when it carries a context.

use crate::cluster::Cluster;
use crate::ids::PeerId;
use crate::ids::NO_SLOT;
use crate::msg::Kind;
use crate::msg::RaftMsg;
use crate::out::Cx;
use crate::raft::state::OpOutcome;
use crate::raft::state::PendingRead;

impl Cluster {
    /// The layer above (the CDC endpoint on `store`) asks a ReadIndex of `region`'s local peer;
    /// `op` (non-zero) comes back in an [`crate::OpEvent`] with [`OpOutcome::ReadReady`] once
    /// confirmed, or with [`OpOutcome::ReadNotLeader`] / [`OpOutcome::ReadStale`]. Sends the
    /// messages it causes at once, as the end of an event does.
    pub(crate) fn handle_read_index(&mut self, cx: &mut Cx, store: u32, region: u32, op: u64) {
        self.now = cx.now.0;
        if region < self.region_count() && (store as usize) < self.stores.len() {
            self.read_index_on(store as usize, region, op);
            self.flush(cx);
        } else {
            self.op_event(
                op,
                region,
                store as usize,
                OpOutcome::ReadNotLeader { leader: None },
            );
        }
    }

    fn read_index_on(&mut self, s: usize, region: u32, op: u64) {
        let Some(pid) = self.local_peer(s, region) else {
            // The replica moved away (TiKV answers RegionNotFound).
            self.op_event(op, region, s, OpOutcome::ReadNotLeader { leader: None });
            return;
        };
        if !self.peers[pid.ix()].is_leader() {
            self.wake_on_request(pid);
            let leader = self.leader_hint(pid);
            self.op_event(op, region, s, OpOutcome::ReadNotLeader { leader });
            return;
        }
        self.wake_leader(pid);
        self.reads.last_ctx += 1;
        let me = pid.slot(self.replicas);
        let read = PendingRead {
            op,
            ctx: self.reads.last_ctx,
            acks: 1 << me,
        };
        self.reads.by_leader.entry(pid.0).or_default().push(read);
        if self.committed_in_term(pid) {
            self.bcast_read(pid);
        }
    }

    /// The store the peer believes leads, if it knows one other than itself.
    pub(crate) fn leader_hint(&self, pid: PeerId) -> Option<u32> {
        let leader = self.peers[pid.ix()].leader;
        let region = pid.region(self.replicas);
        (leader != NO_SLOT && leader != pid.slot(self.replicas))
            .then(|| self.slot_store[PeerId::of(region, leader, self.replicas).ix()] as u32)
    }

    /// raft-rs `commit_to_current_term`: the leader committed an entry of its own term.
    fn committed_in_term(&self, pid: PeerId) -> bool {
        let p = &self.peers[pid.ix()];
        p.log.term_at(&self.tails[pid.ix()].runs, p.log.commit) == Some(p.term)
    }

    /// Heartbeats carrying the newest pending context; a single-replica region is its own
    /// quorum.
    fn bcast_read(&mut self, pid: PeerId) {
        if self.quorum() <= 1 {
            let n = self.reads.by_leader.get(&pid.0).map_or(0, Vec::len);
            self.reads_ready(pid, n);
        } else {
            self.ping(pid);
        }
    }

    /// The context a heartbeat from `pid` carries: its newest pending read's, once it may
    /// serve reads; 0 for none.
    pub(crate) fn read_ctx(&self, pid: PeerId) -> u64 {
        if self.reads.by_leader.is_empty() || !self.committed_in_term(pid) {
            return 0;
        }
        self.reads
            .by_leader
            .get(&pid.0)
            .and_then(|v| v.last())
            .map_or(0, |r| r.ctx)
    }

    /// True if the leader `pid` waits for reads (it must not hibernate).
    pub(crate) fn has_pending_reads(&self, pid: PeerId) -> bool {
        !self.reads.by_leader.is_empty() && self.reads.by_leader.contains_key(&pid.0)
    }

    /// The leader's commit index moved from `from` (term `from_term`): the first commit of its
    /// own term releases the reads it held (raft-rs `release_pending_read_index_message`).
    pub(crate) fn reads_on_commit(&mut self, pid: PeerId, from_term: Option<u64>) {
        if self.has_pending_reads(pid)
            && from_term != Some(self.peers[pid.ix()].term)
            && self.committed_in_term(pid)
        {
            self.bcast_read(pid);
        }
    }

    /// A heartbeat answer of the leader's current term (`step` dropped other terms) echoed
    /// context `m.index` (raft-rs `ReadOnly::recv_ack`, then `advance`).
    pub(crate) fn read_acked(&mut self, pid: PeerId, m: &RaftMsg) {
        if m.index == 0 || m.kind != Kind::HeartbeatResp {
            return;
        }
        let quorum = self.quorum();
        let Some(reads) = self.reads.by_leader.get_mut(&pid.0) else {
            return;
        };
        let Some(i) = reads.iter().position(|r| r.ctx == m.index) else {
            return;
        };
        reads[i].acks |= 1 << m.from;
        if reads[i].acks.count_ones() >= quorum {
            self.reads_ready(pid, i + 1);
        }
    }

    /// The `n` oldest reads of `pid` are confirmed.
    fn reads_ready(&mut self, pid: PeerId, n: usize) {
        let Some(reads) = self.reads.by_leader.get_mut(&pid.0) else {
            return;
        };
        let done: Vec<PendingRead> = reads.drain(..n).collect();
        if reads.is_empty() {
            self.reads.by_leader.remove(&pid.0);
        }
        let r = pid.region(self.replicas).0;
        let s = self.slot_store[pid.ix()] as usize;
        for read in done {
            self.op_event(read.op, r, s, OpOutcome::ReadReady);
        }
    }

    /// The leader `pid` stepped down: its pending reads are answered `StaleCommand`.
    pub(crate) fn reads_lost(&mut self, pid: PeerId) {
        if self.reads.by_leader.is_empty() {
            return;
        }
        let Some(reads) = self.reads.by_leader.remove(&pid.0) else {
            return;
        };
        let r = pid.region(self.replicas).0;
        let s = self.slot_store[pid.ix()] as usize;
        for read in reads {
            self.op_event(read.op, r, s, OpOutcome::ReadStale);
        }
    }

    /// The leader's store was killed: its reads vanish with their callbacks.
    pub(crate) fn reads_dropped(&mut self, pid: PeerId) {
        if !self.reads.by_leader.is_empty() {
            self.reads.by_leader.remove(&pid.0);
        }
    }
}
