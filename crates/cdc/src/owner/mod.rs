//! The TiCDC owner: scheduler v3's state and planner and the owner side of dispatch, the
//! changefeed watermarks, the owner loop and the etcd txn that paces it, the changefeed /
//! sink / processor lifecycles with their backoff, operator actions and the redo meta manager.

pub mod feed_state;
pub mod lifecycle;
pub mod operator;
pub mod owner_loop;
pub mod owner_schedule;
pub mod redo;
pub mod scheduler;
pub mod slow_tables;
pub mod status_txn;
pub mod status_txn_state;
pub mod watermarks;

#[cfg(test)]
mod status_txn_tests;
