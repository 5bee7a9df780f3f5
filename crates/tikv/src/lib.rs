//! TiKV stores holding Raft regions (with hibernate regions) and PD, as a Faultline
//! [`Model`](faultline_sim::Model).
//!
//! Layout (crates/tikv/README.md maps each file to the TiKV or PD mechanism it models):
//! - [`raft`]: the per-region protocol, after raft-rs (election, step, replication, proposals,
//!   ReadIndex, the CheckLeader answers, the payload-free log).
//! - [`store`]: a store's process: raftstore and the tikv#14547 StoreUnreachable broadcast, the
//!   raft client, hibernate regions, the store's life, client routing, membership, bootstrap.
//! - [`region`]: regions changing shape and membership: splits by command and by size, merges,
//!   learners and joint consensus, peer replacement, the change set observers read.
//! - [`pd`]: PD's server (TSO, heartbeats, Down stores, replica repair), its schedulers and
//!   checkers, admin transfers, model-level actions it carries out, its operator log.
//! - [`observe`]: invariants, metrics bookkeeping, views for the UI, messages in words, the
//!   watched region's event trace.
//! - Leaf types at the top: [`ids`], [`epoch`], [`msg`], [`action`], [`config`] and [`knobs`];
//!   [`out`] is a handler's context and outbox; [`host`] runs a handler and hands its commands
//!   to the kernel; [`cluster`] holds the state and routes kernel events to the handlers.
//!
//! Each folder keeps its data types in a `state.rs` that imports nothing above [`msg`] and
//! [`ids`]; handler files (`impl Cluster` blocks) import those and [`cluster::Cluster`]. No file
//! imports one that imports it back (the workspace's `no_import_cycles` test).
//!
//! ## Metric series
//! - `leaders.tikv-N`: leader peers per store.
//! - `leaderless_regions`: regions in which no peer on an Up store (not crashed, not paused)
//!   is leader. A leader cut off from its followers still counts until check-quorum makes it
//!   step down (after one election timeout).
//! - `max_leaderless_secs`: longest current leaderless streak; `longest_leaderless_secs`:
//!   longest streak seen in the run (current ones included).
//! - `hibernated_peers` (Idle + PreChaos, as TiKV's gauge), `peers.ordered|chaos|prechaos|idle`
//!   (peers on stores that are not crashed), `awake_peers` (ticking).
//! - cumulative: `elections_started`, `raft_messages`, `writes_applied`, `writes_proposed`,
//!   `writes_dropped`, `unreachable_broadcasts`, `unreachable_reports` (one per queued message
//!   the raft client dropped for an unreachable store), `raft_queue_full` (messages a full
//!   raft-client queue refused), `unreported_drops` (of those, the store writer's: lost with
//!   no `Unreachable` report), `late_messages` (raft messages handled from a store after the
//!   receiving store's raft client saw its connection to it break), `follower_wakeups` (followers a request woke),
//!   `pd.heartbeats_received` (store and region heartbeats that reached PD),
//!   `pd.evict_leader_ops` and `pd.admin_transfer_ops` (leader transfers PD ordered for the
//!   evict-leader scheduler and for `transfer_leader` actions); gauges
//!   `leader_missing`, `pd.down_stores`, `raft_queue_peak` (deepest queue to a broken
//!   connection so far), `regions` (the region count, which splits raise).
//! - raftstore capacity (`store::pollers`): `raftstore.load_pct.max` (poller time scheduled in
//!   the last second as a share of the pool's capacity, on the busiest live store; above 100
//!   the pollers fall behind), `raftstore.backlog_ms.max` (how long new work waits for a
//!   poller there), `raftstore.broadcast_lock_ms` (longest a StoreUnreachable broadcast held
//!   the router's mailbox lock).
//! - per simulated second (the last whole second): `writes_proposed_per_sec` (proposals a
//!   leader appended), `writes_applied_per_sec` (entries applied on leaders). A leader cut
//!   from its quorum shows proposals with nothing applied.

pub mod action;
pub mod cluster;
pub mod config;
mod encode;
mod entry;
pub mod epoch;
pub mod host;
pub mod ids;
pub mod knobs;
pub mod msg;
pub mod observe;
pub mod out;
pub mod pd;
pub mod raft;
pub mod region;
pub mod store;

pub use action::TikvAction;
pub use cluster::Cluster;
pub use config::*;
pub use epoch::RegionEpoch;
pub use msg::{Kind, Msg, RaftMsg, Timer};
pub use observe::state::{WatchEvent, WatchWhat};
pub use observe::view::{PeerDetail, RaftWork, RegionDetail};
pub use raft::state::{OpEvent, OpOutcome};
pub use store::state::GroupState;
pub use store::state::StoreState;
