//! The sysbench-like upstream workload's state: Percolator transactions that take timestamps
//! from PD and send one prewrite, then one commit (or rollback) request per touched region.
//! Each request is a Raft proposal at the region's leader (`crate::upstream::upstream_txns` sends them,
//! `crate::upstream::txn_apply` applies them when the leader applies the entry).

use std::collections::{BTreeMap, BTreeSet};

use faultline_sim::{PerSecond, SimRng, SimTime};

use crate::config::{WorkloadConfig, WorkloadKind};
use crate::keyspace::{Key, Keyspace};
use crate::ts::Ts;

/// The phase a transaction's requests belong to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Prewrite: lock every key.
    Prewrite,
    /// Commit at `commit_ts`: write the rows, release the locks.
    Commit,
    /// Give up: release the locks.
    Rollback,
}

/// One region's request of a transaction, and what its applied entries did there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionReq {
    /// Region.
    pub region: u32,
    /// The region's epoch version when the keys were grouped: sent with every attempt.
    pub version: u64,
    /// The transaction's keys in the region when they were grouped (client-go's batch
    /// mutations): grouped again if the region splits.
    pub keys: Vec<Key>,
    /// The attempt in flight (0: none, waiting for a backoff or done).
    pub op: u64,
    /// The current phase's request succeeded.
    pub done: bool,
    /// Store to try next, from a NotLeader hint (else the region cache, loaded from PD).
    pub hint: Option<u32>,
    /// Store to try next because the cached leader's store reset the connection: a follower
    /// (client-go's replica selector moves off an unreachable leader to the other replicas).
    /// Unlike a hint, it does not change the region cache.
    pub follower: Option<u32>,
    /// A prewrite was applied and no commit or rollback yet: the keys are locked.
    pub locked: bool,
    /// The commit was applied.
    pub written: bool,
}

/// A transaction from its first prewrite to its last commit or rollback.
#[derive(Clone, Debug)]
pub struct Txn {
    /// Start ts (its locks).
    pub start_ts: Ts,
    /// Commit ts, once the commit phase began.
    pub commit_ts: Ts,
    /// Keys and new values.
    pub writes: Vec<(Key, u64)>,
    /// Current phase.
    pub phase: Phase,
    /// One request per touched region, by region.
    pub reqs: Vec<RegionReq>,
    /// The current phase's sleeps.
    pub backoff: crate::upstream::client_backoff::Backoffer,
    /// Every operation id sent for this transaction (forgotten when it ends).
    pub ops: Vec<u64>,
}

impl Txn {
    /// The request for `region`.
    pub fn req_mut(&mut self, region: u32) -> Option<&mut RegionReq> {
        self.reqs.iter_mut().find(|r| r.region == region)
    }

    /// Starts `phase`: every region's request is to be sent again.
    pub fn begin(&mut self, phase: Phase) {
        self.phase = phase;
        self.backoff = Default::default();
        for r in &mut self.reqs {
            r.done = false;
            r.op = 0;
        }
    }
}

/// Which transaction, region and phase an operation id belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpRef {
    /// Transaction id.
    pub txn: u64,
    /// Region.
    pub region: u32,
    /// Phase the request was sent in.
    pub phase: Phase,
    /// Store the request was sent to.
    pub store: u32,
}

/// A transaction whose client died while it held locks: they stay until a lock resolver
/// resolves them (client-go `txnkv/txnlock/lock_resolver.go`, `ResolveLocks`: the primary's
/// status decides). The model's primary is the transaction's first region.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrphanTxn {
    /// Commit ts (zero if the commit phase never began).
    pub commit_ts: Ts,
    /// The primary's commit was applied: the resolver commits the other regions too; else it
    /// rolls every region back.
    pub committed: bool,
    /// Its writes, for the regions a resolver commits.
    pub writes: Vec<(Key, u64)>,
    /// Regions still locked.
    pub locked: Vec<u32>,
    /// When the primary lock's TTL runs out: a resolver touches nothing before (client-go
    /// `txnLockTTL`: 3 s, `ManagedLockTTL` 20 s for a large transaction whose TTL manager
    /// kept it alive until the client died).
    pub ttl_expires: SimTime,
}

/// A lock-resolution write a region's leader proposed for the orphan locks it found expired.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LockResolution {
    /// The leader's store.
    pub store: u32,
    /// Region.
    pub region: u32,
    /// The orphans' start ts, in the order the leader read their locks.
    pub start_ts: Vec<Ts>,
}

