//! Scenario format v1: the serde types behind a scenario TOML file.
//!
//! Every field has a default taken from TiKV 7.x (MODEL.md), so a file only states what
//! differs. `docs/scenario-format.md` documents the format for users; keep the two in step.
//! Field order here is the canonical order of the binary form used in share links: append new
//! fields at the end of a struct and bump the link version when changing existing ones.

use serde::{Deserialize, Serialize};

use crate::dur::Dur;
use crate::unit_enum::unit_enum_deserialize;

/// A complete, shareable scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Title shown in the gallery.
    pub name: String,
    /// What happens and what to watch; the first line is the one-line story.
    #[serde(default)]
    pub description: String,
    /// Upstream issue this scenario reproduces, e.g. `tikv/tikv#14547`.
    #[serde(default)]
    pub issue: Option<String>,
    /// Seed of every random stream of the run.
    #[serde(default)]
    pub seed: u64,
    /// How long the run lasts in simulated time.
    pub duration: Dur,
    /// Nodes.
    #[serde(default)]
    pub topology: Topology,
    /// raftstore timing.
    #[serde(default)]
    pub raft: RaftParams,
    /// Hibernate regions.
    #[serde(default)]
    pub hibernate: HibernateParams,
    /// PD.
    #[serde(default)]
    pub pd: PdParams,
    /// Base network latency.
    #[serde(default)]
    pub network: NetworkParams,
    /// Each bug's buggy/fixed switch.
    #[serde(default)]
    pub toggles: Toggles,
    /// Upstream writes.
    #[serde(default)]
    pub workload: Workload,
    /// The fault script.
    #[serde(default)]
    pub faults: Vec<FaultSpec>,
    /// Checks over metrics and the log.
    #[serde(default)]
    pub expect: Vec<Expectation>,
    /// Narrated captions for guided playback.
    #[serde(default)]
    pub guide: Vec<GuideStep>,
    /// TiCDC changefeeds (need `topology.captures >= 1`).
    #[serde(default)]
    pub changefeeds: Vec<ChangefeedSpec>,
    /// TiCDC timing.
    #[serde(default)]
    pub cdc: CdcParams,
}

/// A TiCDC changefeed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChangefeedSpec {
    /// Changefeed id, e.g. `cf-1`.
    pub id: String,
    /// Where it writes.
    #[serde(default)]
    pub sink: SinkKind,
    /// `consistent.level = "eventual"`: keep a redo log.
    #[serde(default)]
    pub redo: bool,
    /// Replicate only the first N tables (default: all).
    #[serde(default)]
    pub tables: Option<u32>,
    /// For `sink = "kafka"`: the message encoding.
    #[serde(default)]
    pub protocol: KafkaProtocol,
}

impl ChangefeedSpec {
    /// A changefeed `id` with every other field at its file default (as if the TOML had only
    /// `id = "…"`), for building one without the parser.
    pub fn new(id: impl Into<String>) -> ChangefeedSpec {
        ChangefeedSpec {
            id: id.into(),
            sink: SinkKind::default(),
            redo: false,
            tables: None,
            protocol: KafkaProtocol::default(),
        }
    }
}

/// Kafka message encodings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum KafkaProtocol {
    /// TiCDC Open Protocol.
    #[default]
    OpenProtocol,
    /// Canal-JSON with the TiDB extension (commit ts and watermarks).
    CanalJson,
}

unit_enum_deserialize!(KafkaProtocol { OpenProtocol = "open_protocol", CanalJson = "canal_json" });

/// Sink types.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SinkKind {
    /// Downstream MySQL (`mysql-1`).
    #[default]
    Mysql,
    /// A Kafka topic named after the changefeed, on `kafka-1..N` (needs
    /// `topology.kafka_brokers >= 1`).
    Kafka,
}

unit_enum_deserialize!(SinkKind { Mysql = "mysql", Kafka = "kafka" });

