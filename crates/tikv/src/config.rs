//! Configuration of the TiKV/PD model, with TiKV 7.x defaults (see MODEL.md section 1).

use faultline_sim::SimDuration;

/// raftstore timing.
#[derive(Clone, Debug, PartialEq)]
pub struct RaftConfig {
    /// `raft-base-tick-interval`: 1 s.
    pub base_tick: SimDuration,
    /// `raft-heartbeat-ticks`: 2.
    pub heartbeat_ticks: u32,
    /// `raft-election-timeout-ticks`: 10; the timeout is randomised in [10, 20) ticks.
    pub election_ticks: u32,
    /// Pre-vote on.
    pub prevote: bool,
    /// Check-quorum on.
    pub check_quorum: bool,
    /// `raft-store-max-leader-lease`: 9 s.
    pub leader_lease: SimDuration,
    /// Time a received raft batch waits in the receiving store before its peers handle it
    /// (gRPC receive -> raftstore batch-system poll), drawn uniformly in `[min, max)` per batch.
    /// Under load this queueing is what lets a dead leader's last MsgAppend be handled after
    /// the StoreUnreachable broadcast (the tikv#14547 race).
    pub raftstore_delay: (SimDuration, SimDuration),
    /// Time for a surviving store's raft client to notice that the connection to a killed or
    /// cut-off store broke (stream error after the peer's TCP reset), drawn in `[min, max)`.
    pub conn_failure_detect: (SimDuration, SimDuration),
    /// Interval between the raft client's reconnect attempts to a broken store
    /// (`raft-client-max-backoff` is 5 s; simplified to a fixed interval).
    pub raft_client_backoff: SimDuration,
}

impl Default for RaftConfig {
    fn default() -> Self {
        RaftConfig {
            base_tick: SimDuration::from_secs(1),
            heartbeat_ticks: 2,
            election_ticks: 10,
            prevote: true,
            check_quorum: true,
            leader_lease: SimDuration::from_secs(9),
            raftstore_delay: (SimDuration::from_millis(1), SimDuration::from_millis(80)),
            conn_failure_detect: (SimDuration::from_millis(10), SimDuration::from_millis(50)),
            raft_client_backoff: SimDuration::from_secs(1),
        }
    }
}

/// Hibernate regions.
#[derive(Clone, Debug, PartialEq)]
pub struct HibernateConfig {
    /// `hibernate-regions`: on by default since 5.0.2.
    pub enabled: bool,
    /// `peer-stale-state-check-interval`: 5 min.
    pub peer_stale_state_check_interval: SimDuration,
    /// `abnormal-leader-missing-duration`: 10 min.
    pub abnormal_leader_missing_duration: SimDuration,
    /// `max-leader-missing-duration`: 2 h.
    pub max_leader_missing_duration: SimDuration,
    /// Minimum gap between two StoreUnreachable broadcasts for one store: 10 s.
    pub unreachable_backoff: SimDuration,
}

impl Default for HibernateConfig {
    fn default() -> Self {
        HibernateConfig {
            enabled: true,
            peer_stale_state_check_interval: SimDuration::from_secs(300),
            abnormal_leader_missing_duration: SimDuration::from_secs(600),
            max_leader_missing_duration: SimDuration::from_secs(7200),
            unreachable_backoff: SimDuration::from_secs(10),
        }
    }
}

/// PD scheduling and heartbeats.
#[derive(Clone, Debug, PartialEq)]
pub struct PdConfig {
    /// Store heartbeat interval: 10 s.
    pub store_heartbeat: SimDuration,
    /// Region heartbeat interval: 60 s.
    pub region_heartbeat: SimDuration,
    /// `max-store-down-time` / peer down duration: 10 min.
    pub max_peer_down_duration: SimDuration,
    /// Balance leaders across stores.
    pub leader_balance: bool,
    /// Leader transfers PD starts per second when balancing (`leader-schedule-limit` is 4).
    pub leader_transfers_per_sec: u32,
    /// Replicas of a Down store PD rebuilds per second (a rate, simplifying
    /// `replica-schedule-limit` concurrent operators).
    pub replica_replacements_per_sec: u32,
}

impl Default for PdConfig {
    fn default() -> Self {
        PdConfig {
            store_heartbeat: SimDuration::from_secs(10),
            region_heartbeat: SimDuration::from_secs(60),
            max_peer_down_duration: SimDuration::from_secs(600),
            leader_balance: true,
            leader_transfers_per_sec: 4,
            replica_replacements_per_sec: 200,
        }
    }
}

/// The tikv#14547 toggle: how often a store broadcasts `StoreUnreachable` for a dead store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum UnreachableBroadcast {
    /// Buggy: once per disconnect (at most once per backoff, never repeated).
    #[default]
    OncePerDisconnect,
    /// Fixed (tikv#14574): after the backoff, broadcast again if messages from that store
    /// arrived since the last broadcast.
    RepeatIfNewMessages,
}

/// A light write workload spread over regions.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct WriteLoad {
    /// Writes per simulated second over the whole cluster (0 = none).
    pub writes_per_sec: u32,
}

/// Everything the TiKV/PD model needs to build a cluster.
#[derive(Clone, Debug, PartialEq)]
pub struct TikvConfig {
    /// Number of TiKV stores (`tikv-1..tikv-N`).
    pub stores: u32,
    /// Number of regions.
    pub regions: u32,
    /// Replicas per region (3).
    pub replicas: u32,
    /// Raft timing.
    pub raft: RaftConfig,
    /// Hibernate regions.
    pub hibernate: HibernateConfig,
    /// PD.
    pub pd: PdConfig,
    /// tikv#14547 toggle.
    pub unreachable_broadcast: UnreachableBroadcast,
    /// Writes.
    pub load: WriteLoad,
}

impl Default for TikvConfig {
    fn default() -> Self {
        TikvConfig {
            stores: 3,
            regions: 16,
            replicas: 3,
            raft: RaftConfig::default(),
            hibernate: HibernateConfig::default(),
            pd: PdConfig::default(),
            unreachable_broadcast: UnreachableBroadcast::default(),
            load: WriteLoad::default(),
        }
    }
}
