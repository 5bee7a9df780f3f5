//! A replica moves the way PD's operators move it with joint consensus (PD 7.1
//! `pkg/schedule/operator/builder.go` `buildStepsWithJointConsensus`): **add a learner** on the
//! target store, **send it a snapshot**, **promote** it while demoting the old voter (enter and
//! leave the joint configuration), **remove** the demoted peer. Used for every replica PD
//! moves: the drain of an Offline store, balance-region and the repair of a Down store's
//! replicas.
//!
//! - The leader proposes each membership change as a Raft admin entry (TiKV `fsm/peer.rs`
//!   `propose_conf_change`); it takes effect when the entry applies, so a leader that loses
//!   its quorum or its term mid-operator changes nothing, and PD's operator times out.
//! - Adding the learner bumps `conf_ver` by 1 (`fsm/apply.rs` `apply_conf_change`); the
//!   leader then sends the learner a snapshot over its own connection (TiKV `server/snap.rs`
//!   `send_snap`), which takes `region size / snap-io-max-bytes-per-sec` (100 MiB/s) plus the
//!   link's delay. A connection that breaks mid-transfer loses it; the leader sends a new one.
//! - PD sees the learner is no longer pending (`AddLearner::IsFinish`) and orders the
//!   promotion (`ChangePeerV2Enter`); enter and leave bump `conf_ver` by 2 each
//!   (`apply_conf_change_v2`, `apply_leave_joint`) and the removal by 1 more.
//! - A leader with a learner in flight stays awake (its learner has not voted to hibernate).
//!
//! Simplifications: the learner's Raft log between its snapshot and its promotion is not
//! modelled (upstream it receives appends as a learner): the promoted voter starts from the
//! leader's committed log, as a learner that kept up would. The joint configuration's enter,
//! leave and the removal of the demoted peer are one admin entry, and the old peer is
//! destroyed when it applies (upstream when it applies its removal, or learns it from a
//! tombstone message). PD orders the promotion from its scheduling round (every second)
//! instead of in answer to the leader's region heartbeat. TiKV's `concurrent-send-snap-limit`
//! and `concurrent-recv-snap-limit` (32 each) are not modelled: PD's store limit (15 new
//! replicas a minute per store) keeps transfers well below them.

use faultline_sim::{Level, SimDuration};

use crate::cluster::Cluster;
use crate::ids::PeerId;
use crate::ids::RegionId;
use crate::msg::Msg;
use crate::msg::Timer;
use crate::out::Cx;
use crate::raft::log::RaftLog;
use crate::raft::state::OpOutcome;
use crate::raft::state::Peer;
use crate::region::state::ConfChange;
use crate::region::state::Learner;
use crate::store::state::GroupState;

/// TiKV `DEFAULT_SNAP_MAX_BYTES_PER_SEC` (`raftstore/src/store/config.rs`), the default of
/// `server.snap-io-max-bytes-per-sec`: 100 MiB/s.
pub const SNAP_BYTES_PER_SEC: u64 = 100 * 1024 * 1024;

/// PD `operator_controller.go` `slowNotifyInterval`: a slow step is pushed again this often.
const SLOW_NOTIFY_US: u64 = 5_000_000;
/// PD `fastNotifyInterval`: a fast step (the promotion) is pushed again this often.
const FAST_NOTIFY_US: u64 = 2_000_000;

/// The `conf_ver` the promotion adds: entering the joint configuration (a promotion and a
/// demotion: 2), leaving it (2) and removing the demoted peer (1).
const PROMOTE_CONF_VER: u64 = 5;

impl Cluster {
    /// The leader `pid` on store `s` accepted PD's move of `slot`'s replica to `target`: it
    /// proposes the learner (TiKV `propose_conf_change` with `AddLearnerNode`).
    pub(crate) fn propose_add_learner(
        &mut self,
        cx: &mut Cx,
        (s, pid): (usize, PeerId),
        slot: u8,
        target: usize,
    ) {
        let region = pid.region(self.replicas).0;
        let op = self.admin.next_op();
        let change = ConfChange::AddLearner {
            slot,
            store: target as u8,
        };
        self.admin.conf_changes.insert(op, (region, change));
        self.propose_op(cx, s, (region, 0), op);
    }

    /// Carries out a membership change's outcome on store `s`.
    pub(crate) fn conf_change_outcome(
        &mut self,
        cx: &mut Cx,
        (op, region, s): (u64, u32, usize),
        change: ConfChange,
        outcome: OpOutcome,
    ) {
        match (outcome, change) {
            (OpOutcome::Applied, ConfChange::AddLearner { slot, store }) => {
                self.apply_add_learner(cx, (s, region), slot, store as usize);
                return;
            }
            (OpOutcome::Applied, ConfChange::Promote) => {
                self.apply_promote(cx, s, region);
                return;
            }
            (OpOutcome::Done, _) => {}
            (_, ConfChange::Promote) => {
                if let Some(l) = self.learners.get_mut(&region) {
                    l.promoting = false;
                }
            }
            _ => {}
        }
        self.admin.conf_changes.remove(&op);
    }