/// TiCDC timing (TiCDC 7.x defaults).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CdcParams {
    /// TiKV `cdc.min-ts-interval`: how often leaders send resolved ts.
    pub min_ts_interval: Dur,
    /// Owner and processor tick.
    pub owner_tick: Dur,
    /// Redo meta flush interval.
    pub redo_flush_interval: Dur,
    /// Downstream write latency per batch.
    pub mysql_write_latency: Dur,
    /// Partitions of each Kafka changefeed's topic.
    pub kafka_partitions: u32,
    /// Sarama dial / read / write timeout: a send waits this long for an ack, and one
    /// producer client's close blocks this long while no broker answers.
    pub kafka_timeout: Dur,
}

impl Default for CdcParams {
    fn default() -> Self {
        CdcParams {
            min_ts_interval: Dur::secs(1),
            owner_tick: Dur::millis(50),
            redo_flush_interval: Dur::secs(2),
            mysql_write_latency: Dur::millis(5),
            kafka_partitions: 3,
            kafka_timeout: Dur::secs(10),
        }
    }
}

/// Which nodes exist. PD is always `pd-1`; stores are `tikv-1..tikv-N`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Topology {
    /// TiKV stores.
    pub stores: u32,
    /// Regions in the key space.
    pub regions: u32,
    /// Peers per region.
    pub replicas: u32,
    /// TiCDC captures `cdc-1..cdc-N` (0 = no TiCDC). With captures there is also `mysql-1`.
    pub captures: u32,
    /// Kafka brokers `kafka-1..kafka-N` (0 = no Kafka).
    pub kafka_brokers: u32,
}

impl Default for Topology {
    fn default() -> Self {
        Topology {
            stores: 3,
            regions: 16,
            replicas: 3,
            captures: 0,
            kafka_brokers: 0,
        }
    }
}

/// raftstore timing (TiKV defaults).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RaftParams {
    /// `raft-base-tick-interval`.
    pub base_tick: Dur,
    /// `raft-heartbeat-ticks`.
    pub heartbeat_ticks: u32,
    /// `raft-election-timeout-ticks` (randomised in [n, 2n)).
    pub election_ticks: u32,
    /// Pre-vote.
    pub prevote: bool,
    /// Check-quorum.
    pub check_quorum: bool,
    /// `raft-store-max-leader-lease`.
    pub leader_lease: Dur,
}

impl Default for RaftParams {
    fn default() -> Self {
        RaftParams {
            base_tick: Dur::secs(1),
            heartbeat_ticks: 2,
            election_ticks: 10,
            prevote: true,
            check_quorum: true,
            leader_lease: Dur::secs(9),
        }
    }
}

/// Hibernate regions (TiKV defaults).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct HibernateParams {
    /// `hibernate-regions`.
    pub enabled: bool,
    /// `peer-stale-state-check-interval`.
    pub peer_stale_state_check_interval: Dur,
    /// `abnormal-leader-missing-duration`.
    pub abnormal_leader_missing_duration: Dur,
    /// `max-leader-missing-duration`.
    pub max_leader_missing_duration: Dur,
    /// Backoff between StoreUnreachable broadcasts.
    pub unreachable_backoff: Dur,
}

impl Default for HibernateParams {
    fn default() -> Self {
        HibernateParams {
            enabled: true,
            peer_stale_state_check_interval: Dur::secs(300),
            abnormal_leader_missing_duration: Dur::secs(600),
            max_leader_missing_duration: Dur::secs(7200),
            unreachable_backoff: Dur::secs(10),
        }
    }
}

/// PD (defaults).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PdParams {
    /// Store heartbeat interval.
    pub store_heartbeat: Dur,
    /// Region heartbeat interval.
    pub region_heartbeat: Dur,
    /// A store silent this long is Down and its replicas are rebuilt.
    pub max_peer_down_duration: Dur,
    /// Balance leaders across stores.
    pub leader_balance: bool,
}

