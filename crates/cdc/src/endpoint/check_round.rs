//! The state of one store's CheckLeader round, kept by TiKV's CDC endpoint. The round itself
//! (asking the followers' stores, counting confirmations, publishing) is
//! [`crate::endpoint::check_leader`]; this leaf type lets the endpoint hold a round without importing
//! the handlers that drive it.

use std::collections::BTreeMap;

use crate::ts::Ts;

/// One store's CheckLeader round in flight.
#[derive(Clone, Debug, Default)]
pub struct CheckRound {
    /// Round number (answers to older rounds are ignored).
    pub round: u64,
    /// Per region waiting for confirmations: the ts to publish, confirmations still needed.
    pub waiting: BTreeMap<u32, (Ts, u8)>,
    /// Regions whose round ended (the next one began) without a quorum confirming the
    /// leader, so their resolved ts was not published: the `check_leader_unconfirmed` metric.
    pub unconfirmed: u64,
}
