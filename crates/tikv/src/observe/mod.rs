//! Read-only observers of the cluster: safety invariants, metrics bookkeeping, views for the
//! UI, messages in words, and the event trace of one watched region.

pub(crate) mod describe;
pub mod invariants;
pub mod metrics;
pub mod state;
pub mod view;
pub mod watch;
