//! Configuration of the TiCDC model, with TiCDC 7.x defaults.
//!
//! Every parameter a scenario may set is a [`Knob`] in [`knobs`], defined once there (key,
//! unit, default, range, doc line); the `Default` impls below read their defaults from it and
//! the scenario layer derives the file format, its validation and the format reference from
//! it. Adding one works as described in `faultline_tikv::config`: one constant here, one row in
//! the scenario format's section, and the model code that reads the field.

use faultline_sim::{Knob, SimDuration};

/// The TiCDC (and upstream workload) knobs a scenario can set. Upstream defaults are cited
/// from `pingcap/tiflow` `pkg/config/server_config.go` and `pkg/config/debug.go`, TiKV's
/// `components/cdc/src/config.rs` for `min-ts-interval`, and sarama's defaults as TiCDC sets
/// them in `pkg/sink/kafka/options.go`.
pub mod knobs {
    use super::*;

    const fn secs(s: u64) -> SimDuration {
        SimDuration::from_secs(s)
    }
    const fn millis(ms: u64) -> SimDuration {
        SimDuration::from_millis(ms)
    }

    /// `topology.captures`.
    pub const CAPTURES: Knob = Knob::count(
        "topology.captures",
        0,
        0,
        16,
        "TiCDC captures `cdc-1..cdc-N` (0 = no TiCDC); with captures there are also `mysql-1` and the workload client `client-1`.",
    );
    /// `topology.kafka_brokers`.
    pub const KAFKA_BROKERS: Knob = Knob::count(
        "topology.kafka_brokers",
        0,
        0,
        16,
        "Kafka brokers `kafka-1..kafka-N` (0 = no Kafka).",
    );
    /// `workload.txns_per_sec`.
    pub const TXNS_PER_SEC: Knob = Knob::count(
        "workload.txns_per_sec",
        0,
        0,
        10_000,
        "sysbench-like transactions per simulated second, replicated by TiCDC (0 = none).",
    );
    /// `workload.tables`.
    pub const TABLES: Knob = Knob::count(
        "workload.tables",
        4,
        1,
        1_000,
        "Tables `sbtest1..sbtestN`, laid out in key order over the regions.",
    );
    /// `workload.large_txn_every`.
    pub const LARGE_TXN_EVERY: Knob = Knob::count(
        "workload.large_txn_every",
        0,
        0,
        1_000_000,
        "Every Nth transaction is a large one: its first keys stay locked while the rest of its prewrite takes `workload.large_txn_prewrite`, holding resolved ts back (0 = none).",
    );
    /// `workload.large_txn_prewrite`.
    pub const LARGE_TXN_PREWRITE: Knob = Knob::duration(
        "workload.large_txn_prewrite",
        secs(30),
        millis(1),
        secs(3_600),
        "How long a large transaction's prewrite of its other keys takes after its first keys are locked (not modelled key by key).",
    );
    /// Most rows over all tables: the ground truth and each downstream copy live in memory.
    pub const MAX_TOTAL_ROWS: u32 = 1_000_000;
    /// `workload.rows_per_table`.
    pub const ROWS_PER_TABLE: Knob = Knob::count(
        "workload.rows_per_table",
        100,
        1,
        MAX_TOTAL_ROWS,
        "Rows per table; tables x rows must stay within 1,000,000.",
    );
    /// `cdc.min_ts_interval`.
    pub const MIN_TS_INTERVAL: Knob = Knob::duration(
        "cdc.min_ts_interval",
        secs(1),
        millis(10),
        secs(600),
        "TiKV `cdc.min-ts-interval`: how often leaders compute and send resolved ts (TiKV: 1s).",
    );
    /// `cdc.owner_tick`.
    pub const OWNER_TICK: Knob = Knob::duration(
        "cdc.owner_tick",
        millis(50),
        millis(1),
        secs(60),
        "Owner and processor tick (TiCDC: 50ms).",
    );
    /// `cdc.redo_flush_interval`.
    pub const REDO_FLUSH_INTERVAL: Knob = Knob::duration(
        "cdc.redo_flush_interval",
        secs(2),
        millis(10),
        secs(600),
        "Redo meta flush interval, `consistent.flush-interval` (TiCDC: 2s).",
    );
    /// `cdc.mysql_write_latency`.
    pub const MYSQL_WRITE_LATENCY: Knob = Knob::duration(
        "cdc.mysql_write_latency",
        millis(5),
        SimDuration::from_micros(1),
        secs(60),
        "Downstream MySQL write latency per batch (a model parameter).",
    );
    /// `cdc.mysql_worker_count`.
    pub const MYSQL_WORKER_COUNT: Knob = Knob::count(
        "cdc.mysql_worker_count",
        16,
        1,
        1024,
        "Connections each capture's MySQL sink writes a changefeed through, `worker-count` in the sink URI (TiCDC: 16).",
    );
    /// `cdc.kafka_partitions`.
    pub const KAFKA_PARTITIONS: Knob = Knob::count(
        "cdc.kafka_partitions",
        3,
        1,
        64,
        "Partitions of each Kafka changefeed's topic (`partition-num`).",
    );
    /// `cdc.kafka_timeout`.
    pub const KAFKA_TIMEOUT: Knob = Knob::duration(
        "cdc.kafka_timeout",
        secs(10),
        millis(1),
        secs(600),
        "sarama dial/read/write timeout: a send waits this long for an ack, a client close blocks this long with no broker (TiCDC: 10s).",
    );

