//! Regions merging, as `pd-ctl operator add merge-region <source> <target>` makes them.
//!
//! - **PD** checks that both regions exist and are healthy and adjacent (the adjacency is the
//!   layer above's, which knows the keys) and builds a merge operator (PD
//!   `pkg/schedule/handler/handler.go` `AddMergeRegionOperator`,
//!   `operator/create_operator.go` `CreateMergeRegionOperator`), whose `MergeRegion` step goes
//!   to the source's leader.
//! - **PrepareMerge.** The source's leader proposes it through Raft; when it applies
//!   (`fsm/apply.rs` `exec_prepare_merge`) the source's epoch version and conf_ver grow by one
//!   and the region is Merging: it refuses every other proposal with
//!   `ProposalInMergingMode` (`fsm/peer.rs`, `Peer::propose_normal`), which client-go answers
//!   with a `BoRegionScheduling` backoff and a retry (`region_request.go` `onRegionError`).
//! - **CommitMerge.** Each source peer then asks its store's target peer to propose
//!   CommitMerge, carrying the target epoch PD saw (`fsm/peer.rs` `on_ready_prepare_merge` ->
//!   `on_check_merge` -> `schedule_merge`, again every `merge-check-tick-interval`, 2 s): only
//!   the one beside the target's leader succeeds. When it applies (`fsm/apply.rs`
//!   `exec_commit_merge`) the target takes the source's range, its version becomes
//!   `max(source, target) + 1`, and the source's peers are destroyed on every store
//!   (`on_ready_commit_merge`).
//! - **RollbackMerge.** A target whose epoch changed since PD saw it (it split) makes the check
//!   fail (`schedule_merge` -> `validate_merge_peer`); the source's leader proposes
//!   RollbackMerge, whose apply grows the version again and ends the Merging state
//!   (`exec_rollback_merge`).
//!
//! Simplifications, said also in docs/model.md and the help: PD refuses a merge whose two
//! regions have replicas on different stores (upstream the operator first moves the
//! source's replicas to the target's stores); the source's entries between its peers' lowest
//! match and PrepareMerge are not carried to the target (every entry before PrepareMerge has
//! applied on the leader by then, and the layer above keeps data by key, not by region);
//! the CommitMerge check runs on the store where PrepareMerge applied on the leader and picks
//! the store of the target's leader, standing in for every source peer trying its own; the
//! rollback needs no quorum of peers that want it; PD's automatic merge checker (regions under
//! `max-merge-region-size`, after `split-merge-interval`, 1 h) is not modelled; a merge
//! order that finds no leader is dropped with a log line, as a split's is.

use faultline_sim::Level;

use crate::cluster::Cluster;
use crate::ids::PeerId;
use crate::ids::RegionId;
use crate::msg::Msg;
use crate::msg::Timer;
use crate::out::Cx;
use crate::raft::log::RaftLog;
use crate::raft::state::OpOutcome;
use crate::raft::state::Peer;
use crate::region::state::MergeCmd;
use crate::region::state::Merging;
use crate::region::state::MERGE_CHECK_TICK;

impl Cluster {
    /// PD got a merge of `source` into `target`: it checks what it can and orders the
    /// source's leader.
    pub(crate) fn pd_merge_region(&mut self, cx: &mut Cx, source: u32, target: u32) {
        if let Err(why) = self.merge_refusal(source, target) {
            let detail = format!("region_id={source} target_region_id={target} reason=\"{why}\"");
            cx.out.log(
                Some(self.pd_node),
                Level::Warn,
                "merge region refused",
                detail,
            );
            return;
        }
        let leader = self.pd.region_leader[source as usize].0 as usize;
        let target_version = self.epochs[target as usize].version;
        let detail = format!(
            "region_id={source} target_region_id={target} to_store={}",
            leader + 1
        );
        cx.out.log(
            Some(self.pd_node),
            Level::Info,
            "merge region operator",
            detail,
        );
        let msg = Msg::PrepareMerge {
            source,
            target,
            target_version,
        };
        cx.out.send(self.pd_node, self.store_nodes[leader], msg);
    }

