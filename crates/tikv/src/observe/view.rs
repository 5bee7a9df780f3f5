//! Read-only views for the UI: cheap accessors that never expose internals mutably.

use faultline_sim::NodeId;

use crate::cluster::Cluster;
use crate::epoch::RegionEpoch;
use crate::ids::PeerId;
use crate::ids::RegionId;

/// One peer of a region as the UI shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PeerDetail {
    /// Store index (0-based; `tikv-1` is 0).
    pub store: u32,
    /// `"leader"`, `"follower"`, `"candidate"` or `"precandidate"`.
    pub role: &'static str,
    /// Current term.
    pub term: u64,
    /// `"Ordered"`, `"Chaos"`, `"PreChaos"` or `"Idle"`.
    pub group_state: &'static str,
    /// Last log index.
    pub last_index: u64,
    /// Commit index.
    pub commit: u64,
    /// Whether its raft tick is registered.
    pub ticking: bool,
    /// False if its store is crashed (the values are what it persisted).
    pub store_live: bool,
}

/// One region as the UI shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionDetail {
    /// Region index.
    pub id: u32,
    /// Table the region belongs to (the report's layout: 256 regions per table; a split
    /// region's is that of the region it split from).
    pub table: u32,
    /// Index of the region within its table.
    pub part: u32,
    /// Peers in slot order.
    pub peers: Vec<PeerDetail>,
    /// Seconds the region has been leaderless, if it is.
    pub leaderless_secs: Option<u64>,
    /// The region it split from, for a region a split made.
    pub split_from: Option<u32>,
    /// Its epoch.
    pub epoch: RegionEpoch,
}

/// Regions per table in the report's layout (pre-split 2^8).
pub const REGIONS_PER_TABLE: u32 = 256;

impl Cluster {
    /// Node ids of the stores, `tikv-1` first.
    pub fn store_nodes(&self) -> &[NodeId] {
        &self.store_nodes
    }

    /// Number of regions.
    pub fn region_count(&self) -> u32 {
        // Every region has `replicas` slots, so the slot table's length counts regions,
        // those split off included.
        (self.slot_store.len() / self.replicas as usize) as u32
    }

    /// Regions that exist now: those merged away are not counted (their ids stay unused).
    pub fn live_region_count(&self) -> u32 {
        self.region_count() - self.merge.gone_count()
    }

    /// The region `region` merged into, if it merged away (it then has no peers).
    pub fn region_merged_into(&self, region: u32) -> Option<u32> {
        self.merge
            .is_gone(region)
            .then(|| self.merge.live_region(region))
    }

    /// The bootstrap region `region` was split off (itself if it was there from the start):
    /// a split region lies in the key range of the region it came from.
    pub fn base_region(&self, region: u32) -> u32 {
        let mut root = region;
        while let Some(parent) = self.split_from.get(&root) {
            root = *parent;
        }
        root
    }

    /// Region `region`'s epoch, or `None` for an unknown region.
    pub fn region_epoch(&self, region: u32) -> Option<RegionEpoch> {
        self.epochs.get(region as usize).copied()
    }

    /// Store (0-based) of the region's live leader with the highest term, if any.
    pub fn region_leader_store(&self, region: u32) -> Option<u32> {
        if region >= self.region_count() {
            return None;
        }
        self.leader_store_truth(RegionId(region)).map(|s| s as u32)
    }

    /// The leader store PD believes a region has, from region heartbeats (what a client
    /// such as TiCDC's region cache gets when it asks PD). It lags the truth.
    pub fn pd_region_leader_store(&self, region: u32) -> Option<u32> {
        self.pd
            .region_leader
            .get(region as usize)
            .map(|(s, _)| *s as u32)
    }