    /// Every TiCDC knob, in the order of the format reference.
    pub const ALL: &[Knob] = &[
        CAPTURES,
        KAFKA_BROKERS,
        TXNS_PER_SEC,
        TABLES,
        ROWS_PER_TABLE,
        LARGE_TXN_EVERY,
        LARGE_TXN_PREWRITE,
        MIN_TS_INTERVAL,
        OWNER_TICK,
        REDO_FLUSH_INTERVAL,
        MYSQL_WRITE_LATENCY,
        MYSQL_WORKER_COUNT,
        KAFKA_PARTITIONS,
        KAFKA_TIMEOUT,
    ];
}

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

/// tiflow#4241 toggle: how a failed changefeed's Kafka producer is closed, by the owner (its
/// DDL sink) and by each processor manager (its sink manager).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SinkClose {
    /// Buggy (v5.4.0, v6.0.0 `cdc/sink/mq.go` `(*mqSink).Close`: `k.mqProducer.Close()`): the
    /// owner and the processor manager wait inside their tick for the producer's clients to
    /// close, one after another.
    Sync,
    /// Fixed as shipped (tiflow#5186, v5.4.1 `(*mqSink).Close`: `go k.mqProducer.Close()`,
    /// then `return nil`): the close runs in the background and the sink counts as closed at
    /// once. There is no Closing state, so a retry after the backoff may start a second
    /// producer while the first still closes.
    #[default]
    Async,
    /// The design of tiflow#4249, never merged: the close runs in the background and the sink
    /// is `Closing` until it is done; nobody re-initialises or closes it again meanwhile.
    AsyncClosingState,
}

impl SinkClose {
    /// True when the caller waits for the close inside its tick.
    pub fn blocks(self) -> bool {
        self == SinkClose::Sync
    }

    /// True when the sink stays `Closing` until its producer is closed (sync, and the #4249
    /// design); false when it counts as closed as soon as the close starts (as shipped).
    pub fn has_closing_state(self) -> bool {
        self != SinkClose::Async
    }
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
            brokers: knobs::KAFKA_BROKERS.default_count(),
            partitions: knobs::KAFKA_PARTITIONS.default_count(),
            timeout: knobs::KAFKA_TIMEOUT.default_duration(),
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
    /// Every Nth transaction is large (0 = none).
    pub large_txn_every: u32,
    /// How long a large transaction's prewrite goes on after its first keys are locked.
    pub large_txn_prewrite: SimDuration,
}

