//! Wires a scenario into a runnable `World`: the TiKV/PD model, the network, and the fault
//! script as kernel events.

use faultline_cdc::{CdcConfig, ChangefeedConfig, SinkType, Stack};
use faultline_sim::{Fault, LinkChange, Network, NodeId, SimDuration, World};
use faultline_tikv::TikvConfig;

use crate::format::{
    FaultAction, FaultSpec, KafkaProtocol, KvClientEvict, ProcessorCloseOnSessionLoss, Scenario,
    SinkClose, SinkKind, UnreachableBroadcast, WorkloadKind,
};
use crate::nodes::{node_names, resolve};

/// The simulated world of a scenario: TiKV + PD + TiCDC.
pub type SimWorld = World<Stack>;

/// Metrics are sampled once per simulated second.
pub const SAMPLE_EVERY: SimDuration = SimDuration::from_secs(1);

/// Maps scenario parameters onto the TiKV model's configuration.
pub fn tikv_config(s: &Scenario) -> TikvConfig {
    let mut c = TikvConfig {
        stores: s.topology.stores,
        regions: s.topology.regions,
        replicas: s.topology.replicas,
        ..TikvConfig::default()
    };
    c.raft.base_tick = s.raft.base_tick.to_sim();
    c.raft.heartbeat_ticks = s.raft.heartbeat_ticks;
    c.raft.election_ticks = s.raft.election_ticks;
    c.raft.prevote = s.raft.prevote;
    c.raft.check_quorum = s.raft.check_quorum;
    c.raft.leader_lease = s.raft.leader_lease.to_sim();
    let h = &s.hibernate;
    c.hibernate.enabled = h.enabled;
    c.hibernate.peer_stale_state_check_interval = h.peer_stale_state_check_interval.to_sim();
    c.hibernate.abnormal_leader_missing_duration = h.abnormal_leader_missing_duration.to_sim();
    c.hibernate.max_leader_missing_duration = h.max_leader_missing_duration.to_sim();
    c.hibernate.unreachable_backoff = h.unreachable_backoff.to_sim();
    c.pd.store_heartbeat = s.pd.store_heartbeat.to_sim();
    c.pd.region_heartbeat = s.pd.region_heartbeat.to_sim();
    c.pd.max_peer_down_duration = s.pd.max_peer_down_duration.to_sim();
    c.pd.leader_balance = s.pd.leader_balance;
    c.unreachable_broadcast = match s.toggles.tikv_unreachable_broadcast {
        UnreachableBroadcast::OncePerDisconnect => {
            faultline_tikv::UnreachableBroadcast::OncePerDisconnect
        }
        UnreachableBroadcast::RepeatIfNewMessages => {
            faultline_tikv::UnreachableBroadcast::RepeatIfNewMessages
        }
    };
    c.load.writes_per_sec = s.workload.writes_per_sec;
    c
}

/// Maps scenario parameters onto the TiCDC model's configuration.
pub fn cdc_config(s: &Scenario) -> CdcConfig {
    let w = &s.workload;
    let mut c = CdcConfig {
        captures: s.topology.captures,
        changefeeds: s
            .changefeeds
            .iter()
            .map(|cf| ChangefeedConfig {
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
            })
            .collect(),
        kv_client_evict: match s.toggles.cdc_kv_client_evict {
            KvClientEvict::OnWorkerExit => faultline_cdc::KvClientEvict::OnWorkerExit,
            KvClientEvict::AfterJoin => faultline_cdc::KvClientEvict::AfterJoin,
        },
        ..CdcConfig::default()
    };
    c.workload.kind = match w.kind {
        WorkloadKind::OltpUpdateNonIndex => faultline_cdc::WorkloadKind::OltpUpdateNonIndex,
        WorkloadKind::OltpWriteOnly => faultline_cdc::WorkloadKind::OltpWriteOnly,
        WorkloadKind::Insert => faultline_cdc::WorkloadKind::Insert,
    };
    c.workload.txns_per_sec = w.txns_per_sec;
    c.workload.tables = w.tables;
    c.workload.rows_per_table = w.rows_per_table;
    c.workload.stop_at = w.stop_at.map(|d| d.to_sim());
    c.min_ts_interval = s.cdc.min_ts_interval.to_sim();
    c.owner_tick = s.cdc.owner_tick.to_sim();
    c.redo_flush_interval = s.cdc.redo_flush_interval.to_sim();
    c.mysql_write_latency = s.cdc.mysql_write_latency.to_sim();
    c.sink_close = match s.toggles.cdc_sink_close {
        SinkClose::Sync => faultline_cdc::SinkClose::Sync,
        SinkClose::Async => faultline_cdc::SinkClose::Async,
    };
    c.kafka.brokers = s.topology.kafka_brokers;
    c.kafka.partitions = s.cdc.kafka_partitions;
    c.kafka.timeout = s.cdc.kafka_timeout.to_sim();
    c.session.processor_close = match s.toggles.cdc_processor_close_on_session_loss {
        ProcessorCloseOnSessionLoss::Deferred => faultline_cdc::etcd::ProcessorClose::Deferred,
        ProcessorCloseOnSessionLoss::Immediate => faultline_cdc::etcd::ProcessorClose::Immediate,
    };
    c.session.capture_remove_delay = s.toggles.cdc_capture_remove_delay.0.to_sim();
    c.session.initially_absent = crate::actions::initially_absent(s);
    c
}

