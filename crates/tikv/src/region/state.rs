//! The region folder's data: admin commands in flight, membership changes and learners,
//! merges, approximate sizes, peer replacements and the change set observers read. Types only.

use std::collections::{BTreeMap, BTreeSet};

use faultline_sim::{CowVec, SimDuration};

use crate::ids::RegionId;
use crate::raft::state::OpOutcome;

/// Ops of the admin commands a leader proposes itself carry this bit, so their outcomes stay
/// in the cluster instead of going to the layer above (whose ops are counters from 1).
pub(crate) const ADMIN_OP: u64 = 1 << 63;

/// Admin commands in flight: proposed by a leader, waiting for their outcomes.
#[derive(Clone, Debug, Default)]
pub(crate) struct AdminCmds {
    /// Parts each split proposal cuts its region into, and the key it cuts at (if one was
    /// given), by op.
    pub(crate) splits: BTreeMap<u64, (u32, Option<u64>)>,
    /// Membership changes proposed, by op (`crate::region::learner`).
    pub(crate) conf_changes: BTreeMap<u64, (u32, ConfChange)>,
    /// Outcomes reported while an event ran, carried out before its messages go out.
    pub(crate) outcomes: Vec<(u64, u32, u32, OpOutcome)>,
    /// New regions of splits applied in this event and not yet created.
    pub(crate) unborn: u32,
    pub(crate) next: u64,
}

impl AdminCmds {
    /// A new admin command's op id.
    pub(crate) fn next_op(&mut self) -> u64 {
        self.next += 1;
        ADMIN_OP | (self.next - 1)
    }
}

/// A membership change a leader proposed, waiting for its entry to apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ConfChange {
    /// Add a learner on `store` that will replace the voter in `slot`.
    AddLearner {
        /// The voter slot it replaces.
        slot: u8,
        /// The learner's store.
        store: u8,
    },
    /// Promote the region's learner and remove the voter it replaces.
    Promote,
}

/// A region's learner: added by a membership change that applied, not yet a voter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Learner {
    /// The learner's store (0-based).
    pub store: u8,
    /// The voter slot it will replace.
    pub replaces: u8,
    /// `None` while its snapshot is on the way; the snapshot's index once it applied one.
    pub snapshot: Option<u64>,
    /// When the snapshot being sent should land (µs); the leader sends another if the
    /// learner has none one election timeout later.
    pub(crate) lands_at: u64,
    /// A promotion entry is proposed and not yet answered.
    pub(crate) promoting: bool,
}

/// TiKV `merge-check-tick-interval`: how often a Merging source peer tries CommitMerge again.
pub(crate) const MERGE_CHECK_TICK: SimDuration = SimDuration::from_secs(2);

/// One of the three admin commands of a merge, by op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MergeCmd {
    /// Proposed on the source.
    Prepare {
        source: u32,
        target: u32,
        target_version: u64,
    },
    /// Proposed on the target.
    Commit { source: u32 },
    /// Proposed on the source.
    Rollback { source: u32 },
}

/// A source region between PrepareMerge and CommitMerge (TiKV's `pending_merge_state`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Merging {
    pub(crate) target: u32,
    /// The target's epoch version PD saw: CommitMerge is checked against it.
    pub(crate) target_version: u64,
}

/// Regions merging and merged.
#[derive(Clone, Debug, Default)]
pub(crate) struct Merges {
    pub(crate) merging: BTreeMap<u32, Merging>,
    /// Each merged (destroyed) source region and the region it merged into.
    pub(crate) merged_into: BTreeMap<u32, u32>,
    /// The merge commands in flight, by op.
    pub(crate) cmds: BTreeMap<u64, MergeCmd>,
}

impl Merges {
    /// True once `region` merged into another: it has no peers left.
    pub(crate) fn is_gone(&self, region: u32) -> bool {
        !self.merged_into.is_empty() && self.merged_into.contains_key(&region)
    }

    /// True while `region` is a Merging source.
    pub(crate) fn is_merging(&self, region: u32) -> bool {
        !self.merging.is_empty() && self.merging.contains_key(&region)
    }

    /// Regions merged away so far.
    pub(crate) fn gone_count(&self) -> u32 {
        self.merged_into.len() as u32
    }

    /// The live region `region`'s keys belong to now (itself unless it merged away).
    pub(crate) fn live_region(&self, mut region: u32) -> u32 {
        while let Some(t) = self.merged_into.get(&region) {
            region = *t;
        }
        region
    }
}

/// One region's approximate size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RegionSize {
    /// Approximate size in bytes.
    pub bytes: u64,
    /// Bytes written since the last split check (TiKV `size_diff_hint`).
    pub diff: u64,
}

/// Every region's size, and which stores have a split check due.
#[derive(Clone, Debug, Default)]
pub(crate) struct RegionSizes {
    pub(crate) sizes: CowVec<RegionSize, 10>,
    /// Regions whose diff reached the check diff, waiting for their leader's check.
    pub(crate) due: BTreeSet<u32>,
    /// Per store: a split-check timer is set.
    pub(crate) armed: Vec<bool>,
    /// The largest region's size, kept as writes grow regions and splits shrink them.
    pub(crate) largest: u64,
}

impl RegionSizes {
    /// The bootstrap regions of `cfg`, each `region_size_mib` large.
    pub(crate) fn new(cfg: &crate::TikvConfig) -> Self {
        let bytes = cfg.region_size_mib as u64 * MIB;
        let size = RegionSize { bytes, diff: 0 };
        let stores = cfg.store_slots() as usize;
        RegionSizes {
            sizes: (0..cfg.regions).map(|_| size).collect(),
            due: BTreeSet::new(),
            largest: bytes,
            armed: vec![false; stores],
        }
    }
}

/// Regions noted since the last [`Cluster::take_region_changes`].
#[derive(Clone, Debug, Default)]
pub struct RegionChanges {
    pub(crate) on: bool,
    /// Noted regions, repeats allowed (the observer dedupes).
    pub(crate) regions: Vec<u32>,
    /// Something changed that can touch any region: the observer re-reads them all.
    pub(crate) all: bool,
}

impl RegionChanges {
    /// Notes one region.
    pub(crate) fn note(&mut self, r: RegionId) {
        if self.on {
            self.regions.push(r.0);
        }
    }

    /// Notes that any region may have changed.
    pub(crate) fn note_all(&mut self) {
        if self.on {
            self.all = true;
            self.regions.clear();
        }
    }
}

/// Why PD changes a region's membership.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Change {
    /// The replica's store is dead (PD's replica checker, `checkDownPeer`).
    Replace,
    /// The replica's store is alive (PD's `CreateMovePeerOperator`).
    Move,
}

pub(crate) const MIB: u64 = 1024 * 1024;
