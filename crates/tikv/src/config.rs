//! Configuration of the TiKV/PD model, with TiKV 7.x defaults.
//!
//! Every parameter a scenario may set is a [`Knob`] in [`knobs`]: its scenario key, unit,
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

use faultline_sim::{Knob, SimDuration};

/// The TiKV/PD knobs a scenario can set. Upstream defaults are cited from
/// `tikv/components/raftstore/src/store/config.rs` (`Config::default`) and
/// `tikv/pd` `server/config/config.go`; where the model's default differs the doc line says so.
pub mod knobs {
    use super::*;

    const fn secs(s: u64) -> SimDuration {
        SimDuration::from_secs(s)
    }
    const fn millis(ms: u64) -> SimDuration {
        SimDuration::from_millis(ms)
    }

    /// Longest duration knob: a day, the longest run.
    pub const DAY: SimDuration = secs(24 * 3600);

    /// Most stores the model can build: `Cluster::new` asserts `stores < 255`.
    pub const MODEL_MAX_STORES: u32 = 254;
    /// Most replicas per region the model keeps progress for, inline per peer.
    pub const MODEL_MAX_REPLICAS: u32 = crate::raft::MAX_REPLICAS as u32;

    /// `topology.stores`.
    pub const STORES: Knob = Knob::count(
        "topology.stores",
        3,
        1,
        16,
        "TiKV stores `tikv-1..tikv-N` (the model allows up to 254; 16 keeps a browser tab small).",
    );
    const _: () = assert!(STORES.max_count() <= MODEL_MAX_STORES);
    /// `topology.regions`.
    pub const REGIONS: Knob = Knob::count(
        "topology.regions",
        16,
        1,
        300_000,
        "Regions in the key space (the tikv#14547 report's cluster has 256,000).",
    );
    /// `topology.replicas`.
    pub const REPLICAS: Knob = Knob::count(
        "topology.replicas",
        3,
        1,
        MODEL_MAX_REPLICAS,
        "Peers per region, each on a different store (so also at most `topology.stores`).",
    );
    /// `raft.base_tick`.
    pub const RAFT_BASE_TICK: Knob = Knob::duration(
        "raft.base_tick",
        secs(1),
        millis(10),
        secs(10),
        "`raft-base-tick-interval`: one Raft tick (TiKV: 1s).",
    );
    /// `raft.heartbeat_ticks`.
    pub const RAFT_HEARTBEAT_TICKS: Knob = Knob::count(
        "raft.heartbeat_ticks",
        2,
        1,
        1_000,
        "`raft-heartbeat-ticks`: ticks between leader heartbeats (TiKV: 2).",
    );
    /// `raft.election_ticks`.
    pub const RAFT_ELECTION_TICKS: Knob = Knob::count(
        "raft.election_ticks",
        10,
        2,
        1_000,
        "`raft-election-timeout-ticks`, randomised in [n, 2n); must exceed heartbeat_ticks (TiKV: 10).",
    );
    /// `raft.prevote`.
    pub const RAFT_PREVOTE: Knob = Knob::flag("raft.prevote", true, "Pre-vote (TiKV: on).");
    /// `raft.check_quorum`.
    pub const RAFT_CHECK_QUORUM: Knob = Knob::flag(
        "raft.check_quorum",
        true,
        "Check-quorum: a leader that hears from no quorum for an election timeout steps down (TiKV: on).",
    );
    /// `raft.leader_lease`.
    pub const RAFT_LEADER_LEASE: Knob = Knob::duration(
        "raft.leader_lease",
        secs(9),
        SimDuration::ZERO,
        DAY,
        "`raft-store-max-leader-lease`; must not exceed the election timeout (TiKV: 9s).",
    );
    /// `hibernate.enabled`.
    pub const HIBERNATE_ENABLED: Knob = Knob::flag(
        "hibernate.enabled",
        true,
        "`hibernate-regions`: idle regions stop ticking (TiKV: on since 5.0.2).",
    );
    /// `hibernate.peer_stale_state_check_interval`.
    pub const HIBERNATE_STALE_CHECK: Knob = Knob::duration(
        "hibernate.peer_stale_state_check_interval",
        secs(300),
        millis(10),
        DAY,
        "`peer-stale-state-check-interval`: wakes Idle peers step by step (TiKV: 5m).",
    );
    /// `hibernate.abnormal_leader_missing_duration`.
    pub const HIBERNATE_ABNORMAL_LEADER_MISSING: Knob = Knob::duration(
        "hibernate.abnormal_leader_missing_duration",
        secs(600),
        millis(10),
        DAY,
        "`abnormal-leader-missing-duration`: a leader missing this long is logged (TiKV: 10m).",
    );
    /// `hibernate.max_leader_missing_duration`.
    pub const HIBERNATE_MAX_LEADER_MISSING: Knob = Knob::duration(
        "hibernate.max_leader_missing_duration",
        secs(7200),
        millis(10),
        DAY,
        "`max-leader-missing-duration`: then the peer asks PD whether it is stale (TiKV: 2h).",
    );
    /// `hibernate.unreachable_backoff`.
    pub const HIBERNATE_UNREACHABLE_BACKOFF: Knob = Knob::duration(
        "hibernate.unreachable_backoff",
        secs(10),
        millis(10),
        DAY,
        "Minimum gap between two StoreUnreachable broadcasts for one store (TiKV: 10s).",
    );
    /// `pd.store_heartbeat`.
    pub const PD_STORE_HEARTBEAT: Knob = Knob::duration(
        "pd.store_heartbeat",
        secs(10),
        millis(10),
        DAY,
        "`pd-heartbeat-tick-interval` for stores (TiKV: 10s).",
    );
    /// `pd.region_heartbeat`.
    pub const PD_REGION_HEARTBEAT: Knob = Knob::duration(
        "pd.region_heartbeat",
        secs(60),
        millis(10),
        DAY,
        "`pd-heartbeat-tick-interval` for regions (TiKV: 60s).",
    );
    /// `pd.max_peer_down_duration`.
    pub const PD_MAX_PEER_DOWN: Knob = Knob::duration(
        "pd.max_peer_down_duration",
        secs(600),
        millis(10),
        DAY,
        "A store silent this long is Down and PD rebuilds its replicas (model: 10m; PD's max-store-down-time is 30m).",
    );
    /// `pd.leader_balance`.
    pub const PD_LEADER_BALANCE: Knob = Knob::flag(
        "pd.leader_balance",
        true,
        "PD balances leaders across stores.",
    );
    /// `workload.writes_per_sec`.
    pub const WRITES_PER_SEC: Knob = Knob::count(
        "workload.writes_per_sec",
        0,
        0,
        100_000,
        "Raw Raft writes per simulated second, spread over regions (0 = idle cluster).",
    );