    /// The learner's entry applied on the leader's store `s`: the region has a learner on
    /// `store`, and the leader sends it a snapshot.
    fn apply_add_learner(
        &mut self,
        cx: &mut Cx,
        (s, region): (usize, u32),
        slot: u8,
        store: usize,
    ) {
        if self.learners.contains_key(&region) || self.has_replica_on(region, store) {
            return;
        }
        self.epochs[region as usize].conf_ver += 1;
        let learner = Learner {
            store: store as u8,
            replaces: slot,
            snapshot: None,
            lands_at: 0,
            promoting: false,
        };
        self.learners.insert(region, learner);
        let detail = format!("region_id={region} store_id={}", store + 1);
        cx.out.log(
            Some(self.store_nodes[s]),
            Level::Info,
            "add learner",
            detail,
        );
        self.send_learner_snapshot(cx, s, region);
    }

    /// How long a snapshot of `region` takes to send at `snap-io-max-bytes-per-sec`.
    fn snapshot_transfer(&self, region: u32) -> SimDuration {
        SimDuration(self.region_bytes(region) * 1_000_000 / SNAP_BYTES_PER_SEC)
    }

    /// Store `s` (the leader's) starts sending `region`'s learner a snapshot at its commit
    /// index; it leaves the store when the transfer is done ([`Timer::SnapshotSent`]).
    fn send_learner_snapshot(&mut self, cx: &mut Cx, s: usize, region: u32) {
        let Some(pid) = self.local_peer(s, region) else {
            return;
        };
        let transfer = self.snapshot_transfer(region);
        let index = self.peers[pid.ix()].log.commit;
        let Some(l) = self.learners.get_mut(&region) else {
            return;
        };
        l.lands_at = cx.now.0 + transfer.0;
        let to_store = l.store as u32;
        self.book.snapshots_sent += 1;
        let timer = Timer::SnapshotSent {
            region,
            to_store,
            index,
        };
        cx.out.set_timer(self.store_nodes[s], transfer, timer);
    }

    /// A snapshot transfer from store `s` ended: its last chunk goes over the link (a link
    /// that is down loses it, and with it the whole transfer).
    pub(crate) fn on_snapshot_sent(
        &mut self,
        cx: &mut Cx,
        s: usize,
        (region, to_store, index): (u32, u32, u64),
    ) {
        self.book.snapshots_finished += 1;
        let msg = Msg::LearnerSnapshot { region, index };
        cx.out.send(
            self.store_nodes[s],
            self.store_nodes[to_store as usize],
            msg,
        );
    }

    /// Store `s` received a learner snapshot of `region`: the learner applies it (TiKV's
    /// region worker ingests it) and is no longer pending.
    pub(crate) fn on_learner_snapshot(&mut self, cx: &mut Cx, s: usize, region: u32, index: u64) {
        let Some(l) = self.learners.get_mut(&region) else {
            return;
        };
        if l.store as usize != s || l.snapshot.is_some() {
            return;
        }
        l.snapshot = Some(index);
        let detail = format!("region_id={region} store_id={} index={index}", s + 1);
        cx.out.log(
            Some(self.store_nodes[s]),
            Level::Info,
            "learner applied snapshot",
            detail,
        );
    }

    /// The leader `pid` ticks with a learner in its region: a snapshot that should have
    /// landed an election timeout ago and did not is sent again (upstream the leader hears of
    /// the failed send, `report_snapshot`, and sends a new one once the learner answers).
    pub(crate) fn drive_learner(&mut self, cx: &mut Cx, pid: PeerId) {
        let region = pid.region(self.replicas).0;
        let Some(l) = self.learners.get(&region) else {
            return;
        };
        let timeout = self.cfg.raft.base_tick.0 * self.cfg.raft.election_ticks as u64;
        if l.snapshot.is_none() && cx.now.0 >= l.lands_at + timeout {
            let s = self.slot_store[pid.ix()] as usize;
            self.send_learner_snapshot(cx, s, region);
        }
    }

    /// PD got the promotion of `region`'s learner to the leader on store `s`: it proposes
    /// it (TiKV `propose_conf_change_v2`), unless it would demote the leader itself (TiKV
    /// refuses that, `check_conf_change`; PD moves the leader first).
    pub(crate) fn on_promote_learner(&mut self, cx: &mut Cx, s: usize, region: u32) {
        let Some(pid) = self.local_peer(s, region) else {
            return;
        };
        let Some(l) = self.learners.get(&region) else {
            return;
        };
        let leads = self.peers[pid.ix()].is_leader();
        if !leads || l.snapshot.is_none() || l.promoting || l.replaces == pid.slot(self.replicas) {
            return;
        }
        if let Some(l) = self.learners.get_mut(&region) {
            l.promoting = true;
        }
        let op = self.admin.next_op();
        self.admin
            .conf_changes
            .insert(op, (region, ConfChange::Promote));
        self.propose_op(cx, s, (region, 0), op);
    }

