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

/// tiflow#4241 toggle: how the owner closes a failed changefeed's sink.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SinkClose {
    /// Buggy (before tiflow#5186): the owner (and the processor manager) wait inside their
    /// tick for the producer's clients to close, one after another.
    Sync,
    /// Fixed (tiflow#5186): the close runs in the background; the sink is `Closing` until it
    /// is done, and nobody re-initialises or closes it again meanwhile.
    #[default]
    Async,
}

/// Kafka message encodings a consumer can rebuild rows from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum KafkaProtocol {
    /// TiCDC Open Protocol: key `{ts, scm, tbl, t}`, value `{"u": {col: {t, h, v}}}`;
    /// resolved events (`t = 3`) go to every partition.
    #[default]
    OpenProtocol,
    /// Canal-JSON with `enable-tidb-extension = true` (`_tidb.commitTs`, `TIDB_WATERMARK`).
    CanalJson,
}

/// Where a changefeed writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SinkType {
    /// Downstream MySQL `mysql-1`.
    #[default]
    Mysql,
    /// A Kafka topic named after the changefeed on brokers `kafka-1..N`.
    Kafka(KafkaProtocol),
}

impl SinkType {
    /// True for a Kafka sink.
    pub fn is_kafka(self) -> bool {
        matches!(self, SinkType::Kafka(_))
    }
}

/// Kafka cluster and producer settings (TiCDC's sarama defaults).
#[derive(Clone, Debug, PartialEq)]
pub struct KafkaConfig {
    /// Brokers `kafka-1..N` (0 = no Kafka).
    pub brokers: u32,
    /// Partitions per topic (TiCDC's `partition-num`; 3 here).
    pub partitions: u32,
    /// Sarama `Net.DialTimeout` / `ReadTimeout` / `WriteTimeout`, all 10 s in TiCDC: how
    /// long a send waits for an ack, and how long one client's close blocks while no broker
    /// answers.
    pub timeout: SimDuration,
    /// Clients a producer closes in order: the sarama client, the async producer, the sync
    /// producer and the cluster admin (TiCDC 5.x/6.0 `kafkaSaramaProducer.Close`).
    pub clients: u32,
    /// How long one client's close takes while a broker answers.
    pub close_latency: SimDuration,
    /// Write latency of a broker appending a batch (acks = all, replication simplified away).
    pub append_latency: SimDuration,
}

impl Default for KafkaConfig {
    fn default() -> Self {
        KafkaConfig {
            brokers: 0,
            partitions: 3,
            timeout: SimDuration::from_secs(10),
            clients: 4,
            close_latency: SimDuration::from_millis(2),
            append_latency: SimDuration::from_millis(2),
        }
    }
}

/// The owner's retry of a failed changefeed (`cdc/owner/feed_state_manager.go`).
#[derive(Clone, Debug, PartialEq)]
pub struct BackoffConfig {
    /// `defaultBackoffInitInterval`: 10 s.
    pub initial: SimDuration,
    /// `defaultBackoffMaxInterval`: 10 min.
    pub max: SimDuration,
    /// `defaultBackoffMultiplier`: 2.
    pub multiplier: u64,
    /// `defaultBackoffRandomizationFactor`: 0.1, in percent.
    pub jitter_percent: u64,
    /// `changefeed-error-stuck-duration`: 30 min of failing retries, then `Failed`.
    pub max_elapsed: SimDuration,
    /// `changefeedLogsWarnDuration`: a changefeed tick longer than this is logged (1 s).
    pub tick_warn: SimDuration,
}

impl Default for BackoffConfig {
    fn default() -> Self {
        BackoffConfig {
            initial: SimDuration::from_secs(10),
            max: SimDuration::from_secs(600),
            multiplier: 2,
            jitter_percent: 10,
            max_elapsed: SimDuration::from_secs(1800),
            tick_warn: SimDuration::from_secs(1),
        }
    }
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
    /// MySQL or Kafka.
    pub sink: SinkType,
}

/// Everything the TiCDC model needs.
#[derive(Clone, Debug, PartialEq)]
pub struct CdcConfig {
    /// Captures `cdc-1..cdc-N`; 0 disables TiCDC.
    pub captures: u32,
    /// Changefeeds (to the MySQL downstream `mysql-1` or to Kafka).
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
    /// tiflow#4241 toggle.
    pub sink_close: SinkClose,
    /// Kafka brokers and producer.
    pub kafka: KafkaConfig,
    /// Retry of failed changefeeds.
    pub backoff: BackoffConfig,
    /// Capture sessions, owner election, scheduler v3 and the tiflow#9344 toggles.
    pub session: crate::etcd::SessionConfig,
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
            sink_close: SinkClose::default(),
            kafka: KafkaConfig::default(),
            backoff: BackoffConfig::default(),
            session: crate::etcd::SessionConfig::default(),
        }
    }
}