    /// Every TiKV/PD knob, in the order of the format reference.
    pub const ALL: &[Knob] = &[
        STORES,
        REGIONS,
        REPLICAS,
        RAFT_BASE_TICK,
        RAFT_HEARTBEAT_TICKS,
        RAFT_ELECTION_TICKS,
        RAFT_PREVOTE,
        RAFT_CHECK_QUORUM,
        RAFT_LEADER_LEASE,
        HIBERNATE_ENABLED,
        HIBERNATE_STALE_CHECK,
        HIBERNATE_ABNORMAL_LEADER_MISSING,
        HIBERNATE_MAX_LEADER_MISSING,
        HIBERNATE_UNREACHABLE_BACKOFF,
        PD_STORE_HEARTBEAT,
        PD_REGION_HEARTBEAT,
        PD_MAX_PEER_DOWN,
        PD_LEADER_BALANCE,
        WRITES_PER_SEC,
    ];
}

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
            base_tick: knobs::RAFT_BASE_TICK.default_duration(),
            heartbeat_ticks: knobs::RAFT_HEARTBEAT_TICKS.default_count(),
            election_ticks: knobs::RAFT_ELECTION_TICKS.default_count(),
            prevote: knobs::RAFT_PREVOTE.default_flag(),
            check_quorum: knobs::RAFT_CHECK_QUORUM.default_flag(),
            leader_lease: knobs::RAFT_LEADER_LEASE.default_duration(),
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
            store_heartbeat: knobs::PD_STORE_HEARTBEAT.default_duration(),
            region_heartbeat: knobs::PD_REGION_HEARTBEAT.default_duration(),
            max_peer_down_duration: knobs::PD_MAX_PEER_DOWN.default_duration(),
            leader_balance: knobs::PD_LEADER_BALANCE.default_flag(),
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
#[derive(Clone, Debug, PartialEq)]
pub struct WriteLoad {
    /// Writes per simulated second over the whole cluster (0 = none).
    pub writes_per_sec: u32,
}

impl Default for WriteLoad {
    fn default() -> Self {
        WriteLoad {
            writes_per_sec: knobs::WRITES_PER_SEC.default_count(),
        }
    }
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
            stores: knobs::STORES.default_count(),
            regions: knobs::REGIONS.default_count(),
            replicas: knobs::REPLICAS.default_count(),
            raft: RaftConfig::default(),
            hibernate: HibernateConfig::default(),
            pd: PdConfig::default(),
            unreachable_broadcast: UnreachableBroadcast::default(),
            load: WriteLoad::default(),
        }
    }
}