impl Default for PdParams {
    fn default() -> Self {
        PdParams {
            store_heartbeat: Dur::secs(10),
            region_heartbeat: Dur::secs(60),
            max_peer_down_duration: Dur::secs(600),
            leader_balance: true,
        }
    }
}

/// One-way latency of every message: uniform in `[delay_min, delay_max)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NetworkParams {
    /// Shortest one-way delay.
    pub delay_min: Dur,
    /// Longest one-way delay (exclusive).
    pub delay_max: Dur,
}

impl Default for NetworkParams {
    fn default() -> Self {
        NetworkParams {
            delay_min: Dur(500),
            delay_max: Dur(2_000),
        }
    }
}

/// Behaviour toggles: each modelled bug's buggy and fixed behaviour. Defaults are the fixed
/// (current upstream) behaviour.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Toggles {
    /// tikv#14547.
    #[serde(rename = "tikv.unreachable_broadcast")]
    pub tikv_unreachable_broadcast: UnreachableBroadcast,
    /// tiflow#9595.
    #[serde(rename = "cdc.kv_client_evict")]
    pub cdc_kv_client_evict: KvClientEvict,
    /// tiflow#4241.
    #[serde(rename = "cdc.sink_close")]
    pub cdc_sink_close: SinkClose,
    /// tiflow#9344: when a capture whose etcd session ended closes its processors.
    #[serde(rename = "cdc.processor_close_on_session_loss")]
    pub cdc_processor_close_on_session_loss: ProcessorCloseOnSessionLoss,
    /// tiflow#9344: how long the owner waits before removing a capture whose key vanished.
    #[serde(rename = "cdc.capture_remove_delay")]
    pub cdc_capture_remove_delay: CaptureRemoveDelay,
}

/// tiflow#9344: processor close on session loss.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProcessorCloseOnSessionLoss {
    /// Buggy (v7.3.0-alpha): only after every capture goroutine exits, which waits for the
    /// owner resign call to time out (5 s) while etcd is unreachable.
    Deferred,
    /// Fixed (tiflow#9396): as soon as the session is done. The default.
    #[default]
    Immediate,
}

unit_enum_deserialize!(ProcessorCloseOnSessionLoss {
    Deferred = "deferred",
    Immediate = "immediate",
});

/// tiflow#9344: the owner's delay before removing a vanished capture: `"0s"` (buggy) or
/// `"5s"` (fixed, max(TTL/2, 5 s); the default).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CaptureRemoveDelay(pub Dur);

impl Default for CaptureRemoveDelay {
    fn default() -> Self {
        CaptureRemoveDelay(Dur::secs(5))
    }
}

/// tiflow#4241: how a failed changefeed's sink (its Kafka producer) is closed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SinkClose {
    /// Buggy: the owner waits inside its loop for the producer's clients to close.
    Sync,
    /// Fixed (tiflow#5186): closed in the background; the sink shows `Closing` until done.
    /// The default, as in current TiCDC.
    #[default]
    Async,
}

unit_enum_deserialize!(SinkClose { Sync = "sync", Async = "async" });

/// tiflow#9595: when the KV client evicts a closing stream's regions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum KvClientEvict {
    /// Buggy (v7.4.0-alpha): when the region worker exits.
    OnWorkerExit,
    /// Fixed (tiflow#9597): after both loops joined, failing every pending region too. The
    /// default, as in current TiCDC.
    #[default]
    AfterJoin,
}

unit_enum_deserialize!(KvClientEvict { OnWorkerExit = "on_worker_exit", AfterJoin = "after_join" });

/// tikv#14547: how StoreUnreachable is broadcast.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum UnreachableBroadcast {
    /// Buggy: once per disconnect.
    OncePerDisconnect,
    /// Fixed (tikv#14574): again after the backoff if the store's messages kept arriving.
    /// The default, as in current TiKV; seed scenarios pick the buggy side explicitly.
    #[default]
    RepeatIfNewMessages,
}

