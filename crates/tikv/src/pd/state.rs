//! The pd folder's data: PD's state (TSO, heartbeats seen, stores' states, operators in
//! flight) and how an operator is named. Types only; PD's handlers live beside.

use std::collections::BTreeMap;

use crate::store::state::StoreState;

/// PD `operator/step.go` `FastStepWaitTime`: a leader transfer not seen within this is dropped.
pub(crate) const FAST_STEP_WAIT_US: u64 = 60_000_000;

/// PD `operator/step.go` `SlowStepWaitTime`: a step that sends a snapshot may take this long.
pub(crate) const SLOW_STEP_WAIT_US: u64 = 600_000_000;

/// An operator in flight: what it waits for and when PD gives up on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Operator {
    /// Leader transfer: the target store. Replica repair: the slot being rebuilt.
    pub target: u8,
    /// PD drops the operator at this time (µs) if it has not finished.
    pub deadline: u64,
    /// Which scheduler or checker made it.
    pub desc: OpDesc,
    /// The store it moves the leader or the replica from (0-based).
    pub from_store: u8,
    /// The store it moves the leader or the replica to (0-based).
    pub to_store: u8,
    /// When PD created it (µs).
    pub created: u64,
    /// Replica operators: when PD last sent the leader its current step (µs).
    pub pushed: u64,
}

/// PD's own state.
#[derive(Clone, Debug)]
pub struct Pd {
    /// Last heartbeat from each store (µs).
    pub store_last_hb: Vec<u64>,
    /// Stores PD considers Down.
    pub store_down: Vec<bool>,
    /// Leader counts from store heartbeats, adjusted by PD's own transfers.
    pub store_leaders: Vec<i64>,
    /// What region heartbeats said: `(leader store, term)` per region.
    pub region_leader: Vec<(u8, u64)>,
    /// Leader-transfer operators in flight, by region.
    pub leader_ops: BTreeMap<u32, Operator>,
    /// Replica-repair operators in flight, by region.
    pub replica_ops: BTreeMap<u32, Operator>,
    /// Per store: earliest time (µs) the store limit lets PD add the next replica there.
    pub store_next_add: Vec<u64>,
    /// Per store: under PD's evict-leader scheduler (`crate::pd::evict_leader`).
    pub evicting: Vec<bool>,
    /// Per store: joined, serving, being removed or removed (`crate::store::membership`).
    pub store_state: Vec<StoreState>,
    pub(crate) evict_cursor: u32,
    pub(crate) tso_physical_ms: u64,
    pub(crate) tso_logical: u64,
    pub(crate) repair_cursor: u32,
    pub(crate) balance_cursor: u32,
}

impl Pd {
    /// PD for `stores` stores; `leader_of(r)` is the bootstrap leader store of each region.
    pub fn new(stores: usize, regions: usize, term: u64, leader_of: impl Fn(usize) -> u8) -> Self {
        Pd {
            store_last_hb: vec![0; stores],
            store_down: vec![false; stores],
            store_leaders: {
                let mut v = vec![0; stores];
                (0..regions).for_each(|r| v[leader_of(r) as usize] += 1);
                v
            },
            region_leader: (0..regions).map(|r| (leader_of(r), term)).collect(),
            leader_ops: BTreeMap::new(),
            replica_ops: BTreeMap::new(),
            store_next_add: vec![0; stores],
            evicting: vec![false; stores],
            store_state: vec![StoreState::Up; stores],
            evict_cursor: 0,
            tso_physical_ms: 0,
            tso_logical: 0,
            repair_cursor: 0,
            balance_cursor: 0,
        }
    }

    /// Number of Down stores.
    pub fn down_stores(&self) -> usize {
        self.store_down.iter().filter(|d| **d).count()
    }

    /// A timestamp: physical milliseconds << 18 | logical, strictly increasing.
    pub fn tso(&mut self, now_us: u64) -> u64 {
        let ms = now_us / 1_000;
        if ms > self.tso_physical_ms {
            self.tso_physical_ms = ms;
            self.tso_logical = 0;
        } else {
            self.tso_logical += 1;
            if self.tso_logical >= 1 << 18 {
                self.tso_physical_ms += 1;
                self.tso_logical = 0;
            }
        }
        self.tso_physical_ms << 18 | self.tso_logical
    }
}

/// Which of PD's schedulers or checkers made an operator (its `desc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpDesc {
    /// `balance-leader-scheduler`.
    BalanceLeader,
    /// `evict-leader-scheduler` (a rolling restart's `evict_leader`).
    EvictLeader,
    /// `admin-transfer-leader` (`pd-ctl operator add transfer-leader`).
    AdminTransferLeader,
    /// `replace-down-replica`: the replica checker rebuilds a replica of a Down store.
    ReplaceDownReplica,
    /// `replace-offline-replica`: the replica checker drains an Offline store (its leaders
    /// first; upstream one operator does both, here a transfer and a move).
    ReplaceOfflineReplica,
    /// `balance-region-scheduler`: a replica moves to a store with fewer.
    BalanceRegion,
}

impl OpDesc {
    /// PD's name for it.
    pub fn name(self) -> &'static str {
        match self {
            OpDesc::BalanceLeader => "balance-leader-scheduler",
            OpDesc::EvictLeader => "evict-leader-scheduler",
            OpDesc::AdminTransferLeader => "admin-transfer-leader",
            OpDesc::ReplaceDownReplica => "replace-down-replica",
            OpDesc::ReplaceOfflineReplica => "replace-offline-replica",
            OpDesc::BalanceRegion => "balance-region-scheduler",
        }
    }
}
