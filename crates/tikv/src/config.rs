//! Configuration of the TiKV/PD model, with TiKV 7.x defaults.
//!
//! Every parameter a scenario may set is a [`Knob`](faultline_sim::Knob) in [`knobs`] (`knobs.rs`): its scenario key, unit,
//! default, range and doc line are written there once, and the `Default` impls below read
//! the default from it. The scenario format's fields, their validation and the format
//! reference (`docs/scenario-format.md`) are derived from the same constants.
//!
//! # Adding a knob
//! Define it once in [`knobs`] and give the model config a field defaulting to it:
//! ```
//! use faultline_sim::{Knob, SimDuration};
//! /// Minimum gap between two "store is slow" reports.
//! pub const SLOW_REPORT_GAP: Knob = Knob::duration(
//!     "hibernate.slow_report_gap",
//!     SimDuration::from_secs(10),
//!     SimDuration::from_millis(10),
//!     SimDuration::from_secs(3600),
//!     "Minimum gap between two slow-store reports.",
//! );
//! assert_eq!(SLOW_REPORT_GAP.default_duration(), SimDuration::from_secs(10));
//! ```
//! then add its row to the `[hibernate]` section in `crates/scenario/src/params.rs`:
//! ```text
//! slow_report_gap: Dur = knob(tikv::SLOW_REPORT_GAP) => tikv.hibernate.slow_report_gap,
//! ```
//! That row is the file field, its default, its range check, its copy into this config and its
//! line in the generated format reference. The model code that reads
//! `cfg.hibernate.slow_report_gap` is the only other change.

use faultline_sim::SimDuration;

use crate::knobs;

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
    /// raftstore's capacity: its pollers and what their work costs.
    pub capacity: RaftstoreCapacity,
    /// Time for a surviving store's raft client to notice that the connection to a killed
    /// store broke (stream error after the dead process's TCP reset), drawn in `[min, max)`.
    pub conn_failure_detect: (SimDuration, SimDuration),
    /// `raft-client-max-backoff`: 5 s. Both the least gap between two connection attempts
    /// and how long one attempt waits for the connection (`wait_for_connected`).
    pub raft_client_max_backoff: SimDuration,
    /// `grpc-keepalive-time`: 10 s between keepalive pings on a raft connection.
    pub grpc_keepalive_time: SimDuration,
    /// `grpc-keepalive-timeout`: 3 s for a ping's answer before the connection breaks.
    pub grpc_keepalive_timeout: SimDuration,
    /// `raft-client-queue-size`: 8192 messages queued per connection; more are dropped.
    pub raft_client_queue_size: usize,
}

impl Default for RaftConfig {
    fn default() -> Self {
        RaftConfig {
            base_tick: knobs::RAFT_BASE_TICK.default_duration(),
            heartbeat_ticks: knobs::RAFT_HEARTBEAT_TICKS.default_count(),
            election_ticks: knobs::RAFT_ELECTION_TICKS.default_count(),
            prevote: knobs::RAFT_PREVOTE.default_flag(),
            check_quorum: knobs::RAFT_CHECK_QUORUM.default_flag(),
            leader_lease: knobs::RAFT_LEADER_LEASE.default_duration(),
            capacity: RaftstoreCapacity::default(),
            conn_failure_detect: (SimDuration::from_millis(10), SimDuration::from_millis(50)),
            raft_client_max_backoff: knobs::RAFT_CLIENT_MAX_BACKOFF.default_duration(),
            grpc_keepalive_time: knobs::GRPC_KEEPALIVE_TIME.default_duration(),
            grpc_keepalive_timeout: knobs::GRPC_KEEPALIVE_TIMEOUT.default_duration(),
            raft_client_queue_size: 8192,
        }
    }
}

/// raftstore as a resource: `store-pool-size` pollers working through the scheduled peer
/// FSMs in FIFO order (TiKV `components/batch-system/src/batch.rs`, `Poller::poll`), and the
/// time each kind of work takes them. The costs are not upstream settings; each knob's doc line
/// says how its default was estimated.
#[derive(Clone, Debug, PartialEq)]
pub struct RaftstoreCapacity {
    /// `raftstore.store-pool-size`: 2 pollers per store.
    pub pool_size: u32,
    /// Nanoseconds a poller spends on one raft message, its peer's ready included.
    pub message_ns: u32,
    /// Nanoseconds a poller spends on one awake peer's base tick.
    pub tick_ns: u32,
    /// Nanoseconds the raft log write of a poll round with I/O takes, inline at the end of
    /// the round (`store-io-pool-size` = 0 in 7.1).
    pub log_write_ns: u32,
    /// Nanoseconds `broadcast_normal` spends on one mailbox while it holds the router's lock.
    pub broadcast_send_ns: u32,
    /// Nanoseconds a poller spends handling `StoreUnreachable` in one peer FSM.
    pub unreachable_ns: u32,
}