/// Workload state.
#[derive(Clone, Debug)]
pub struct Workload {
    /// Configuration.
    pub cfg: WorkloadConfig,
    /// Transactions in flight.
    pub open: BTreeMap<u64, Txn>,
    /// Operations sent and not forgotten.
    pub ops: BTreeMap<u64, OpRef>,
    /// Next transaction id.
    pub next_txn: u64,
    /// Next operation id (0 means "untracked" to the TiKV model).
    pub next_op: u64,
    /// Next value (every write gets a fresh one, so versions are distinguishable).
    pub next_value: u64,
    /// Committed transactions.
    pub committed: u64,
    /// Transactions rolled back (prewrite ran out of backoff, or the client died).
    pub aborted: u64,
    /// Requests sent again after a failure or a timeout.
    pub commit_retries: u64,
    /// Transactions committed per simulated second.
    pub committed_per_sec: PerSecond,
    /// Requests that failed, by reason (each is retried or backs off).
    pub failed: FailedWrites,
    /// Stores the client found out of reach on a send failure (client-go's store liveness,
    /// `store_cache.go` `requestLivenessAndStartHealthCheckLoopIfNeeded`): requests for
    /// regions cached as led there go to a follower until the store answers again.
    pub unreachable_stores: BTreeSet<u32>,
    /// Stores the client has not heard since the given time (a link cut either way, or the
    /// store paused): its connection there breaks once gRPC keepalive gives up
    /// (`crate::upstream::send_failure`).
    pub silent_since: BTreeMap<u32, SimTime>,
    /// Transactions whose client died holding locks, by start ts (the locks' key upstream).
    pub orphans: BTreeMap<Ts, OrphanTxn>,
    /// Lock-resolution writes by op id, from the leader's read of the locks until its answer.
    pub resolutions: BTreeMap<u64, LockResolution>,
    /// Lock-resolution writes not yet handed to TiKV, as `(store, region, op)`.
    pub local_writes: Vec<(u32, u32, u64)>,
    /// Row counter for `insert`.
    next_insert: u64,
    /// The workload's stream (draws, backoff jitter).
    pub rng: SimRng,
}

/// Prewrite, commit and rollback requests that failed, by the reason the client saw
/// (client-go `region_request.go` `onRegionError` and `onSendFail`): the `failed_writes.*`
/// metrics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FailedWrites {
    /// `NotLeader` naming the leader: sent again at once to that store.
    pub not_leader: u64,
    /// `NotLeader` without a leader, or the region is not on that store: back off, reload.
    pub no_leader: u64,
    /// `StaleCommand`: the entry was overwritten by a new leader's log.
    pub stale_command: u64,
    /// No answer within `ReadTimeoutShort` (a cut or paused store).
    pub timeout: u64,
    /// The store's process was killed: the connection was reset, or refused.
    pub connection_reset: u64,
    /// The connection's keepalive ping went unanswered (the store paused, or a link cut).
    pub keepalive: u64,
    /// `EpochNotMatch`: the region split; the keys are grouped again and sent at once.
    pub epoch_not_match: u64,
    /// `ProposalInMergingMode`: the region is merging; back off, then the same region again.
    pub merging: u64,
    /// `RegionNotFound` from a region that merged away: the keys are grouped again.
    pub region_not_found: u64,
}

impl FailedWrites {
    /// The metric names, in the order of [`FailedWrites::values`].
    pub const NAMES: [&'static str; 9] = [
        "failed_writes.not_leader",
        "failed_writes.no_leader",
        "failed_writes.stale_command",
        "failed_writes.timeout",
        "failed_writes.connection_reset",
        "failed_writes.keepalive",
        "failed_writes.epoch_not_match",
        "failed_writes.merging",
        "failed_writes.region_not_found",
    ];

    /// The counts, in the order of [`FailedWrites::NAMES`].
    pub fn values(&self) -> [u64; 9] {
        [
            self.not_leader,
            self.no_leader,
            self.stale_command,
            self.timeout,
            self.connection_reset,
            self.keepalive,
            self.epoch_not_match,
            self.merging,
            self.region_not_found,
        ]
    }
}

impl Workload {
    /// A workload drawing from `rng`.
    pub fn new(cfg: WorkloadConfig, rng: SimRng) -> Self {
        Workload {
            cfg,
            open: BTreeMap::new(),
            ops: BTreeMap::new(),
            next_txn: 1,
            next_op: 1,
            next_value: 1,
            committed: 0,
            aborted: 0,
            commit_retries: 0,
            committed_per_sec: PerSecond::default(),
            failed: FailedWrites::default(),
            unreachable_stores: BTreeSet::new(),
            silent_since: BTreeMap::new(),
            orphans: BTreeMap::new(),
            resolutions: BTreeMap::new(),
            local_writes: Vec::new(),
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

    /// The client's work between a successful prewrite and the commit request (getting the
    /// commit ts), in microseconds.
    pub fn commit_delay_us(&mut self) -> u64 {
        self.rng.range(2_000, 6_000)
    }
}