unit_enum_deserialize!(UnreachableBroadcast {
    OncePerDisconnect = "once_per_disconnect",
    RepeatIfNewMessages = "repeat_if_new_messages",
});

/// Upstream writes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Workload {
    /// Raw Raft writes per simulated second, spread over regions (0 = idle cluster).
    pub writes_per_sec: u32,
    /// sysbench-like transactions (replicated by TiCDC).
    pub kind: WorkloadKind,
    /// Transactions per simulated second (0 = none).
    pub txns_per_sec: u32,
    /// Tables.
    pub tables: u32,
    /// Rows per table.
    pub rows_per_table: u32,
    /// Stop the transactions at this time (the finish mark for consistency checks).
    pub stop_at: Option<Dur>,
}

impl Default for Workload {
    fn default() -> Self {
        Workload {
            writes_per_sec: 0,
            kind: WorkloadKind::default(),
            txns_per_sec: 0,
            tables: 4,
            rows_per_table: 100,
            stop_at: None,
        }
    }
}

/// sysbench workload kinds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WorkloadKind {
    /// One UPDATE of a non-indexed column.
    #[default]
    OltpUpdateNonIndex,
    /// Two UPDATEs, a DELETE and an INSERT.
    OltpWriteOnly,
    /// One INSERT.
    Insert,
}

unit_enum_deserialize!(WorkloadKind {
    OltpUpdateNonIndex = "oltp_update_non_index",
    OltpWriteOnly = "oltp_write_only",
    Insert = "insert",
});

/// One step of the fault script.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FaultSpec {
    /// When, from the start of the run.
    pub at: Dur,
    /// What.
    pub action: FaultAction,
    /// Node name, comma-separated names, or a prefix glob such as `tikv-*`.
    pub target: String,
    /// For `partition`, `loss`, `delay`: the other side (default: every other node).
    #[serde(default)]
    pub peers: Option<String>,
    /// For `partition`, `loss`, `delay`: only from target to peers, not back.
    #[serde(default)]
    pub one_way: bool,
    /// For `loss`: percent of packets dropped (1..=100).
    #[serde(default)]
    pub loss_percent: Option<u32>,
    /// For `delay`: added one-way latency.
    #[serde(default)]
    pub delay: Option<Dur>,
    /// Undo the fault after this long (restart, resume or heal).
    #[serde(default)]
    pub duration: Option<Dur>,
}

/// Fault verbs, named as Chaos Mesh users know them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultAction {
    /// Kill the process (pod-kill).
    Kill,
    /// Start a killed process.
    Restart,
    /// Stall the process (pod-failure).
    Pause,
    /// Un-stall.
    Resume,
    /// Cut the network (network-partition).
    Partition,
    /// Restore links to healthy.
    Heal,
    /// Drop packets (network-loss).
    Loss,
    /// Add latency (network-delay).
    Delay,
    /// Operator: pause a changefeed (`target` is the changefeed id; `duration` resumes it).
    PauseChangefeed,
    /// Operator: resume a changefeed (`target` is the changefeed id).
    ResumeChangefeed,
    /// Operator: scale in: drain the capture's tables, then it leaves (`duration` adds it
    /// back). At `0s` the capture starts outside the cluster instead.
    RemoveCapture,
    /// Operator: scale out: the capture joins.
    AddCapture,
}

unit_enum_deserialize!(FaultAction {
    Kill = "kill",
    Restart = "restart",
    Pause = "pause",
    Resume = "resume",
    Partition = "partition",
    Heal = "heal",
    Loss = "loss",
    Delay = "delay",
    PauseChangefeed = "pause_changefeed",
    ResumeChangefeed = "resume_changefeed",
    RemoveCapture = "remove_capture",
    AddCapture = "add_capture",
});