    /// True if every peer of the region on a live store is hibernated (Idle or PreChaos and
    /// not ticking).
    pub fn region_hibernated(&self, region: u32) -> bool {
        if region >= self.region_count() {
            return false;
        }
        (0..self.replicas as u8).all(|sl| {
            let pid = PeerId::of(RegionId(region), sl, self.replicas);
            let p = &self.peers[pid.ix()];
            !self.store_live[self.slot_store[pid.ix()] as usize] || !p.awake
        })
    }

    /// Everything about one region; `None` if out of range.
    pub fn region_detail(&self, region: u32) -> Option<RegionDetail> {
        if region >= self.region_count() {
            return None;
        }
        let peers = (0..self.replicas as u8)
            .map(|sl| {
                let pid = PeerId::of(RegionId(region), sl, self.replicas);
                let p = &self.peers[pid.ix()];
                let s = self.slot_store[pid.ix()] as usize;
                PeerDetail {
                    store: s as u32,
                    role: p.role.name(),
                    term: p.term,
                    group_state: p.group.name(),
                    last_index: p.log.last_index,
                    commit: p.log.commit,
                    ticking: p.awake,
                    store_live: self.store_live[s],
                }
            })
            .collect();
        let since = self.book.leaderless_since[region as usize];
        let root = self.base_region(region);
        Some(RegionDetail {
            id: region,
            table: root / REGIONS_PER_TABLE,
            part: root % REGIONS_PER_TABLE,
            split_from: self.split_from.get(&region).copied(),
            epoch: self.epochs[region as usize],
            peers,
            leaderless_secs: (since != u64::MAX)
                .then(|| self.now.saturating_sub(since) / 1_000_000),
        })
    }

    /// True if the region's live leader holds a valid lease at the current time (it heard
    /// from a quorum within `leader_lease`); what a leader checks before serving local reads.
    pub fn region_leader_in_lease(&self, region: u32) -> bool {
        let Some(s) = self.region_leader_store(region) else {
            return false;
        };
        (0..self.replicas as u8).any(|sl| {
            let pid = PeerId::of(RegionId(region), sl, self.replicas);
            let p = &self.peers[pid.ix()];
            self.slot_store[pid.ix()] as u32 == s && p.is_leader() && p.lease_until > self.now
        })
    }

    /// True if the region has no leader on an Up store (see `leaderless_regions`).
    pub fn region_leaderless(&self, region: u32) -> bool {
        region < self.region_count() && self.book.leaderless_since[region as usize] != u64::MAX
    }

    /// Leaderless regions, longest streak first, with the streak start (µs).
    pub fn leaderless_regions(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        self.book.leaderless.iter().map(|(since, r)| (*r, *since))
    }

    /// True if store `from`'s raft client regards its connection to store `to` as broken.
    pub fn connection_broken(&self, from: u32, to: u32) -> bool {
        self.stores[from as usize].conn_broken[to as usize]
    }

    /// Cumulative raft messages handed to peers.
    pub fn raft_messages(&self) -> u64 {
        self.book.raft_messages
    }

    /// The Raft work done since the start, counted per peer: what a run's cost follows.
    pub fn raft_work(&self) -> RaftWork {
        RaftWork {
            peer_ticks: self.book.peer_ticks,
            messages: self.book.raft_messages,
            unreachable_reports: self.book.unreachable_reports,
        }
    }
}

/// Cumulative per-peer Raft work of a run ([`Cluster::raft_work`]). Each item reads and
/// writes one peer's state, one of 768,000 at full scale: the benchmark divides its time by
/// their sum.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RaftWork {
    /// Base ticks handled by awake peers.
    pub peer_ticks: u64,
    /// Raft messages handed to peers.
    pub messages: u64,
    /// `Unreachable` reports handed to the senders of messages a raft client dropped or
    /// refused (a dead store's full queue refuses most of them).
    pub unreachable_reports: u64,
}

impl RaftWork {
    /// All three together: the peer-level operations of the run.
    pub fn total(&self) -> u64 {
        self.peer_ticks + self.messages + self.unreachable_reports
    }
}
