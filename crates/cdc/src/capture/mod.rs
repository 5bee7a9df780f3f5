//! A TiCDC capture: its etcd session, its processors (tables, pullers, sorters, table
//! sinks) and their tick, the processor side of table dispatch, and the KV client that pulls
//! changes from TiKV's endpoints.

pub mod capture_kv;
pub mod capture_session;
pub mod kvclient;
pub mod lock_resolver;
pub mod processor;
#[cfg(test)]
mod processor_barrier_tests;
pub mod processor_tick;
pub mod session;
#[cfg(test)]
mod session_tests;
pub mod table_dispatch;