impl FaultAction {
    /// Every action, for error messages and the UI palette.
    pub const ALL: [FaultAction; 12] = [
        FaultAction::Kill,
        FaultAction::Restart,
        FaultAction::Pause,
        FaultAction::Resume,
        FaultAction::Partition,
        FaultAction::Heal,
        FaultAction::Loss,
        FaultAction::Delay,
        FaultAction::PauseChangefeed,
        FaultAction::ResumeChangefeed,
        FaultAction::RemoveCapture,
        FaultAction::AddCapture,
    ];

    /// The name used in scenario files.
    pub fn name(self) -> &'static str {
        match self {
            FaultAction::Kill => "kill",
            FaultAction::Restart => "restart",
            FaultAction::Pause => "pause",
            FaultAction::Resume => "resume",
            FaultAction::Partition => "partition",
            FaultAction::Heal => "heal",
            FaultAction::Loss => "loss",
            FaultAction::Delay => "delay",
            FaultAction::PauseChangefeed => "pause_changefeed",
            FaultAction::ResumeChangefeed => "resume_changefeed",
            FaultAction::RemoveCapture => "remove_capture",
            FaultAction::AddCapture => "add_capture",
        }
    }

    /// True for operator actions on TiCDC (model actions, not kernel faults).
    pub fn is_operator(self) -> bool {
        matches!(
            self,
            FaultAction::PauseChangefeed
                | FaultAction::ResumeChangefeed
                | FaultAction::RemoveCapture
                | FaultAction::AddCapture
        )
    }
}

/// A check over a metric or the log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expectation {
    /// What this checks, in words.
    #[serde(default)]
    pub name: String,
    /// A metric series name (see docs/scenario-format.md for the list).
    #[serde(default)]
    pub metric: Option<String>,
    /// Instead of a metric: count log lines containing this text.
    #[serde(default)]
    pub log: Option<String>,
    /// How to combine samples in the window.
    #[serde(default)]
    pub agg: Agg,
    /// Start of the window (default: the start of the run).
    #[serde(default)]
    pub from: Option<Dur>,
    /// End of the window, or the instant for `agg = "last"` (default: the end of the run).
    #[serde(default)]
    pub to: Option<Dur>,
    /// Comparison.
    pub op: Cmp,
    /// Threshold.
    pub value: f64,
}

/// How samples in an expectation's window are combined.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Agg {
    /// The sample at `to`.
    #[default]
    Last,
    /// The largest sample.
    Max,
    /// The smallest sample.
    Min,
    /// Every sample must satisfy the comparison (the worst is reported).
    All,
    /// Some sample must satisfy it (the best is reported).
    Any,
}

unit_enum_deserialize!(Agg { Last = "last", Max = "max", Min = "min", All = "all", Any = "any" });

/// Comparison operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Cmp {
    /// Greater than.
    #[serde(rename = ">")]
    Gt,
    /// At least.
    #[serde(rename = ">=")]
    Ge,
    /// Less than.
    #[serde(rename = "<")]
    Lt,
    /// At most.
    #[serde(rename = "<=")]
    Le,
    /// Equal.
    #[serde(rename = "==")]
    Eq,
}

unit_enum_deserialize!(Cmp { Gt = ">", Ge = ">=", Lt = "<", Le = "<=", Eq = "==" });

impl Cmp {
    /// True when `observed <op> threshold`.
    pub fn holds(self, observed: f64, threshold: f64) -> bool {
        match self {
            Cmp::Gt => observed > threshold,
            Cmp::Ge => observed >= threshold,
            Cmp::Lt => observed < threshold,
            Cmp::Le => observed <= threshold,
            Cmp::Eq => observed == threshold,
        }
    }

    /// The operator as written in files.
    pub fn symbol(self) -> &'static str {
        match self {
            Cmp::Gt => ">",
            Cmp::Ge => ">=",
            Cmp::Lt => "<",
            Cmp::Le => "<=",
            Cmp::Eq => "==",
        }
    }
}

/// A narrated caption for guided playback.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GuideStep {
    /// When the caption applies.
    pub at: Dur,
    /// What to watch.
    pub caption: String,
}
