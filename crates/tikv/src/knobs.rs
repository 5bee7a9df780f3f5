//! The TiKV/PD knobs a scenario can set: each one's scenario key, unit, default, range and
//! doc line, written once. Upstream defaults are cited from
//! `tikv/components/raftstore/src/store/config.rs` (`Config::default`), `tikv/src/server/config.rs`
//! and `tikv/pd` `server/config/config.go`; where the model's default differs the doc line says so.

use faultline_sim::{Knob, SimDuration};

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
pub const MODEL_MAX_REPLICAS: u32 = crate::raft::state::MAX_REPLICAS as u32;

/// `topology.stores`.
pub const STORES: Knob = Knob::count(
    "topology.stores",
    3,
    1,
    16,
    "TiKV stores `tikv-1..tikv-N` (the model allows up to 254; 16 keeps a browser tab small).",
);
const _: () = assert!(STORES.max_count() <= MODEL_MAX_STORES);
/// `topology.max_stores`.
pub const MAX_STORES: Knob = Knob::count(
    "topology.max_stores",
    0,
    0,
    16,
    "Most TiKV stores: `add_store` brings `tikv-(stores+1)` up to this one in (0 = `stores`, none join).",
);
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
/// `topology.region_size_mib`.
pub const REGION_SIZE_MIB: Knob = Knob::count(
    "topology.region_size_mib",
    96,
    1,
    10_240,
    "Data per region at the start (MiB); writes add to it. A new replica's snapshot takes size / 100 MiB/s to send (`snap-io-max-bytes-per-sec`). Default: `region-split-size`, 96 MiB in TiKV 7.1.",
);
/// `topology.region_split_size_mib`.
pub const REGION_SPLIT_SIZE_MIB: Knob = Knob::count(
    "topology.region_split_size_mib",
    96,
    1,
    10_240,
    "`region-split-size` (MiB): a region that grows past 1.5 times this splits into parts of at most this size (TiKV 7.1: 96).",
);
/// `workload.write_bytes`.
pub const WRITE_BYTES: Knob = Knob::count(
    "workload.write_bytes",
    200,
    1,
    1_048_576,
    "Bytes each write adds to its region's size (a sysbench row is about 200).",
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
    "TiKV `max-peer-down-duration`: a leader reports a replica silent this long as a down peer; PD replaces it only once its store is Down (TiKV: 10m).",
);
/// `pd.leader_balance`.
pub const PD_LEADER_BALANCE: Knob = Knob::flag(
    "pd.leader_balance",
    true,
    "PD balances leaders across stores.",
);
/// `raft.raft_client_max_backoff`.
pub const RAFT_CLIENT_MAX_BACKOFF: Knob = Knob::duration(
    "raft.raft_client_max_backoff",
    secs(5),
    millis(10),
    secs(600),
    "`raft-client-max-backoff`: the raft client waits this long for a broken connection to come back, then drops its queued messages with an Unreachable report each and tries again (TiKV: 5s).",
);
/// `raft.store_pool_size`.
pub const STORE_POOL_SIZE: Knob = Knob::count(
    "raft.store_pool_size",
    2,
    1,
    64,
    "`raftstore.store-pool-size`: pollers per store working through the scheduled peer FSMs in FIFO order (TiKV: 2).",
);
/// `raft.message_cost_ns`.
pub const RAFTSTORE_MESSAGE_NS: Knob = Knob::count(
    "raft.message_cost_ns",
    10_000,
    0,
    10_000_000,
    "Nanoseconds a raftstore poller spends on one raft message with its ready. Estimate, not upstream config: 2 pollers at 10 us a message handle 200,000 messages/s, the order of what TiKV's raftstore CPU panels show near saturation with the default pool.",
);
/// `raft.tick_cost_ns`.
pub const RAFTSTORE_TICK_NS: Knob = Knob::count(
    "raft.tick_cost_ns",
    2_000,
    0,
    10_000_000,
    "Nanoseconds a raftstore poller spends on one awake peer's base tick. Estimate, not upstream config: a tick is a mailbox message without a ready, a fifth of a raft message's cost.",
);
/// `raft.log_write_cost_ns`.
pub const RAFTSTORE_LOG_WRITE_NS: Knob = Knob::count(
    "raft.log_write_cost_ns",
    250_000,
    0,
    100_000_000,
    "Nanoseconds the raft log write (with sync) of a poll round that has I/O takes. With `store-io-pool-size` = 0, the TiKV 7.1 default, the poller writes inline at the end of the round (`async_io/write.rs` run by `sync_write_worker`) and sends the round's persisted messages after it; rounds that end while a write is under way share the next one. Estimate, not upstream config: a raft-engine append with fsync on an NVMe SSD takes 0.1-0.5 ms.",
);
/// `raft.broadcast_send_cost_ns`.
pub const RAFTSTORE_BROADCAST_SEND_NS: Knob = Knob::count(
    "raft.broadcast_send_cost_ns",
    700,
    0,
    1_000_000,
    "Nanoseconds `broadcast_normal` (batch-system `router.rs`) spends per mailbox while it holds the router's lock, which blocks incoming raft messages. Estimate from tikv#19666: a 5 s stall for about 30 broadcasts of about 250,000 regions.",
);
/// `raft.unreachable_cost_ns`.
pub const RAFTSTORE_UNREACHABLE_NS: Knob = Knob::count(
    "raft.unreachable_cost_ns",
    2_000,
    0,
    10_000_000,
    "Nanoseconds a raftstore poller spends on one peer FSM's StoreUnreachable (a mailbox message without a ready, like a tick). Estimate, not upstream config.",
);
/// `raft.grpc_keepalive_time`.
pub const GRPC_KEEPALIVE_TIME: Knob = Knob::duration(
    "raft.grpc_keepalive_time",
    secs(10),
    millis(10),
    secs(3600),
    "`server.grpc-keepalive-time`: interval of the gRPC keepalive pings that notice a cut link or a stalled store; a killed store is noticed at once by its connection reset (TiKV: 10s).",
);
/// `raft.grpc_keepalive_timeout`.
pub const GRPC_KEEPALIVE_TIMEOUT: Knob = Knob::duration(
    "raft.grpc_keepalive_timeout",
    secs(3),
    millis(10),
    secs(3600),
    "`server.grpc-keepalive-timeout`: an unanswered keepalive ping breaks the connection after this long (TiKV: 3s).",
);
/// `pd.max_store_down_time`.
pub const PD_MAX_STORE_DOWN_TIME: Knob = Knob::duration(
    "pd.max_store_down_time",
    secs(1800),
    millis(10),
    DAY,
    "`max-store-down-time`: a store without heartbeats this long is Down and PD rebuilds its replicas elsewhere (PD: 30m).",
);
/// `pd.replica_schedule_limit`.
pub const PD_REPLICA_SCHEDULE_LIMIT: Knob = Knob::count(
    "pd.replica_schedule_limit",
    64,
    0,
    100_000,
    "`replica-schedule-limit`: replica-repair operators in flight at once (PD: 64).",
);
/// `pd.leader_schedule_limit`.
pub const PD_LEADER_SCHEDULE_LIMIT: Knob = Knob::count(
    "pd.leader_schedule_limit",
    4,
    0,
    100_000,
    "`leader-schedule-limit`: leader-transfer operators in flight at once; a concurrency cap, not a rate (PD: 4).",
);
/// `pd.store_limit_add_peer`.
pub const PD_STORE_LIMIT_ADD_PEER: Knob = Knob::count(
    "pd.store_limit_add_peer",
    15,
    1,
    100_000,
    "Store limit `add-peer`: new replicas PD may place on one store per minute (PD: 15).",
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
    MAX_STORES,
    REGION_SIZE_MIB,
    REGION_SPLIT_SIZE_MIB,
    RAFT_BASE_TICK,
    RAFT_HEARTBEAT_TICKS,
    RAFT_ELECTION_TICKS,
    RAFT_PREVOTE,
    RAFT_CHECK_QUORUM,
    RAFT_LEADER_LEASE,
    RAFT_CLIENT_MAX_BACKOFF,
    STORE_POOL_SIZE,
    RAFTSTORE_MESSAGE_NS,
    RAFTSTORE_TICK_NS,
    RAFTSTORE_LOG_WRITE_NS,
    RAFTSTORE_BROADCAST_SEND_NS,
    RAFTSTORE_UNREACHABLE_NS,
    GRPC_KEEPALIVE_TIME,
    GRPC_KEEPALIVE_TIMEOUT,
    HIBERNATE_ENABLED,
    HIBERNATE_STALE_CHECK,
    HIBERNATE_ABNORMAL_LEADER_MISSING,
    HIBERNATE_MAX_LEADER_MISSING,
    HIBERNATE_UNREACHABLE_BACKOFF,
    PD_STORE_HEARTBEAT,
    PD_REGION_HEARTBEAT,
    PD_MAX_PEER_DOWN,
    PD_LEADER_BALANCE,
    PD_MAX_STORE_DOWN_TIME,
    PD_REPLICA_SCHEDULE_LIMIT,
    PD_LEADER_SCHEDULE_LIMIT,
    PD_STORE_LIMIT_ADD_PEER,
    WRITES_PER_SEC,
    WRITE_BYTES,
];
