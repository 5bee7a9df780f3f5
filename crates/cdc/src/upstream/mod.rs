//! Upstream: TiDB's side of the write path and its ground truth. The workload's client runs
//! Percolator transactions through TiKV (client-go's committer, region cache and backoffs),
//! its PD client asks for timestamps and region loads over the network, and what TiKV applies
//! changes the ground truth and its locks.

pub mod client_backoff;
pub mod ground_truth;
pub mod orphan_locks;
pub mod pd_client;
pub mod pd_client_state;
pub mod pd_wire;
pub mod region_cache;
pub mod region_merge;
pub mod region_split;
pub mod send_failure;
pub mod tso_client;
pub mod txn_apply;
pub mod txn_wire;
pub mod upstream_txns;
pub mod workload;
