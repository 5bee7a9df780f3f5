//! TiKV's CDC endpoint, which runs inside each store: region subscriptions, incremental
//! scans, change events, and resolved ts published after a CheckLeader round.

pub mod check_leader;
pub mod check_round;
pub mod endpoint_host;
pub mod store_endpoint;
