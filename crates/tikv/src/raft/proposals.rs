//! Client proposals that carry an operation of the layer above (a Percolator prewrite, commit
//! or rollback), tracked through a log that has no payloads.
//!
//! The log stores only terms, so the Cluster keeps, per region, which operation sits at which
//! `(index, term)`. Two things happen to a tracked entry, after TiKV's apply path:
//! - **Applied.** The first peer whose commit index passes the entry with the same term at
//!   that index applies it (Raft's Log Matching: the same `(index, term)` is the same entry on
//!   every peer), and the layer above changes its state there. The leader always commits first,
//!   so this is the leader's apply, where TiKV's CDC observer sees the change
//!   (`components/raftstore/src/store/fsm/apply.rs`, `ApplyDelegate::handle_raft_committed_entries`).
//! - **Answered.** The proposing peer answers its client when its own applied index passes the
//!   entry: success if the term matches, `StaleCommand` if a newer leader overwrote the entry
//!   (`apply.rs`, `ApplyDelegate::find_pending` and `notify_stale_command`). A deposed leader
//!   cut from its followers therefore answers nothing until it hears the new leader's log; its
//!   client times out first.
//!
//! Only entries of proposals with an operation are tracked, so the cost follows the regions
//! that have writes.

use crate::cluster::Cluster;
use crate::ids::PeerId;
use crate::out::Cx;
use crate::raft::state::OpEvent;
use crate::raft::state::OpOutcome;
use crate::raft::state::Pending;

impl Cluster {
    /// A client proposal reached store `s`: append it if the local peer leads, else answer
    /// `NotLeader` (TiKV `PeerFsmDelegate::propose_raft_command` -> `pre_propose_raft_command`),
    /// or `EpochNotMatch` if `version` (when not 0) is not the region's.
    /// `op` 0 is an untracked write (the TiKV-only load).
    pub(crate) fn propose_op(
        &mut self,
        cx: &mut Cx,
        s: usize,
        (region, version): (u32, u64),
        op: u64,
    ) {
        let Some(pid) = self.local_peer(s, region) else {
            // The replica moved away (TiKV answers RegionNotFound; the client treats it as a
            // region miss, as it treats a NotLeader without a hint). A merged region is gone
            // from every store: its keys are another region's now.
            let outcome = if self.merge.is_gone(region) {
                OpOutcome::RegionNotFound
            } else {
                OpOutcome::NotLeader { leader: None }
            };
            self.op_event(op, region, s, outcome);
            return;
        };
        if self.peers[pid.ix()].is_leader() && self.epoch_stale(region, version) {
            self.op_event(op, region, s, OpOutcome::EpochNotMatch);
            return;
        }
        // TiKV `Peer::propose_normal`: a Merging source takes nothing but its own merge's
        // commands (`ProposalInMergingMode`).
        if self.peers[pid.ix()].is_leader()
            && self.merge.is_merging(region)
            && !self.merge.cmds.contains_key(&op)
        {
            self.op_event(op, region, s, OpOutcome::MergingMode);
            return;
        }
        if !self.propose(cx, pid) {
            self.book.writes_dropped += 1;
            self.wake_on_request(pid);
            let hint = self.leader_hint(pid);
            self.op_event(op, region, s, OpOutcome::NotLeader { leader: hint });
            return;
        }
        if op & crate::region::state::ADMIN_OP == 0 {
            self.grow_region(cx, pid);
        }
        if op != 0 {
            let p = &self.peers[pid.ix()];
            let pending = Pending {
                term: p.term,
                op,
                version,
                epoch_stale: false,
                proposer: pid,
                orphaned: false,
                applied: false,
            };
            self.proposals
                .pending
                .insert((region, p.log.last_index), pending);
        }
        // `propose` may have committed at once (a one-replica region).
        self.ops_committed(pid, 0, self.peers[pid.ix()].log.commit);
    }

    /// A write the layer above issues on `store` itself (TiKV's transaction scheduler on
    /// that store, e.g. a `ResolveLock` a lock resolver asked for): proposed to the local
    /// peer at once, as [`Cluster::read_index`] does for a read, with its outcome coming back
    /// as for a client's proposal. Sends the messages it causes at once, as the end of an
    /// event does.
    pub(crate) fn handle_propose_local(&mut self, cx: &mut Cx, store: u32, region: u32, op: u64) {
        self.now = cx.now.0;
        if region < self.region_count() && (store as usize) < self.stores.len() {
            self.propose_op(cx, store as usize, (region, 0), op);
            self.flush(cx);
        } else {
            let refused = OpOutcome::NotLeader { leader: None };
            self.op_event(op, region, store as usize, refused);
        }
    }

    /// True when a request routed with epoch `version` no longer matches `region`'s (0 is
    /// never checked).
    fn epoch_stale(&self, region: u32, version: u64) -> bool {
        version != 0 && version != self.epochs[region as usize].version
    }

