//! Wires a scenario into a runnable `World`: the TiKV/PD model, the network, and the fault
//! script as kernel events.

use faultline_sim::{Fault, LinkChange, Network, NodeId, SimDuration, World};
use faultline_tikv::{Cluster, TikvConfig};

use crate::format::{FaultAction, FaultSpec, Scenario, UnreachableBroadcast};
use crate::nodes::{node_names, resolve};

/// The simulated world of a scenario.
pub type SimWorld = World<Cluster>;

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

/// Builds the world at time zero with the fault script scheduled. The scenario must have
/// passed validation (targets resolve).
pub fn build_world(s: &Scenario) -> SimWorld {
    let mut net = Network::new((s.network.delay_min.to_sim(), s.network.delay_max.to_sim()));
    let cluster = Cluster::new(&tikv_config(s), &mut net);
    let names = node_names(s);
    let mut world = World::new(cluster, s.seed, net, SAMPLE_EVERY);
    for spec in &s.faults {
        for (at, fault) in kernel_faults(spec, &names, world.network()) {
            world.kernel.schedule_fault(at.to_time(), fault);
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
    };
    let mut out: Vec<_> = now.into_iter().map(|f| (spec.at, f)).collect();
    if let Some(d) = spec.duration {
        let at = crate::dur::Dur(spec.at.0.saturating_add(d.0));
        out.extend(undo.into_iter().map(|f| (at, f)));
    }
    out
}