impl Default for RaftstoreCapacity {
    fn default() -> Self {
        RaftstoreCapacity {
            pool_size: knobs::STORE_POOL_SIZE.default_count(),
            message_ns: knobs::RAFTSTORE_MESSAGE_NS.default_count(),
            tick_ns: knobs::RAFTSTORE_TICK_NS.default_count(),
            log_write_ns: knobs::RAFTSTORE_LOG_WRITE_NS.default_count(),
            broadcast_send_ns: knobs::RAFTSTORE_BROADCAST_SEND_NS.default_count(),
            unreachable_ns: knobs::RAFTSTORE_UNREACHABLE_NS.default_count(),
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
            enabled: knobs::HIBERNATE_ENABLED.default_flag(),
            peer_stale_state_check_interval: knobs::HIBERNATE_STALE_CHECK.default_duration(),
            abnormal_leader_missing_duration: knobs::HIBERNATE_ABNORMAL_LEADER_MISSING
                .default_duration(),
            max_leader_missing_duration: knobs::HIBERNATE_MAX_LEADER_MISSING.default_duration(),
            unreachable_backoff: knobs::HIBERNATE_UNREACHABLE_BACKOFF.default_duration(),
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
    /// TiKV `max-peer-down-duration`: 10 min. A replica silent this long is a down peer in
    /// its leader's region heartbeat.
    pub max_peer_down_duration: SimDuration,
    /// PD `max-store-down-time`: 30 min. A store without heartbeats this long is Down.
    pub max_store_down_time: SimDuration,
    /// Balance leaders across stores.
    pub leader_balance: bool,
    /// `leader-schedule-limit`: 4 leader-transfer operators in flight at once.
    pub leader_schedule_limit: u32,
    /// `replica-schedule-limit`: 64 replica operators in flight at once.
    pub replica_schedule_limit: u32,
    /// Store limit `add-peer`: 15 new replicas per store per minute.
    pub store_limit_add_peer_per_min: u32,
}

impl Default for PdConfig {
    fn default() -> Self {
        PdConfig {
            store_heartbeat: knobs::PD_STORE_HEARTBEAT.default_duration(),
            region_heartbeat: knobs::PD_REGION_HEARTBEAT.default_duration(),
            max_peer_down_duration: knobs::PD_MAX_PEER_DOWN.default_duration(),
            max_store_down_time: knobs::PD_MAX_STORE_DOWN_TIME.default_duration(),
            leader_balance: knobs::PD_LEADER_BALANCE.default_flag(),
            leader_schedule_limit: knobs::PD_LEADER_SCHEDULE_LIMIT.default_count(),
            replica_schedule_limit: knobs::PD_REPLICA_SCHEDULE_LIMIT.default_count(),
            store_limit_add_peer_per_min: knobs::PD_STORE_LIMIT_ADD_PEER.default_count(),
        }
    }
}

/// The tikv#14547 toggle: how often a store broadcasts `StoreUnreachable` for a dead store.
/// Every value is gated by `unreachable_backoff` (`StoreFsm::on_store_unreachable`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum UnreachableBroadcast {
    /// Before tikv#13677 (v6.3 and older, `src/server/raft_client.rs` `start` at 497ae1b0a1^):
    /// the raft client reports the store unreachable after every failed connection attempt.
    EveryFailedAttempt,
    /// Buggy, v6.4 to 7.1 (tikv#13677's `first_time`): once per disconnect, never repeated
    /// while the store stays unreachable.
    #[default]
    OncePerDisconnect,
    /// Fixed (tikv#14574, 20b75dc443): after every failed attempt, but the store FSM
    /// broadcasts again only if messages from that store arrived since the last broadcast,
    /// or none ever did (`StoreReachability::received_message_count`).
    RepeatIfNewMessages,
}

/// A light write workload spread over regions.
#[derive(Clone, Debug, PartialEq)]
pub struct WriteLoad {
    /// Writes per simulated second over the whole cluster (0 = none).
    pub writes_per_sec: u32,
    /// The load stops at this simulated time (the scenario's `workload.stop_at`); `None`
    /// runs it to the end.
    pub stop_at: Option<SimDuration>,
}

impl WriteLoad {
    /// `n` writes per second to the end of the run.
    pub const fn per_sec(n: u32) -> Self {
        WriteLoad {
            writes_per_sec: n,
            stop_at: None,
        }
    }
}

impl Default for WriteLoad {
    fn default() -> Self {
        WriteLoad {
            writes_per_sec: knobs::WRITES_PER_SEC.default_count(),
            stop_at: None,
        }
    }
}

/// Everything the TiKV/PD model needs to build a cluster.
#[derive(Clone, Debug, PartialEq)]
pub struct TikvConfig {
    /// Number of TiKV stores at the start (`tikv-1..tikv-N`).
    pub stores: u32,
    /// Most stores the run may have: `add_store` brings `tikv-(stores+1)..tikv-max_stores`
    /// in (0: as many as `stores`, none can join).
    pub max_stores: u32,
    /// Number of regions.
    pub regions: u32,
    /// Replicas per region (3).
    pub replicas: u32,
    /// Data each region holds at the start (MiB): what a learner's snapshot carries.
    pub region_size_mib: u32,
    /// TiKV `region-split-size` (MiB): a region past 1.5 times this splits by size.
    pub region_split_size_mib: u32,
    /// Bytes each client write adds to its region.
    pub write_bytes: u32,
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

impl TikvConfig {
    /// Store nodes the cluster is built with: the ones that start and the ones that may join.
    pub fn store_slots(&self) -> u32 {
        self.max_stores.max(self.stores)
    }
}

impl Default for TikvConfig {
    fn default() -> Self {
        TikvConfig {
            stores: knobs::STORES.default_count(),
            max_stores: knobs::MAX_STORES.default_count(),
            regions: knobs::REGIONS.default_count(),
            replicas: knobs::REPLICAS.default_count(),
            region_size_mib: knobs::REGION_SIZE_MIB.default_count(),
            region_split_size_mib: knobs::REGION_SPLIT_SIZE_MIB.default_count(),
            write_bytes: knobs::WRITE_BYTES.default_count(),
            raft: RaftConfig::default(),
            hibernate: HibernateConfig::default(),
            pd: PdConfig::default(),
            unreachable_broadcast: UnreachableBroadcast::default(),
            load: WriteLoad::default(),
        }
    }
}
