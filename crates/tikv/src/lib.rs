//! TiKV stores holding Raft regions (with hibernate regions) and PD, as a Faultline
//! [`Model`](faultline_sim::Model).
//!
//! Layout: [`raft`] is the per-region protocol (after raft-rs), [`hibernate`] the GroupState
//! machine, [`store`] a store's raftstore and raft client (the tikv#14547 StoreUnreachable
//! broadcast lives there), [`pd`] PD, [`metrics`] the incremental bookkeeping behind the
//! sampled series, [`invariants`] the safety checks, [`view`] read-only accessors for the UI, [`watch`] an event trace of one region,
//! [`action`] model-level actions a scenario schedules, [`split`] region splits and epochs.
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
//!   no `Unreachable` report), `follower_wakeups` (followers a request woke),
//!   `pd.heartbeats_received` (store and region heartbeats that reached PD),
//!   `pd.evict_leader_ops` and `pd.admin_transfer_ops` (leader transfers PD ordered for the
//!   evict-leader scheduler and for `transfer_leader` actions); gauges
//!   `leader_missing`, `pd.down_stores`, `raft_queue_peak` (deepest queue to a broken
//!   connection so far), `regions` (the region count, which splits raise).
//! - per simulated second (the last whole second): `writes_proposed_per_sec` (proposals a
//!   leader appended), `writes_applied_per_sec` (entries applied on leaders). A leader cut
//!   from its quorum shows proposals with nothing applied.

pub mod action;
pub mod cluster;
pub mod config;
pub mod host;
pub mod ids;
pub mod knobs;
pub mod msg;
pub mod observe;
pub mod pd;
pub mod raft;
pub mod region;
pub mod store;

pub use action::TikvAction;
pub use cluster::Cluster;
pub use config::*;
pub use msg::{Kind, Msg, RaftMsg, Timer};
pub use observe::view::{PeerDetail, RaftWork, RegionDetail};
pub use observe::watch::{WatchEvent, WatchWhat};
pub use raft::proposals::{OpEvent, OpOutcome};
pub use region::split::RegionEpoch;
pub use store::hibernate::GroupState;
pub use store::membership::StoreState;