    /// Why PD would not start this merge, in words.
    fn merge_refusal(&self, source: u32, target: u32) -> Result<(), &'static str> {
        let n = self.region_count();
        if source >= n || target >= n || source == target {
            return Err("no such pair of regions");
        }
        if self.merge.is_gone(source) || self.merge.is_gone(target) {
            return Err("a region already merged away");
        }
        if self.merge.is_merging(source) || self.merge.is_merging(target) {
            return Err("a region is already merging");
        }
        let busy = |r: u32| self.pd.replica_ops.contains_key(&r) || self.learners.contains_key(&r);
        if busy(source) || busy(target) {
            return Err("a region has a replica move in flight");
        }
        if self.sorted_stores(source) != self.sorted_stores(target) {
            return Err("the regions' replicas are on different stores (PD would move them first: not modelled)");
        }
        Ok(())
    }

    /// The stores of a region's replicas, sorted.
    fn sorted_stores(&self, r: u32) -> Vec<u32> {
        let (stores, n) = self.region_stores(r);
        let mut v = stores[..n].to_vec();
        v.sort_unstable();
        v
    }

    /// Store `s` got PD's merge order: its source peer proposes PrepareMerge.
    pub(crate) fn propose_prepare_merge(
        &mut self,
        cx: &mut Cx,
        s: usize,
        (source, target, target_version): (u32, u32, u64),
    ) {
        let op = self.admin.next_op();
        let cmd = MergeCmd::Prepare {
            source,
            target,
            target_version,
        };
        self.merge.cmds.insert(op, cmd);
        self.propose_op(cx, s, (source, 0), op);
    }

    /// A merge command's entry applied (on store `s`'s leader): its epoch change takes effect
    /// at once, so the entries applied after it in the same batch see it. Returns false when
    /// `op` is not a merge command.
    pub(crate) fn merge_applied(&mut self, op: u64, s: usize) -> bool {
        let Some(cmd) = self.merge.cmds.get(&op).copied() else {
            return false;
        };
        match cmd {
            MergeCmd::Prepare {
                source,
                target,
                target_version,
            } => {
                let epoch = &mut self.epochs[source as usize];
                epoch.version += 1;
                epoch.conf_ver += 1;
                let version = epoch.version;
                let state = Merging {
                    target,
                    target_version,
                };
                self.merge.merging.insert(source, state);
                self.push_op_event(op, source, s, OpOutcome::PrepareMerge { version });
            }
            MergeCmd::Commit { source } => {
                let Some(state) = self.merge.merging.get(&source).copied() else {
                    return true;
                };
                let t = state.target as usize;
                let version = self.epochs[source as usize]
                    .version
                    .max(self.epochs[t].version)
                    + 1;
                self.epochs[t].version = version;
                let merged = OpOutcome::CommitMerge { source, version };
                self.push_op_event(op, state.target, s, merged);
            }
            MergeCmd::Rollback { source } => {
                // A second RollbackMerge (the check proposes one each tick) changes nothing.
                if !self.merge.is_merging(source) {
                    return true;
                }
                self.epochs[source as usize].version += 1;
                let version = self.epochs[source as usize].version;
                self.push_op_event(op, source, s, OpOutcome::RollbackMerge { version });
            }
        }
        true
    }

    /// Carries out a merge command's outcome once the event's entries are applied. Returns
    /// false when `op` is not a merge command.
    pub(crate) fn merge_outcome(
        &mut self,
        cx: &mut Cx,
        (op, region, s): (u64, u32, usize),
        outcome: OpOutcome,
    ) -> bool {
        let Some(cmd) = self.merge.cmds.get(&op).copied() else {
            return false;
        };
        match (cmd, outcome) {
            (_, OpOutcome::Applied) => self.merge_step_applied(cx, cmd, s),
            (_, OpOutcome::Done) => {
                self.merge.cmds.remove(&op);
            }
            (MergeCmd::Commit { source } | MergeCmd::Rollback { source }, _) => {
                // Refused or overwritten: the next merge check tries again. A refusal after
                // the merge finished is a duplicate's, and says nothing new.
                self.merge.cmds.remove(&op);
                if self.merge.is_merging(source) {
                    self.log_merge_failed(cx, s, region, outcome);
                }
            }
            (MergeCmd::Prepare { .. }, _) => {
                self.merge.cmds.remove(&op);
                self.log_merge_failed(cx, s, region, outcome);
            }
        }
        true
    }

    fn log_merge_failed(&self, cx: &mut Cx, s: usize, region: u32, outcome: OpOutcome) {
        let why = match outcome {
            OpOutcome::EpochNotMatch => "epoch not match",
            OpOutcome::Stale => "stale command",
            OpOutcome::MergingMode => "region is merging",
            _ => "not leader",
        };
        let detail = format!("region_id={region} reason=\"{why}\"");
        cx.out.log(
            Some(self.store_nodes[s]),
            Level::Warn,
            "merge step failed",
            detail,
        );
    }

    fn merge_step_applied(&mut self, cx: &mut Cx, cmd: MergeCmd, s: usize) {
        match cmd {
            MergeCmd::Prepare { source, target, .. } => {
                let detail = format!(
                    "region_id={source} target_region_id={target} version={}",
                    self.epochs[source as usize].version
                );
                cx.out.log(
                    Some(self.store_nodes[s]),
                    Level::Info,
                    "prepare merge",
                    detail,
                );
                self.check_merge(cx, s, source);
            }
            MergeCmd::Commit { source } => self.exec_commit_merge(cx, s, source),
            MergeCmd::Rollback { source } => {
                self.merge.merging.remove(&source);
                let detail = format!(
                    "region_id={source} version={}",
                    self.epochs[source as usize].version
                );
                cx.out.log(
                    Some(self.store_nodes[s]),
                    Level::Info,
                    "rollback merge",
                    detail,
                );
            }
        }
    }

    /// The merge check of a Merging `source` (TiKV `on_check_merge` -> `schedule_merge`),
    /// run on store `s`: CommitMerge goes to the target's leader, or RollbackMerge to the
    /// source's if the target's epoch moved on; then the check comes again in 2 s. As
    /// upstream, each check sends its command again whatever became of the last one (a
    /// proposal stuck on a leader cut from its followers is not waited for); the epoch check
    /// refuses a CommitMerge once one applied.
    pub(crate) fn check_merge(&mut self, cx: &mut Cx, s: usize, source: u32) {
        let Some(state) = self.merge.merging.get(&source).copied() else {
            return;
        };
        cx.out.set_timer(
            self.store_nodes[s],
            MERGE_CHECK_TICK,
            Timer::MergeCheck { source },
        );
        let target = state.target;
        let stale = self.epochs[target as usize].version != state.target_version;
        let (region, cmd, version) = if stale {
            (source, MergeCmd::Rollback { source }, 0)
        } else {
            (target, MergeCmd::Commit { source }, state.target_version)
        };
        let Some(at) = self.leader_store_truth(RegionId(region)) else {
            return;
        };
        let op = self.admin.next_op();
        self.merge.cmds.insert(op, cmd);
        self.propose_op(cx, at, (region, version), op);
    }

    /// CommitMerge applied on the target's leader at store `s`: the target took the source's
    /// range (its epoch changed in [`Cluster::merge_applied`]); the source's peers go.
    fn exec_commit_merge(&mut self, cx: &mut Cx, s: usize, source: u32) {
        let Some(state) = self.merge.merging.remove(&source) else {
            return;
        };
        let target = state.target;
        for sl in 0..self.replicas as u8 {
            let pid = PeerId::of(RegionId(source), sl, self.replicas);
            self.destroy_merged_peer(pid);
        }
        self.book.remove_region(source);
        self.changes.note(RegionId(source));
        self.merge.merged_into.insert(source, target);
        self.fail_region_proposals(source);
        self.absorb_size(target, source);
        let detail = format!(
            "region_id={target} source_region_id={source} version={}",
            self.epochs[target as usize].version
        );
        cx.out.log(
            Some(self.store_nodes[s]),
            Level::Info,
            "commit merge",
            detail,
        );
    }

    /// A source peer is destroyed with its region (TiKV `on_ready_commit_merge` ->
    /// `destroy_peer`): off its store's lists and out of the counts.
    fn destroy_merged_peer(&mut self, pid: PeerId) {
        let s = self.slot_store[pid.ix()] as usize;
        if self.peers[pid.ix()].is_leader() {
            self.leader_lost(pid);
        }
        self.destroy_peer(pid, s);
        self.put_peer(pid, Peer::fresh(0, RaftLog::at_snapshot(0, 0)));
    }
}
