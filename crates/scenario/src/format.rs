//! Scenario format v1: the serde types behind a scenario TOML file.
//!
//! Every field has a default (TiKV 7.x / TiCDC 7.x), so a file only states what differs. The
//! parameter sections are generated from the owning crates' knobs (`params.rs`);
//! `docs/scenario-format.md` is generated from the same definitions (`reference.rs`).
//! Field order here is the canonical order of the binary form used in share links: append new
//! fields at the end of a struct and bump the link version when changing existing ones.

use serde::{Deserialize, Serialize};

use crate::dur::Dur;
pub use crate::expectation::{Agg, Cmp, Expectation};
pub use crate::fault_action::FaultAction;
pub use crate::fault_spec::FaultSpec;
pub use crate::guide::{GuideStep, GuideTab, ViewSpec};
pub use crate::params::{
    CdcParams, HibernateParams, NetworkParams, PdParams, RaftParams, Topology, Workload,
    WorkloadKind,
};
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
    /// Which charts tell the story first.
    #[serde(default)]
    pub view: ViewSpec,
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
    /// Fixed as shipped (tiflow#5186): closed in the background, no Closing state; a retry
    /// may start a second producer while the first still closes. The default, as in TiCDC.
    #[default]
    Async,
    /// The tiflow#4249 design, never merged: closed in the background, the sink shows
    /// `Closing` until done and is not re-initialised meanwhile. Before model version 4,
    /// `"async"` meant this.
    AsyncClosingState,
}

unit_enum_deserialize!(SinkClose {
    Sync = "sync",
    Async = "async",
    AsyncClosingState = "async_closing_state",
});

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
    /// Buggy (v6.4 to 7.1): once per disconnect.
    OncePerDisconnect,
    /// Fixed (tikv#14574): again after the backoff if the store's messages kept arriving.
    /// The default, as in current TiKV; seed scenarios pick the buggy side explicitly.
    #[default]
    RepeatIfNewMessages,
    /// Before tikv#13677 (v6.3 and older): after every failed connection attempt. Last, so
    /// that v1 links, which store a variant by its index, decode as they always did.
    EveryFailedAttempt,
}

unit_enum_deserialize!(UnreachableBroadcast {
    OncePerDisconnect = "once_per_disconnect",
    RepeatIfNewMessages = "repeat_if_new_messages",
    EveryFailedAttempt = "every_failed_attempt",
});