    /// The promotion applied on the leader's store `s`: the learner takes the demoted voter's
    /// slot with the leader's committed log, and the demoted peer is destroyed.
    fn apply_promote(&mut self, cx: &mut Cx, s: usize, region: u32) {
        let Some(pid) = self.local_peer(s, region) else {
            return;
        };
        let Some(l) = self.learners.get(&region).copied() else {
            return;
        };
        if l.replaces == pid.slot(self.replicas) {
            return;
        }
        self.learners.remove(&region);
        let old = PeerId::of(RegionId(region), l.replaces, self.replicas);
        let old_store = self.slot_store[old.ix()] as usize;
        let target = l.store as usize;
        self.destroy_peer(old, old_store);
        self.slot_store[old.ix()] = target as u8;
        self.epochs[region as usize].conf_ver += PROMOTE_CONF_VER;
        let leader = &self.peers[pid.ix()];
        let commit = leader.log.commit;
        let runs = &self.tails[pid.ix()].runs;
        let term = leader
            .log
            .term_at(runs, commit)
            .unwrap_or(leader.log.snap_term);
        self.put_peer(old, Peer::fresh(0, RaftLog::at_snapshot(commit, term)));
        // A dead store's peers were left out of the GroupState counts when it crashed.
        self.book.group_counts[GroupState::Ordered as usize] += 1;
        self.stores[target].peers.push(old);
        self.peers[pid.ix()].matched[l.replaces as usize] = commit;
        self.set_next(pid, l.replaces, commit + 1);
        self.wake_leader(pid);
        self.send_append(pid, l.replaces);
        let detail = format!(
            "region_id={region} promoted_store_id={} removed_store_id={}",
            target + 1,
            old_store + 1
        );
        cx.out.log(
            Some(self.store_nodes[s]),
            Level::Info,
            "promote learner",
            detail,
        );
    }

    /// PD's scheduling round pushes each unfinished replica operator's current step to the
    /// region's leader (as PD knows it) again, as PD's `PushOperators` does: the learner step
    /// every 5 s (`slowNotifyInterval`) until the learner exists, the promotion every 2 s
    /// (`fastNotifyInterval`) once it has its snapshot, with the fast step's timeout from then
    /// on (`PromoteLearner::Timeout`). So a lost order or a leader that changed does not
    /// stall the operator until it times out.
    pub(crate) fn pd_push_replica_steps(&mut self, cx: &mut Cx) {
        let now = cx.now.0;
        let ops: Vec<(u32, crate::pd::state::Operator)> = self
            .pd
            .replica_ops
            .iter()
            .map(|(r, op)| (*r, *op))
            .collect();
        for (r, op) in ops {
            let snapshot = self.learners.get(&r).map(|l| l.snapshot.is_some());
            let (interval, msg) = match snapshot {
                Some(false) => continue,
                Some(true) => (FAST_NOTIFY_US, Msg::PromoteLearner { region: r }),
                None => (SLOW_NOTIFY_US, self.pd_replica_step(r, &op)),
            };
            if now < op.pushed + interval {
                continue;
            }
            if let Some(op) = self.pd.replica_ops.get_mut(&r) {
                op.pushed = now;
                if snapshot == Some(true) {
                    op.deadline = op.deadline.min(now + crate::pd::state::FAST_STEP_WAIT_US);
                }
            }
            let leader = self.pd.region_leader[r as usize].0 as usize;
            cx.out.send(self.pd_node, self.store_nodes[leader], msg);
        }
    }

    /// The order that starts replica operator `op` of region `r`.
    pub(crate) fn pd_replica_step(&self, r: u32, op: &crate::pd::state::Operator) -> Msg {
        let (region, slot, store) = (r, op.target, op.to_store as u32);
        match op.desc {
            crate::pd::state::OpDesc::ReplaceDownReplica => Msg::ReplacePeer {
                region,
                slot,
                store,
            },
            _ => Msg::MovePeer {
                region,
                slot,
                store,
            },
        }
    }

    /// PD gave up on `region`'s operator: its learner, if any, is removed (upstream PD's
    /// replica checker removes the extra learner in a later operator).
    pub(crate) fn pd_drop_learner(&mut self, region: u32) {
        if self.learners.remove(&region).is_some() {
            self.epochs[region as usize].conf_ver += 1;
        }
    }

    /// A membership change of `region` is proposed and not yet applied or refused.
    pub(crate) fn conf_change_in_flight(&self, region: u32) -> bool {
        self.admin.conf_changes.values().any(|(r, _)| *r == region)
    }

    /// The learner of `region`, if a membership change added one.
    pub fn learner(&self, region: u32) -> Option<Learner> {
        self.learners.get(&region).copied()
    }

    /// Learners in the cluster: replicas being added that cannot vote yet.
    pub fn learner_count(&self) -> usize {
        self.learners.len()
    }
}
