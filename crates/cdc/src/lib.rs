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

//! The layout follows the architecture (crates/cdc/README.md has one line per folder): leaf
//! types at the top level (`ids`, `ts`, `change`, `keyspace`, `config`, `msg`, `out`), the
//! mechanisms in folders (`upstream`, `endpoint`, `etcd`, `capture`, `owner`, `sink`,
//! `check`), the state in `cdc`, and the only code that sees the kernel in `model` and
//! `stack`.

pub mod capture;
pub mod cdc;
pub mod change;
pub mod check;
pub mod config;
pub mod endpoint;
pub mod etcd;
pub mod ids;
pub mod keyspace;
pub mod model;
pub mod msg;
pub mod out;
pub mod owner;
pub mod sink;
pub mod stack;
pub mod table_split;
#[cfg(test)]
mod test_world;
pub mod ts;
pub mod upstream;

pub use cdc::Cdc;
pub use config::*;
pub use stack::{Stack, StackMsg, StackTimer};
pub use ts::Ts;