/// Builds the world at time zero with the fault script scheduled. The scenario must have
/// passed validation (targets resolve).
pub fn build_world(s: &Scenario) -> SimWorld {
    let mut net = Network::new((s.network.delay_min.to_sim(), s.network.delay_max.to_sim()));
    let stack = Stack::new(&tikv_config(s), &cdc_config(s), &mut net, s.seed);
    let names = node_names(s);
    let mut world = World::new(stack, s.seed, net, SAMPLE_EVERY);
    for spec in &s.faults {
        for (at, fault) in kernel_faults(spec, &names, world.network()) {
            world.kernel.schedule_fault(at.to_time(), fault);
        }
        if let Some(pd) = world.network().find("pd-1") {
            for (at, a) in crate::actions::operator_actions(spec, s) {
                let after = faultline_sim::SimDuration(at.to_sim().0);
                world
                    .kernel
                    .set_timer(pd, after, crate::actions::action_timer(a));
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
    let links = |change| Fault::Links {
        from: targets.clone(),
        to: peers.clone(),
        both_ways: !spec.one_way,
        change,
    };
    let per_node = |f: fn(NodeId) -> Fault| targets.iter().map(|n| f(*n)).collect::<Vec<_>>();
    let (now, undo): (Vec<Fault>, Vec<Fault>) = match spec.action {
        FaultAction::Kill => (per_node(Fault::Crash), per_node(Fault::Restart)),
        FaultAction::Restart => (per_node(Fault::Restart), vec![]),
        FaultAction::Pause => (per_node(Fault::Pause), per_node(Fault::Resume)),
        FaultAction::Resume => (per_node(Fault::Resume), vec![]),
        FaultAction::Partition => (
            vec![links(LinkChange::Cut)],
            vec![links(LinkChange::Restore)],
        ),
        FaultAction::Heal => (vec![links(LinkChange::Restore)], vec![]),
        FaultAction::Loss => {
            let ppm = spec.loss_percent.unwrap_or(0).min(100) * 10_000;
            (
                vec![links(LinkChange::LossPpm(ppm))],
                vec![links(LinkChange::Restore)],
            )
        }
        FaultAction::Delay => {
            let d = spec.delay.unwrap_or_default().to_sim();
            (
                vec![links(LinkChange::Delay(d))],
                vec![links(LinkChange::Restore)],
            )
        }
        // Operator actions are model timers (`actions.rs`), not kernel faults.
        FaultAction::PauseChangefeed
        | FaultAction::ResumeChangefeed
        | FaultAction::RemoveCapture
        | FaultAction::AddCapture => (vec![], vec![]),
    };
    let mut out: Vec<_> = now.into_iter().map(|f| (spec.at, f)).collect();
    if let Some(d) = spec.duration {
        let at = crate::dur::Dur(spec.at.0.saturating_add(d.0));
        out.extend(undo.into_iter().map(|f| (at, f)));
    }
    out
}
