//! Regions splitting, as `pd-ctl operator add split-region <region>` makes them: PD hands the
//! split to the leader it knows of (PD `pkg/schedule/handler/handler.go`
//! `AddSplitRegionOperator`); the leader proposes a `BatchSplit` admin command through Raft
//! (TiKV `fsm/peer.rs` `on_prepare_split_region`, after asking PD for the new ids with
//! `AskBatchSplit`); when the entry applies (`fsm/apply.rs` `exec_batch_split`) the region is
//! cut into `parts` and the new regions exist on every store that holds the parent. The
//! parent keeps the last part (`right_derive_when_split`, on by default) and every resulting
//! region's epoch version is the parent's plus the number of new regions. On the store where
//! the parent led, each new region's peer campaigns at once (`fsm/peer.rs`
//! `on_ready_split_region` -> `Peer::maybe_campaign`); the new leaders then report to PD.
//!
//! Simplifications: the ids are given when the entry applies, in apply order, so region ids
//! stay dense (they are indexes here); the split applies on every replica at the leader's
//! apply (upstream each store applies it from its own log, and a new leader's vote reaching
//! a store that has not yet applied it creates an uninitialized peer there); where the keys
//! are cut is the layer above's business (this model has no keys); a split that finds no
//! leader is dropped with a log line (PD's operator would time out and be retried). Merges
//! are `crate::region::merge`'s.

use faultline_sim::Level;

use crate::cluster::Cluster;
use crate::epoch::RegionEpoch;
use crate::ids::PeerId;
use crate::ids::RegionId;
use crate::msg::Msg;
use crate::out::Cx;
use crate::raft::log::RaftLog;
use crate::raft::state::OpOutcome;
use crate::raft::state::Peer;
use crate::raft::state::PeerTail;
use crate::store::state::GroupState;

/// A split region's first log index and term (TiKV `RAFT_INIT_LOG_INDEX` and
/// `RAFT_INIT_LOG_TERM`: a new region's peers start from the same empty state).
const SPLIT_INIT_INDEX: u64 = 5;
const SPLIT_INIT_TERM: u64 = 5;

impl Cluster {
    /// PD got a split of `region` into `parts` (at least 2), or in two at key `at`: it orders
    /// the leader it knows of.
    pub(crate) fn pd_split_region(&mut self, cx: &mut Cx, r: u32, parts: u32, at: Option<u64>) {
        if r >= self.region_count() || parts < 2 {
            return;
        }
        let parts = if at.is_some() { 2 } else { parts };
        let leader = self.pd.region_leader[r as usize].0 as usize;
        let cut = at.map_or(format!("parts={parts}"), |key| format!("key={key}"));
        let detail = format!("region_id={r} {cut} to_store={}", leader + 1);
        cx.out.log(
            Some(self.pd_node),
            Level::Info,
            "split region operator",
            detail,
        );
        let msg = Msg::Split {
            region: r,
            parts,
            at,
        };
        cx.out.send(self.pd_node, self.store_nodes[leader], msg);
    }

    /// Store `s` got PD's split: the local peer proposes the `BatchSplit` command.
    pub(crate) fn propose_split(
        &mut self,
        cx: &mut Cx,
        s: usize,
        r: u32,
        split: (u32, Option<u64>),
    ) {
        let op = self.admin.next_op();
        self.admin.splits.insert(op, split);
        self.propose_op(cx, s, (r, 0), op);
    }

    /// Keeps an admin command's outcome for [`Cluster::run_admin_outcomes`]. An applied split
    /// changes the region's epoch at once, so the entries applied after it in the same batch
    /// are checked against the new one, and tells the layer above in order with them.
    pub(crate) fn admin_outcome(&mut self, op: u64, region: u32, s: usize, outcome: OpOutcome) {
        if outcome == OpOutcome::Applied && self.merge_applied(op, s) {
            (self.admin.outcomes).push((op, region, s as u32, outcome));
            return;
        }
        if let (OpOutcome::Applied, Some(&(parts, at))) = (outcome, self.admin.splits.get(&op)) {
            let added = parts - 1;
            let epoch = &mut self.epochs[region as usize];
            epoch.version += added as u64;
            let version = epoch.version;
            let first = self.region_count() + self.admin.unborn;
            self.admin.unborn += added;
            let split = OpOutcome::Split {
                first,
                added,
                version,
                at,
            };
            self.push_op_event(op, region, s, split);
        }
        (self.admin.outcomes).push((op, region, s as u32, outcome));
    }

