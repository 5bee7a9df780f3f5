//! The scenario format's parameter sections (`[topology]`, `[raft]`, `[hibernate]`, `[pd]`,
//! `[network]`, `[workload]`, `[cdc]`), generated from the knobs of the crates that own them.
//!
//! Each row names its knob (the one definition of its default, range and doc line) and where
//! the model config keeps it. Row order is the field order of the share links' binary form:
//! append new rows at the end of a section. The type of `[workload] kind`, [`WorkloadKind`],
//! is defined here too.

use faultline_cdc::knobs as cdc;
use faultline_sim::network_knobs as net;
use faultline_tikv::knobs as tikv;
use serde::Serialize;

use crate::dur::Dur;
use crate::section::knob_section;
use crate::unit_enum::unit_enum_deserialize;

knob_section! {
    /// Which nodes exist. PD is always `pd-1`; stores are `tikv-1..tikv-N`, and
    /// `tikv-(N+1)..tikv-max_stores` wait to join.
    pub struct Topology {
        /// TiKV stores.
        stores: u32 = knob(tikv::STORES) => tikv.stores,
        /// Regions in the key space.
        regions: u32 = knob(tikv::REGIONS) => tikv.regions,
        /// Peers per region.
        replicas: u32 = knob(tikv::REPLICAS) => tikv.replicas,
        /// TiCDC captures `cdc-1..cdc-N` (0 = no TiCDC). With captures there are also
        /// `mysql-1` and the workload client `client-1`.
        captures: u32 = knob(cdc::CAPTURES) => cdc.captures,
        /// Kafka brokers `kafka-1..kafka-N` (0 = no Kafka).
        kafka_brokers: u32 = knob(cdc::KAFKA_BROKERS) => cdc.kafka.brokers,
        /// Most TiKV stores: `add_store` brings `tikv-(stores+1)..` in (0 = `stores`).
        max_stores: u32 = knob(tikv::MAX_STORES) => tikv.max_stores,
        /// Data per region (MiB): what a new replica's snapshot carries.
        region_size_mib: u32 = knob(tikv::REGION_SIZE_MIB) => tikv.region_size_mib,
        /// `region-split-size` (MiB): past 1.5 times this a region splits by size.
        region_split_size_mib: u32 = knob(tikv::REGION_SPLIT_SIZE_MIB)
            => tikv.region_split_size_mib,
    }
}

knob_section! {
    /// raftstore timing (TiKV defaults).
    pub struct RaftParams {
        /// `raft-base-tick-interval`.
        base_tick: Dur = knob(tikv::RAFT_BASE_TICK) => tikv.raft.base_tick,
        /// `raft-heartbeat-ticks`.
        heartbeat_ticks: u32 = knob(tikv::RAFT_HEARTBEAT_TICKS) => tikv.raft.heartbeat_ticks,
        /// `raft-election-timeout-ticks` (randomised in [n, 2n)).
        election_ticks: u32 = knob(tikv::RAFT_ELECTION_TICKS) => tikv.raft.election_ticks,
        /// Pre-vote.
        prevote: bool = knob(tikv::RAFT_PREVOTE) => tikv.raft.prevote,
        /// Check-quorum.
        check_quorum: bool = knob(tikv::RAFT_CHECK_QUORUM) => tikv.raft.check_quorum,
        /// `raft-store-max-leader-lease`.
        leader_lease: Dur = knob(tikv::RAFT_LEADER_LEASE) => tikv.raft.leader_lease,
        /// `raft-client-max-backoff`: reconnect wait and backoff.
        raft_client_max_backoff: Dur = knob(tikv::RAFT_CLIENT_MAX_BACKOFF)
            => tikv.raft.raft_client_max_backoff,
        /// `raftstore.store-pool-size`.
        store_pool_size: u32 = knob(tikv::STORE_POOL_SIZE) => tikv.raft.capacity.pool_size,
        /// Poller time per raft message (ns).
        message_cost_ns: u32 = knob(tikv::RAFTSTORE_MESSAGE_NS)
            => tikv.raft.capacity.message_ns,
        /// Poller time per awake peer's tick (ns).
        tick_cost_ns: u32 = knob(tikv::RAFTSTORE_TICK_NS) => tikv.raft.capacity.tick_ns,
        /// Raft log write of a poll round with I/O (ns).
        log_write_cost_ns: u32 = knob(tikv::RAFTSTORE_LOG_WRITE_NS)
            => tikv.raft.capacity.log_write_ns,
        /// Broadcast time per mailbox under the router's lock (ns).
        broadcast_send_cost_ns: u32 = knob(tikv::RAFTSTORE_BROADCAST_SEND_NS)
            => tikv.raft.capacity.broadcast_send_ns,
        /// Poller time per peer FSM's StoreUnreachable (ns).
        unreachable_cost_ns: u32 = knob(tikv::RAFTSTORE_UNREACHABLE_NS)
            => tikv.raft.capacity.unreachable_ns,
        /// `grpc-keepalive-time`.
        grpc_keepalive_time: Dur = knob(tikv::GRPC_KEEPALIVE_TIME) => tikv.raft.grpc_keepalive_time,
        /// `grpc-keepalive-timeout`.
        grpc_keepalive_timeout: Dur = knob(tikv::GRPC_KEEPALIVE_TIMEOUT)
            => tikv.raft.grpc_keepalive_timeout,
    }
}

