//! The state of the owner's status txns (`crate::owner::status_txn` has their handlers), kept
//! in each capture's session: the txn in flight and what etcd holds as far as the owner knows.

use faultline_sim::SimTime;

use crate::ts::Ts;

/// One owner session's status txns.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StatusTxn {
    /// The number of the latest txn this session sent.
    pub seq: u64,
    /// The txn in flight: the checkpoints it writes and when it was last sent.
    pub pending: Option<(Vec<Ts>, SimTime)>,
    /// The checkpoints etcd holds as far as this owner knows: what it read when its term
    /// began, then what its txns committed.
    pub committed: Vec<Ts>,
}
