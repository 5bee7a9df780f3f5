//! Every layout the positional v1 link format (postcard in struct field order) had in this
//! repository's history, frozen here so that v1 links keep decoding while `format.rs` grows.
//!
//! v1 never changed its version number as fields were appended, so a v1 link is one of four
//! layouts, named after the commit that introduced them:
//! - `L0` (55a757d): the first format, no TiCDC;
//! - `L1` (ec94743): changefeeds, `[cdc]`, captures, the sysbench workload, `cdc.kv_client_evict`;
//! - `L2` (9c668a4): Kafka (sink kind, protocol, brokers, partitions, timeout), `cdc.sink_close`;
//! - `L3` (013daf5): the tiflow#9344 toggles and operator actions (appended enum variants).
//!
//! Field names equal the current format's, so a decoded layout re-encodes as a v2 scenario and
//! the fields it lacks take their current defaults. Never edit a layout: add one.

use serde::{Deserialize, Serialize};

use crate::dur::Dur;
use crate::format::{
    Agg, CaptureRemoveDelay, Cmp, FaultAction, KafkaProtocol, KvClientEvict,
    ProcessorCloseOnSessionLoss, SinkClose, SinkKind, UnreachableBroadcast, WorkloadKind,
};

/// The first layout's scenario (no TiCDC).
#[derive(Serialize, Deserialize)]
pub(crate) struct ScenarioL0 {
    name: String,
    description: String,
    issue: Option<String>,
    seed: u64,
    duration: Dur,
    topology: TopologyL0,
    raft: Raft,
    hibernate: Hibernate,
    pd: Pd,
    network: Network,
    toggles: TogglesL0,
    workload: WorkloadL0,
    faults: Vec<Fault>,
    expect: Vec<Expect>,
    guide: Vec<Guide>,
}

/// The scenario of layouts L1..L3, which differ only in the types named by the parameters.
#[derive(Serialize, Deserialize)]
pub(crate) struct ScenarioCdc<T, G, F, P> {
    name: String,
    description: String,
    issue: Option<String>,
    seed: u64,
    duration: Dur,
    topology: T,
    raft: Raft,
    hibernate: Hibernate,
    pd: Pd,
    network: Network,
    toggles: G,
    workload: Workload,
    faults: Vec<Fault>,
    expect: Vec<Expect>,
    guide: Vec<Guide>,
    changefeeds: Vec<F>,
    cdc: P,
}

pub(crate) type ScenarioL1 = ScenarioCdc<TopologyL1, TogglesL1, ChangefeedL1, CdcL1>;
pub(crate) type ScenarioL2 = ScenarioCdc<TopologyL2, TogglesL2, ChangefeedL2, CdcL2>;
pub(crate) type ScenarioL3 = ScenarioCdc<TopologyL2, TogglesL3, ChangefeedL2, CdcL2>;

#[derive(Serialize, Deserialize)]
pub(crate) struct TopologyL0 {
    stores: u32,
    regions: u32,
    replicas: u32,
}

#[derive(Serialize, Deserialize)]
pub(crate) struct TopologyL1 {
    stores: u32,
    regions: u32,
    replicas: u32,
    captures: u32,
}

#[derive(Serialize, Deserialize)]
pub(crate) struct TopologyL2 {
    stores: u32,
    regions: u32,
    replicas: u32,
    captures: u32,
    kafka_brokers: u32,
}

#[derive(Serialize, Deserialize)]
struct Raft {
    base_tick: Dur,
    heartbeat_ticks: u32,
    election_ticks: u32,
    prevote: bool,
    check_quorum: bool,
    leader_lease: Dur,
}

#[derive(Serialize, Deserialize)]
struct Hibernate {
    enabled: bool,
    peer_stale_state_check_interval: Dur,
    abnormal_leader_missing_duration: Dur,
    max_leader_missing_duration: Dur,
    unreachable_backoff: Dur,
}

