//! TiCDC as a Faultline model, and the full stack (TiKV + PD + TiCDC) as one [`Model`].
//!
//! Upstream: a sysbench-like workload of Percolator transactions, and TiKV's CDC endpoint on
//! region leaders (change events, resolved ts every second, NotLeader on leadership loss).
//! TiCDC: captures with a KV client per changefeed (streams, region workers, pending regions,
//! region-error handling), puller frontiers, sorters, table sinks, the owner's watermarks, a
//! redo meta manager, the owner loop with changefeed / sink / processor lifecycles, and
//! downstream MySQL or Kafka (brokers, producer, consumer) with a consistency check.
//!
//! [`Model`]: faultline_sim::Model

pub mod capture_kv;
pub mod capture_session;
pub mod cdc;
pub mod change;
pub mod check_leader;
pub mod check_round;
pub mod client_backoff;
pub mod config;
pub mod consistency;
pub mod endpoint;
pub mod endpoint_host;
pub mod etcd;
pub mod feed_state;
pub mod ids;
pub mod kafka;
pub mod keyspace;
pub mod kvclient;
pub mod lifecycle;
pub mod metrics;
pub mod model;
pub mod msg;
pub mod mysql;
pub mod mysql_sink;
#[cfg(test)]
mod mysql_sink_tests;
pub mod operator;
pub mod out;
pub mod owner;
pub mod owner_loop;
pub mod owner_schedule;
pub mod pd_client;
pub mod pd_client_state;
pub mod pd_wire;
pub mod processor;
#[cfg(test)]
mod processor_barrier_tests;
pub mod processor_tick;
pub mod redo;
pub mod region_cache;
pub mod scheduler;
pub mod session;
#[cfg(test)]
mod session_tests;
pub mod stack;
pub mod table_dispatch;
pub mod tcp;
#[cfg(test)]
mod test_world;
pub mod transport;
#[cfg(test)]
mod transport_tests;
pub mod ts;
pub mod tso_client;
pub mod txn_apply;
pub mod txn_wire;
pub mod upstream;
pub mod upstream_txns;
pub mod workload;

pub use cdc::Cdc;
pub use config::*;
pub use stack::{Stack, StackMsg, StackTimer};
pub use ts::Ts;