    /// Carries out the admin outcomes of the event: an applied split cuts its region; the
    /// proposer's answer ends the command (a refused or overwritten one is logged).
    pub(crate) fn run_admin_outcomes(&mut self, cx: &mut Cx) {
        for (op, region, store, outcome) in std::mem::take(&mut self.admin.outcomes) {
            if let Some((_, change)) = self.admin.conf_changes.get(&op).copied() {
                let at = (op, region, store as usize);
                self.conf_change_outcome(cx, at, change, outcome);
                continue;
            }
            if self.merge_outcome(cx, (op, region, store as usize), outcome) {
                continue;
            }
            let Some((parts, _)) = self.admin.splits.get(&op).copied() else {
                continue;
            };
            let why = match outcome {
                OpOutcome::Applied => {
                    self.exec_split(cx, store as usize, region, parts);
                    continue;
                }
                OpOutcome::Done => None,
                OpOutcome::Stale => Some("stale command"),
                _ => Some("not leader"),
            };
            self.admin.splits.remove(&op);
            if let Some(why) = why {
                let detail = format!("region_id={region} reason=\"{why}\"");
                cx.out.log(
                    Some(self.store_nodes[store as usize]),
                    Level::Warn,
                    "split failed",
                    detail,
                );
            }
        }
    }

    /// The split entry of `parent` applied on store `s`'s peer (its epoch already changed,
    /// in [`Cluster::admin_outcome`]): `parts - 1` new regions.
    fn exec_split(&mut self, cx: &mut Cx, s: usize, parent: u32, parts: u32) {
        let added = parts - 1;
        let first = self.region_count();
        self.admin.unborn -= added;
        let epoch = self.epochs[parent as usize];
        self.share_size(parent, parts);
        for nr in first..first + added {
            self.add_split_region(cx, (parent, nr), epoch, s);
        }
        let detail = format!(
            "region_id={parent} new_region_ids={first}..={} version={}",
            first + added - 1,
            epoch.version
        );
        cx.out.log(
            Some(self.store_nodes[s]),
            Level::Info,
            "split region",
            detail,
        );
    }

    /// Creates region `nr` split from `parent`: a peer on each of the parent's stores, all
    /// followers with no leader; the one on `leader_store` campaigns at once.
    fn add_split_region(
        &mut self,
        cx: &mut Cx,
        (parent, nr): (u32, u32),
        epoch: RegionEpoch,
        leader_store: usize,
    ) {
        let mut campaigner = None;
        for slot in 0..self.replicas as u8 {
            let store = self.slot_store[PeerId::of(RegionId(parent), slot, self.replicas).ix()];
            let pid = PeerId::of(RegionId(nr), slot, self.replicas);
            debug_assert_eq!(pid.ix(), self.peers.len(), "regions are added in id order");
            let (peer, tail) = split_peer();
            self.peers.push(peer);
            self.tails.push(tail);
            self.probing.push(0);
            self.slot_store.push(store);
            let s = store as usize;
            self.stores[s].peers.push(pid);
            // A dead store's peers count from its restart on, as at its crash.
            if self.store_live[s] {
                self.book.group_counts[GroupState::Ordered as usize] += 1;
                self.reset_election_clock(pid);
                self.register_tick(pid);
            }
            if s == leader_store && self.store_live[s] {
                campaigner = Some(pid);
            }
        }
        self.book.add_region(self.now);
        self.changes.note(RegionId(nr));
        self.pd.region_leader.push((leader_store as u8, 0));
        self.inv.add_region(SPLIT_INIT_INDEX, SPLIT_INIT_TERM);
        self.epochs.push(epoch);
        self.split_from.insert(nr, parent);
        if let Some(pid) = campaigner {
            let pre = self.cfg.raft.prevote;
            self.campaign(cx, pid, pre);
        }
    }
}

/// A new region's peer and its tail: the empty state every peer of a split region starts from.
fn split_peer() -> (Peer, PeerTail) {
    Peer::fresh(
        SPLIT_INIT_TERM,
        RaftLog::at_snapshot(SPLIT_INIT_INDEX, SPLIT_INIT_TERM),
    )
}