impl Default for WorkloadConfig {
    fn default() -> Self {
        WorkloadConfig {
            kind: WorkloadKind::default(),
            txns_per_sec: knobs::TXNS_PER_SEC.default_count(),
            tables: knobs::TABLES.default_count(),
            rows_per_table: knobs::ROWS_PER_TABLE.default_count(),
            stop_at: None,
            large_txn_every: knobs::LARGE_TXN_EVERY.default_count(),
            large_txn_prewrite: knobs::LARGE_TXN_PREWRITE.default_duration(),
        }
    }
}

impl WorkloadConfig {
    /// Transaction `id` is a large one: every `large_txn_every`th.
    pub fn is_large_txn(&self, id: u64) -> bool {
        self.large_txn_every > 0 && id.is_multiple_of(u64::from(self.large_txn_every))
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
    /// Connections per capture and MySQL changefeed: 16.
    pub mysql_worker_count: u32,
    /// Wait before re-requesting a region whose NotLeader named no leader, or whose leader PD
    /// does not know: 500 ms, the model's own number. tiflow asks again at once and loops
    /// through PD's region cache (`cdc/kv/shared_client.go` `doHandleError`); the model
    /// stands that loop in with one wait (docs/model.md).
    pub region_retry_backoff: SimDuration,
    /// gRPC keepalive of the Go clients, TiCDC's KV client and the workload's client-go
    /// (tiflow `cdc/kv/sharedconn/conn_and_client.go` and client-go `config/client.go`, both
    /// `Time` 10 s and `Timeout` 3 s): a connection that heard nothing for `time` pings, and
    /// breaks when the ping's answer has not come within `timeout`.
    pub grpc_keepalive: GrpcKeepalive,
    /// tiflow#4241 toggle.
    pub sink_close: SinkClose,
    /// Kafka brokers and producer.
    pub kafka: KafkaConfig,
    /// Retry of failed changefeeds.
    pub backoff: BackoffConfig,
    /// Capture sessions, owner election, scheduler v3 and the tiflow#9344 toggles.
    pub session: crate::etcd::SessionConfig,
}

/// A Go gRPC client's keepalive parameters (`keepalive.ClientParameters`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GrpcKeepalive {
    /// `Time`: silence before a ping.
    pub time: SimDuration,
    /// `Timeout`: how long the ping's answer may take.
    pub timeout: SimDuration,
}

impl Default for GrpcKeepalive {
    fn default() -> Self {
        GrpcKeepalive {
            time: SimDuration::from_secs(10),
            timeout: SimDuration::from_secs(3),
        }
    }
}

impl GrpcKeepalive {
    /// How long after its peer fell silent a connection breaks: `time` then `timeout`.
    /// Simplified: the connection is taken to have heard its peer last at the moment of the
    /// fault, which holds under steady traffic (TiKV sends a CDC stream resolved ts every
    /// second; the workload's answers come many times a second).
    pub fn breaks_after(self) -> SimDuration {
        SimDuration(self.time.0 + self.timeout.0)
    }
}

impl Default for CdcConfig {
    fn default() -> Self {
        CdcConfig {
            captures: knobs::CAPTURES.default_count(),
            changefeeds: Vec::new(),
            workload: WorkloadConfig::default(),
            kv_client_evict: KvClientEvict::default(),
            min_ts_interval: knobs::MIN_TS_INTERVAL.default_duration(),
            owner_tick: knobs::OWNER_TICK.default_duration(),
            redo_flush_interval: knobs::REDO_FLUSH_INTERVAL.default_duration(),
            redo_stuck_warning: SimDuration::from_secs(20),
            mysql_write_latency: knobs::MYSQL_WRITE_LATENCY.default_duration(),
            mysql_worker_count: knobs::MYSQL_WORKER_COUNT.default_count(),
            region_retry_backoff: SimDuration::from_millis(500),
            grpc_keepalive: GrpcKeepalive::default(),
            sink_close: SinkClose::default(),
            kafka: KafkaConfig::default(),
            backoff: BackoffConfig::default(),
            session: crate::etcd::SessionConfig::default(),
        }
    }
}
