//! Configuration of the TiCDC model, with TiCDC 7.x defaults (MODEL.md section 2).

use faultline_sim::SimDuration;

/// tiflow#9595 toggle: when the KV client evicts a stream's regions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum KvClientEvict {
    /// Buggy (v7.4.0-alpha, tiflow#9519): evict when the region worker exits, while the
    /// receive loop may still hand it a pending region's first event.
    #[default]
    OnWorkerExit,
    /// Fixed (tiflow#9597): evict after both loops joined, and fail every pending region too.
    AfterJoin,
}

/// sysbench-like workload kinds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WorkloadKind {
    /// One UPDATE of a non-indexed column per transaction.
    #[default]
    OltpUpdateNonIndex,
    /// Two UPDATEs, a DELETE and an INSERT per transaction.
    OltpWriteOnly,
    /// One INSERT (upsert of a row id from a growing counter) per transaction.
    Insert,
}

/// The upstream workload.
#[derive(Clone, Debug, PartialEq)]
pub struct WorkloadConfig {
    /// Kind of transactions.
    pub kind: WorkloadKind,
    /// Transactions per simulated second (0 = none).
    pub txns_per_sec: u32,
    /// Tables.
    pub tables: u32,
    /// Rows per table.
    pub rows_per_table: u32,
    /// When the workload stops (the finish mark for the consistency check is after it).
    pub stop_at: Option<SimDuration>,
}

impl Default for WorkloadConfig {
    fn default() -> Self {
        WorkloadConfig {
            kind: WorkloadKind::default(),
            txns_per_sec: 0,
            tables: 4,
            rows_per_table: 100,
            stop_at: None,
        }
    }
}

/// A changefeed.
#[derive(Clone, Debug, PartialEq)]
pub struct ChangefeedConfig {
    /// Its id, e.g. `cf-1`.
    pub id: String,
    /// Replicate only tables `< tables` if set (a simple table filter).
    pub tables: Option<u32>,
    /// `consistent.level = "eventual"`: keep a redo log and its meta.
    pub redo: bool,
}

/// Everything the TiCDC model needs.
#[derive(Clone, Debug, PartialEq)]
pub struct CdcConfig {
    /// Captures `cdc-1..cdc-N`; 0 disables TiCDC.
    pub captures: u32,
    /// Changefeeds (all to the MySQL downstream `mysql-1`).
    pub changefeeds: Vec<ChangefeedConfig>,
    /// Upstream writes.
    pub workload: WorkloadConfig,
    /// tiflow#9595 toggle.
    pub kv_client_evict: KvClientEvict,
    /// TiKV `cdc.min-ts-interval`: 1 s.
    pub min_ts_interval: SimDuration,
    /// Owner and processor tick: 50 ms.
    pub owner_tick: SimDuration,
    /// Redo meta flush interval: 2 s.
    pub redo_flush_interval: SimDuration,
    /// Redo meta "owner may be stuck" warning after: 20 s.
    pub redo_stuck_warning: SimDuration,
    /// Downstream write latency per batch.
    pub mysql_write_latency: SimDuration,
    /// Backoff before re-requesting a region that failed.
    pub region_retry_backoff: SimDuration,
    /// gRPC keepalive: a silent stream is declared broken after this long.
    pub grpc_keepalive_timeout: SimDuration,
}

impl Default for CdcConfig {
    fn default() -> Self {
        CdcConfig {
            captures: 0,
            changefeeds: Vec::new(),
            workload: WorkloadConfig::default(),
            kv_client_evict: KvClientEvict::default(),
            min_ts_interval: SimDuration::from_secs(1),
            owner_tick: SimDuration::from_millis(50),
            redo_flush_interval: SimDuration::from_secs(2),
            redo_stuck_warning: SimDuration::from_secs(20),
            mysql_write_latency: SimDuration::from_millis(5),
            region_retry_backoff: SimDuration::from_millis(500),
            grpc_keepalive_timeout: SimDuration::from_secs(10),
        }
    }
}
