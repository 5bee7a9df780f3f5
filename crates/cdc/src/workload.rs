//! The sysbench-like upstream workload: Percolator transactions that take timestamps from PD,
//! lock keys on prewrite and commit where the regions have leaders.
//!
//! Simplification: prewrite and commit are not Raft log entries of the TiKV model; a
//! transaction needs every touched region to have a live leader, and each commit also proposes
//! a write to the region's Raft group so hibernated regions wake as real writes wake them.

use std::collections::BTreeMap;

use faultline_sim::SimRng;

use crate::config::{WorkloadConfig, WorkloadKind};
use crate::keyspace::{Key, Keyspace};
use crate::ts::Ts;

/// A transaction between prewrite and commit.
#[derive(Clone, Debug)]
pub struct Txn {
    /// Start ts (its locks).
    pub start_ts: Ts,
    /// Keys and new values.
    pub writes: Vec<(Key, u64)>,
}

/// Workload state.
#[derive(Clone, Debug)]
pub struct Workload {
    /// Configuration.
    pub cfg: WorkloadConfig,
    /// Transactions holding locks.
    pub open: BTreeMap<u64, Txn>,
    /// Next transaction id.
    pub next_txn: u64,
    /// Next value (every write gets a fresh one, so versions are distinguishable).
    pub next_value: u64,
    /// Committed transactions.
    pub committed: u64,
    /// Transactions aborted at prewrite (a region had no leader).
    pub aborted: u64,
    /// Commit attempts that had to wait for a leader.
    pub commit_retries: u64,
    /// Row counter for `insert`.
    next_insert: u64,
    rng: SimRng,
}

impl Workload {
    /// A workload drawing from `rng`.
    pub fn new(cfg: WorkloadConfig, rng: SimRng) -> Self {
        Workload {
            cfg,
            open: BTreeMap::new(),
            next_txn: 1,
            next_value: 1,
            committed: 0,
            aborted: 0,
            commit_retries: 0,
            next_insert: 0,
            rng,
        }
    }

    /// Mean gap between transactions, in microseconds (with +-50% jitter when drawn).
    pub fn gap_us(&mut self) -> u64 {
        let mean = 1_000_000 / self.cfg.txns_per_sec.max(1) as u64;
        self.rng.range(mean / 2, mean + mean / 2 + 1)
    }

    /// Draws the keys and values of the next transaction.
    pub fn draw(&mut self, ks: &Keyspace) -> Vec<(Key, u64)> {
        let statements = match self.cfg.kind {
            WorkloadKind::OltpUpdateNonIndex | WorkloadKind::Insert => 1,
            WorkloadKind::OltpWriteOnly => 4,
        };
        let table = self.rng.below(ks.tables as u64) as u32;
        let mut writes: Vec<(Key, u64)> = Vec::with_capacity(statements);
        for _ in 0..statements {
            let row = match self.cfg.kind {
                WorkloadKind::Insert => {
                    // Inserts cycle over row ids: the table has a fixed number of rows.
                    self.next_insert += 1;
                    (self.next_insert % ks.rows_per_table as u64) as u32
                }
                _ => self.rng.below(ks.rows_per_table as u64) as u32,
            };
            let key = ks.key(table, row);
            if writes.iter().any(|(k, _)| *k == key) {
                continue;
            }
            writes.push((key, self.next_value));
            self.next_value += 1;
        }
        writes.sort_unstable();
        writes
    }

    /// Prewrite-to-commit latency, in microseconds.
    pub fn commit_delay_us(&mut self) -> u64 {
        self.rng.range(2_000, 6_000)
    }
}