knob_section! {
    /// Hibernate regions (TiKV defaults).
    pub struct HibernateParams {
        /// `hibernate-regions`.
        enabled: bool = knob(tikv::HIBERNATE_ENABLED) => tikv.hibernate.enabled,
        /// `peer-stale-state-check-interval`.
        peer_stale_state_check_interval: Dur = knob(tikv::HIBERNATE_STALE_CHECK)
            => tikv.hibernate.peer_stale_state_check_interval,
        /// `abnormal-leader-missing-duration`.
        abnormal_leader_missing_duration: Dur = knob(tikv::HIBERNATE_ABNORMAL_LEADER_MISSING)
            => tikv.hibernate.abnormal_leader_missing_duration,
        /// `max-leader-missing-duration`.
        max_leader_missing_duration: Dur = knob(tikv::HIBERNATE_MAX_LEADER_MISSING)
            => tikv.hibernate.max_leader_missing_duration,
        /// Backoff between StoreUnreachable broadcasts.
        unreachable_backoff: Dur = knob(tikv::HIBERNATE_UNREACHABLE_BACKOFF)
            => tikv.hibernate.unreachable_backoff,
    }
}

knob_section! {
    /// PD (defaults).
    pub struct PdParams {
        /// Store heartbeat interval.
        store_heartbeat: Dur = knob(tikv::PD_STORE_HEARTBEAT) => tikv.pd.store_heartbeat,
        /// Region heartbeat interval.
        region_heartbeat: Dur = knob(tikv::PD_REGION_HEARTBEAT) => tikv.pd.region_heartbeat,
        /// TiKV `max-peer-down-duration`: a replica silent this long is a down peer.
        max_peer_down_duration: Dur = knob(tikv::PD_MAX_PEER_DOWN)
            => tikv.pd.max_peer_down_duration,
        /// Balance leaders across stores.
        leader_balance: bool = knob(tikv::PD_LEADER_BALANCE) => tikv.pd.leader_balance,
        /// `max-store-down-time`: a store silent this long is Down and its replicas are rebuilt.
        max_store_down_time: Dur = knob(tikv::PD_MAX_STORE_DOWN_TIME)
            => tikv.pd.max_store_down_time,
        /// `replica-schedule-limit`: replica operators in flight.
        replica_schedule_limit: u32 = knob(tikv::PD_REPLICA_SCHEDULE_LIMIT)
            => tikv.pd.replica_schedule_limit,
        /// `leader-schedule-limit`: leader transfers in flight.
        leader_schedule_limit: u32 = knob(tikv::PD_LEADER_SCHEDULE_LIMIT)
            => tikv.pd.leader_schedule_limit,
        /// Store limit `add-peer`, per store per minute.
        store_limit_add_peer: u32 = knob(tikv::PD_STORE_LIMIT_ADD_PEER)
            => tikv.pd.store_limit_add_peer_per_min,
    }
}