#[derive(Serialize, Deserialize)]
struct Pd {
    store_heartbeat: Dur,
    region_heartbeat: Dur,
    max_peer_down_duration: Dur,
    leader_balance: bool,
}

#[derive(Serialize, Deserialize)]
struct Network {
    delay_min: Dur,
    delay_max: Dur,
}

#[derive(Serialize, Deserialize)]
pub(crate) struct TogglesL0 {
    #[serde(rename = "tikv.unreachable_broadcast")]
    unreachable_broadcast: UnreachableBroadcast,
}

#[derive(Serialize, Deserialize)]
pub(crate) struct TogglesL1 {
    #[serde(rename = "tikv.unreachable_broadcast")]
    unreachable_broadcast: UnreachableBroadcast,
    #[serde(rename = "cdc.kv_client_evict")]
    kv_client_evict: KvClientEvict,
}

#[derive(Serialize, Deserialize)]
pub(crate) struct TogglesL2 {
    #[serde(rename = "tikv.unreachable_broadcast")]
    unreachable_broadcast: UnreachableBroadcast,
    #[serde(rename = "cdc.kv_client_evict")]
    kv_client_evict: KvClientEvict,
    #[serde(rename = "cdc.sink_close")]
    sink_close: SinkClose,
}

#[derive(Serialize, Deserialize)]
pub(crate) struct TogglesL3 {
    #[serde(rename = "tikv.unreachable_broadcast")]
    unreachable_broadcast: UnreachableBroadcast,
    #[serde(rename = "cdc.kv_client_evict")]
    kv_client_evict: KvClientEvict,
    #[serde(rename = "cdc.sink_close")]
    sink_close: SinkClose,
    #[serde(rename = "cdc.processor_close_on_session_loss")]
    processor_close_on_session_loss: ProcessorCloseOnSessionLoss,
    #[serde(rename = "cdc.capture_remove_delay")]
    capture_remove_delay: CaptureRemoveDelay,
}

#[derive(Serialize, Deserialize)]
pub(crate) struct WorkloadL0 {
    writes_per_sec: u32,
}

#[derive(Serialize, Deserialize)]
struct Workload {
    writes_per_sec: u32,
    kind: WorkloadKind,
    txns_per_sec: u32,
    tables: u32,
    rows_per_table: u32,
    stop_at: Option<Dur>,
}

#[derive(Serialize, Deserialize)]
struct Fault {
    at: Dur,
    action: FaultAction,
    target: String,
    peers: Option<String>,
    one_way: bool,
    loss_percent: Option<u32>,
    delay: Option<Dur>,
    duration: Option<Dur>,
}

#[derive(Serialize, Deserialize)]
struct Expect {
    name: String,
    metric: Option<String>,
    log: Option<String>,
    agg: Agg,
    from: Option<Dur>,
    to: Option<Dur>,
    op: Cmp,
    value: f64,
}

#[derive(Serialize, Deserialize)]
struct Guide {
    at: Dur,
    caption: String,
}

#[derive(Serialize, Deserialize)]
pub(crate) struct ChangefeedL1 {
    id: String,
    sink: SinkKind,
    redo: bool,
    tables: Option<u32>,
}

#[derive(Serialize, Deserialize)]
pub(crate) struct ChangefeedL2 {
    id: String,
    sink: SinkKind,
    redo: bool,
    tables: Option<u32>,
    protocol: KafkaProtocol,
}

#[derive(Serialize, Deserialize)]
pub(crate) struct CdcL1 {
    min_ts_interval: Dur,
    owner_tick: Dur,
    redo_flush_interval: Dur,
    mysql_write_latency: Dur,
}

#[derive(Serialize, Deserialize)]
pub(crate) struct CdcL2 {
    min_ts_interval: Dur,
    owner_tick: Dur,
    redo_flush_interval: Dur,
    mysql_write_latency: Dur,
    kafka_partitions: u32,
    kafka_timeout: Dur,
}
