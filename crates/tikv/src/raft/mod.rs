//! Raft per region, after raft-rs: roles and terms, pre-vote, check-quorum, randomised
//! election timeout, heartbeats, log replication and commit, leader lease.
//!
//! Protocol logic is written as methods on [`crate::Cluster`] working on one peer at a time
//! (`step`, `tick`); messages go to the owning store's outbox, never straight to the kernel.

pub mod election;
pub mod leader_info;
pub mod log;
pub mod proposals;
pub mod read_index;
pub mod replication;
pub mod state;
pub mod step;

#[cfg(test)]
mod read_index_tests;
