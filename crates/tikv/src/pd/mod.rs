//! PD: its server state (TSO, heartbeats, Down stores, replica repair), the store heartbeats it
//! receives, its schedulers and checkers (balance-region, evict-leader), admin transfers, the
//! model-level actions it carries out, and its operator log.

pub(crate) mod admin_transfer;
pub(crate) mod balance_region;
pub(crate) mod evict_leader;
pub(crate) mod heartbeats;
pub mod operator_log;
pub(crate) mod run_action;
pub mod server;
pub mod state;
