//! Wires a scenario into a runnable `World`: the TiKV/PD model, the network, and the fault
//! script as kernel events.

use faultline_cdc::{CdcConfig, ChangefeedConfig, SinkType, Stack};
use faultline_sim::{Fault, Network, NodeId, SimDuration, World};
use faultline_tikv::TikvConfig;

use crate::fault_spec::FaultSpec;
use crate::format::{
    KafkaProtocol, KvClientEvict, ProcessorCloseOnSessionLoss, Scenario, SinkClose, SinkKind,
    UnreachableBroadcast, WorkloadKind,
};
use crate::nodes::{node_names, resolve};
use crate::section::ModelConfigs;
use crate::verbs::link_targets::LinkTargets;
use crate::verbs::remove_capture::initially_absent;
use crate::verbs::steps::at_and_undo;

/// The simulated world of a scenario: TiKV + PD + TiCDC.
pub type SimWorld = World<Stack>;

/// Metrics are sampled once per simulated second.
pub const SAMPLE_EVERY: SimDuration = SimDuration::from_secs(1);

/// Maps scenario parameters onto the TiKV model's configuration.
pub fn tikv_config(s: &Scenario) -> TikvConfig {
    model_configs(s).tikv
}

/// Maps scenario parameters onto the TiCDC model's configuration.
pub fn cdc_config(s: &Scenario) -> CdcConfig {
    model_configs(s).cdc
}

/// Both model configs: every knob section copies itself (`params.rs`), then the toggles,
/// the changefeeds and the enums, whose model types differ from the format's, are mapped here.
pub fn model_configs(s: &Scenario) -> ModelConfigs {
    let mut cfg = ModelConfigs {
        tikv: TikvConfig::default(),
        cdc: CdcConfig::default(),
    };
    s.topology.apply(&mut cfg);
    s.raft.apply(&mut cfg);
    s.hibernate.apply(&mut cfg);
    s.pd.apply(&mut cfg);
    s.workload.apply(&mut cfg);
    s.cdc.apply(&mut cfg);
    map_toggles(s, &mut cfg);
    // One `workload.stop_at` stops both loads: the transactions and the TiKV-only writes.
    cfg.tikv.load.stop_at = s.workload.stop_at.map(|d| d.to_sim());
    let c = &mut cfg.cdc;
    c.changefeeds = s.changefeeds.iter().map(changefeed_config).collect();
    c.workload.kind = match s.workload.kind {
        WorkloadKind::OltpUpdateNonIndex => faultline_cdc::WorkloadKind::OltpUpdateNonIndex,
        WorkloadKind::OltpWriteOnly => faultline_cdc::WorkloadKind::OltpWriteOnly,
        WorkloadKind::Insert => faultline_cdc::WorkloadKind::Insert,
    };
    c.session.initially_absent = initially_absent(s);
    cfg
}

fn changefeed_config(cf: &crate::format::ChangefeedSpec) -> ChangefeedConfig {
    ChangefeedConfig {
        id: cf.id.clone(),
        tables: cf.tables,
        redo: cf.redo,
        sink: match (cf.sink, cf.protocol) {
            (SinkKind::Mysql, _) => SinkType::Mysql,
            (SinkKind::Kafka, KafkaProtocol::OpenProtocol) => {
                SinkType::Kafka(faultline_cdc::KafkaProtocol::OpenProtocol)
            }
            (SinkKind::Kafka, KafkaProtocol::CanalJson) => {
                SinkType::Kafka(faultline_cdc::KafkaProtocol::CanalJson)
            }
        },
    }
}

/// Each bug toggle onto the model's own enum for it.
fn map_toggles(s: &Scenario, cfg: &mut ModelConfigs) {
    let t = &s.toggles;
    cfg.tikv.unreachable_broadcast = match t.tikv_unreachable_broadcast {
        UnreachableBroadcast::EveryFailedAttempt => {
            faultline_tikv::UnreachableBroadcast::EveryFailedAttempt
        }
        UnreachableBroadcast::OncePerDisconnect => {
            faultline_tikv::UnreachableBroadcast::OncePerDisconnect
        }
        UnreachableBroadcast::RepeatIfNewMessages => {
            faultline_tikv::UnreachableBroadcast::RepeatIfNewMessages
        }
    };
    let c = &mut cfg.cdc;
    c.kv_client_evict = match t.cdc_kv_client_evict {
        KvClientEvict::OnWorkerExit => faultline_cdc::KvClientEvict::OnWorkerExit,
        KvClientEvict::AfterJoin => faultline_cdc::KvClientEvict::AfterJoin,
    };
    c.sink_close = match t.cdc_sink_close {
        SinkClose::Sync => faultline_cdc::SinkClose::Sync,
        SinkClose::Async => faultline_cdc::SinkClose::Async,
        SinkClose::AsyncClosingState => faultline_cdc::SinkClose::AsyncClosingState,
    };
    c.session.processor_close = match t.cdc_processor_close_on_session_loss {
        ProcessorCloseOnSessionLoss::Deferred => faultline_cdc::etcd::ProcessorClose::Deferred,
        ProcessorCloseOnSessionLoss::Immediate => faultline_cdc::etcd::ProcessorClose::Immediate,
    };
    c.session.capture_remove_delay = t.cdc_capture_remove_delay.0.to_sim();
}

/// Builds the world at time zero with the fault script scheduled. The scenario must have
/// passed validation (targets resolve).
pub fn build_world(s: &Scenario) -> SimWorld {
    // The peers twice over: their copy-on-write chunks and the per-region state around them
    // (at full scale 196 MiB of peers, 413 MiB of wasm heap after the build).
    let peers = s.topology.regions as usize * s.topology.replicas as usize;
    faultline_sim::heap::reserve(
        peers * std::mem::size_of::<faultline_tikv::raft::state::Peer>() * 2,
    );
    let mut net = Network::new((s.network.delay_min.to_sim(), s.network.delay_max.to_sim()));
    let stack = Stack::new(&tikv_config(s), &cdc_config(s), &mut net, s.seed);
    let names = node_names(s);
    let mut world = World::new(stack, s.seed, net, SAMPLE_EVERY);
    for spec in &s.faults {
        for (at, fault) in kernel_faults(spec, &names, world.network()) {
            world.kernel.schedule_fault(at.to_time(), fault);
        }
        if let Some(pd) = world.network().find("pd-1") {
            for (at, timer) in spec.action.verb().timers(spec, s) {
                let after = faultline_sim::SimDuration(at.to_sim().0);
                world.kernel.set_timer(pd, after, timer);
            }
        }
    }
    world
}

/// The kernel faults one script step expands to, with their times (the fault, then its undo
/// after `duration`).
pub fn kernel_faults(
    spec: &FaultSpec,
    names: &[String],
    net: &Network,
) -> Vec<(crate::dur::Dur, Fault)> {
    let ids = |sel: &str| -> Vec<NodeId> {
        resolve(sel, names)
            .unwrap_or_default()
            .iter()
            .filter_map(|n| net.find(n))
            .collect()
    };
    let targets = ids(&spec.target);
    let peers: Vec<NodeId> = match &spec.peers {
        Some(p) => ids(p),
        None => (0..net.nodes().len() as u32)
            .map(NodeId)
            .filter(|n| !targets.contains(n))
            .collect(),
    };
    let t = LinkTargets {
        targets,
        peers,
        both_ways: !spec.one_way,
    };
    let (now, undo) = spec.action.verb().kernel_faults(spec, &t);
    at_and_undo(spec, now, undo)
}
