//! A TiKV store's process: raftstore (awake list, tick, inbox, outbox batching, the
//! StoreUnreachable broadcast), its raft client, hibernate regions, the store's life, where
//! the client's writes go, membership, and the bootstrapped placement.

pub(crate) mod bootstrap;
pub(crate) mod client_route;
#[cfg(test)]
mod follower_wake_tests;
pub mod hibernate;
#[cfg(test)]
mod hibernate_tests;
pub mod membership;
pub(crate) mod pollers;
pub mod raft_client;
#[cfg(test)]
pub(crate) mod raft_client_tests;
pub mod raftstore;
pub(crate) mod ready_path;
#[cfg(test)]
mod ready_path_tests;
pub mod state;
pub(crate) mod store_life;