knob_section! {
    /// One-way latency of every message: uniform in `[delay_min, delay_max)`. The network is
    /// built from these directly (`build_world`), not through a model config.
    pub struct NetworkParams {
        /// Shortest one-way delay.
        delay_min: Dur = knob(net::DELAY_MIN),
        /// Longest one-way delay (exclusive).
        delay_max: Dur = knob(net::DELAY_MAX),
    }
}

knob_section! {
    /// Upstream writes.
    pub struct Workload {
        /// Raw Raft writes per simulated second, spread over regions (0 = idle cluster).
        writes_per_sec: u32 = knob(tikv::WRITES_PER_SEC) => tikv.load.writes_per_sec,
        /// Bytes each write adds to its region's size.
        write_bytes: u32 = knob(tikv::WRITE_BYTES) => tikv.write_bytes,
        /// sysbench-like transactions (replicated by TiCDC); mapped in `build.rs`, since the
        /// model has its own enum.
        kind: WorkloadKind = plain(WorkloadKind::default()),
        /// Transactions per simulated second (0 = none).
        txns_per_sec: u32 = knob(cdc::TXNS_PER_SEC) => cdc.workload.txns_per_sec,
        /// Tables.
        tables: u32 = knob(cdc::TABLES) => cdc.workload.tables,
        /// Rows per table.
        rows_per_table: u32 = knob(cdc::ROWS_PER_TABLE) => cdc.workload.rows_per_table,
        /// Stop the workload (transactions and TiKV-only writes) at this time; the finish mark for
        /// consistency checks.
        stop_at: Option<Dur> = plain(None) => cdc.workload.stop_at,
        /// Every Nth transaction is large (0 = none).
        large_txn_every: u32 = knob(cdc::LARGE_TXN_EVERY) => cdc.workload.large_txn_every,
        /// How long a large transaction's prewrite goes on after its first keys are locked.
        large_txn_prewrite: Dur = knob(cdc::LARGE_TXN_PREWRITE)
            => cdc.workload.large_txn_prewrite,
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

knob_section! {
    /// TiCDC timing (TiCDC 7.x defaults).
    pub struct CdcParams {
        /// TiKV `cdc.min-ts-interval`: how often leaders send resolved ts.
        min_ts_interval: Dur = knob(cdc::MIN_TS_INTERVAL) => cdc.min_ts_interval,
        /// Owner and processor tick.
        owner_tick: Dur = knob(cdc::OWNER_TICK) => cdc.owner_tick,
        /// Redo meta flush interval.
        redo_flush_interval: Dur = knob(cdc::REDO_FLUSH_INTERVAL) => cdc.redo_flush_interval,
        /// Downstream write latency per batch.
        mysql_write_latency: Dur = knob(cdc::MYSQL_WRITE_LATENCY) => cdc.mysql_write_latency,
        /// Connections each capture's MySQL sink writes a changefeed through.
        mysql_worker_count: u32 = knob(cdc::MYSQL_WORKER_COUNT) => cdc.mysql_worker_count,
        /// Partitions of each Kafka changefeed's topic.
        kafka_partitions: u32 = knob(cdc::KAFKA_PARTITIONS) => cdc.kafka.partitions,
        /// Sarama dial / read / write timeout: a send waits this long for an ack, and one
        /// producer client's close blocks this long while no broker answers.
        kafka_timeout: Dur = knob(cdc::KAFKA_TIMEOUT) => cdc.kafka.timeout,
    }
}