    /// A request that reached a follower wakes it: TiKV 7.1 `fsm/peer.rs`
    /// `PeerFsmDelegate::pre_propose_raft_command` answers `NotLeader` after
    /// `reset_hibernate_state(GroupState::Chaos)` and `register_raft_base_tick`, so a follower
    /// whose leader died campaigns once clients knock. Missing ticks are kept, as for every
    /// `reset_hibernate_state` wake-up.
    pub(crate) fn wake_on_request(&mut self, pid: PeerId) {
        if self.peers[pid.ix()].is_leader() || !self.cfg.hibernate.enabled {
            return;
        }
        self.book.follower_wakeups += 1;
        self.set_group(pid, crate::store::state::GroupState::Chaos);
        self.register_tick(pid);
    }

    pub(crate) fn op_event(&mut self, op: u64, region: u32, s: usize, outcome: OpOutcome) {
        if op & crate::region::state::ADMIN_OP != 0 {
            self.admin_outcome(op, region, s, outcome);
        } else if op != 0 {
            self.push_op_event(op, region, s, outcome);
        }
    }

    /// Queues an outcome for the layer above.
    pub(crate) fn push_op_event(&mut self, op: u64, region: u32, s: usize, outcome: OpOutcome) {
        let store = s as u32;
        let ev = OpEvent {
            op,
            region,
            store,
            outcome,
        };
        self.proposals.events.push(ev);
    }

    /// Peer `pid`'s commit (and, in the model, its applied index) moved from `from` to `to`.
    pub(crate) fn ops_committed(&mut self, pid: PeerId, from: u64, to: u64) {
        if self.proposals.pending.is_empty() || to <= from {
            return;
        }
        let r = pid.region(self.replicas).0;
        let s = self.slot_store[pid.ix()] as usize;
        let keys: Vec<(u32, u64)> = self
            .proposals
            .pending
            .range((r, from + 1)..=(r, to))
            .map(|(key, _)| *key)
            .collect();
        for key in keys {
            let runs = &self.tails[pid.ix()].runs;
            let term_here = self.peers[pid.ix()].log.term_at(runs, key.1);
            let e = self.proposals.pending[&key];
            let matches = term_here == Some(e.term);
            let mut e = e;
            if matches && !e.applied {
                // An entry proposed while a split was on its way applies after it: its
                // epoch is stale now (TiKV holds such proposals back, `CmdEpochChecker`, and
                // fails them with EpochNotMatch when the split applies; the outcome is the same).
                e.epoch_stale = self.epoch_stale(r, e.version);
                if !e.epoch_stale {
                    self.op_event(e.op, r, s, OpOutcome::Applied);
                }
                e.applied = true;
                self.proposals.pending.insert(key, e);
            }
            if e.proposer == pid && !e.orphaned {
                let outcome = match (matches, e.epoch_stale) {
                    (true, false) => OpOutcome::Done,
                    (true, true) => OpOutcome::EpochNotMatch,
                    (false, _) => OpOutcome::Stale,
                };
                self.op_event(e.op, r, s, outcome);
                self.proposals.pending.remove(&key);
            } else if e.orphaned {
                // A committed index holds one entry everywhere: applied now or never, and
                // nobody waits for an answer.
                self.proposals.pending.remove(&key);
            }
        }
    }

    /// Store `s` restarted: its proposals lose their callbacks (the client sees its connection
    /// reset and retries), but their entries may still be committed by a new leader.
    pub(crate) fn orphan_proposals(&mut self, s: usize) {
        let slot_store = &self.slot_store;
        for e in self.proposals.pending.values_mut() {
            if slot_store[e.proposer.ix()] as usize == s {
                e.orphaned = true;
            }
        }
    }

    /// `region`'s peers were destroyed (it merged away): every proposal still waiting there is
    /// answered `RegionNotFound` by its proposer, as TiKV's destroyed peer fails its pending
    /// callbacks (`Peer::destroy` -> `notify_region_removed`).
    pub(crate) fn fail_region_proposals(&mut self, region: u32) {
        let keys: Vec<(u32, u64)> = (self.proposals.pending)
            .range((region, 0)..=(region, u64::MAX))
            .map(|(key, _)| *key)
            .collect();
        for key in keys {
            let e = self.proposals.pending.remove(&key).expect("listed");
            if !e.orphaned {
                let s = self.slot_store[e.proposer.ix()] as usize;
                self.op_event(e.op, region, s, OpOutcome::RegionNotFound);
            }
        }
    }

    /// Takes the outcomes produced since the last call, in the order they happened.
    pub fn take_op_events(&mut self) -> Vec<OpEvent> {
        std::mem::take(&mut self.proposals.events)
    }

    /// True when outcomes wait to be taken.
    pub fn has_op_events(&self) -> bool {
        !self.proposals.events.is_empty()
    }
}
