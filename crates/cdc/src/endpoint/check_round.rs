//! The state of one store's CheckLeader round, kept by TiKV's CDC endpoint. The round itself
//! (asking the followers' stores, counting confirmations, publishing) is
//! [`crate::endpoint::check_leader`]; this leaf type lets the endpoint hold a round without importing
//! the handlers that drive it.

use crate::ts::Ts;

/// One store's CheckLeader round in flight.
#[derive(Clone, Debug, Default)]
pub struct CheckRound {
    /// Round number (answers to older rounds are ignored).
    pub round: u64,
    /// Per region asked about, in region order: the ts to publish and the confirmations
    /// still needed (0 once published). A sorted list rather than a map: a round is built
    /// in region order and answered in region order, and at full scale it holds 64,000
    /// regions a store, where a tree's lookups cost a cache miss per level.
    waiting: Vec<(u32, Ts, u8)>,
    /// Regions whose round ended (the next one began) without a quorum confirming the
    /// leader, so their resolved ts was not published: the `check_leader_unconfirmed` metric.
    pub unconfirmed: u64,
}

impl CheckRound {
    /// Starts the next round over `waiting` (region, ts to publish, confirmations needed),
    /// which must be in strictly increasing region order. Regions the last round still
    /// waited for count as unconfirmed.
    pub fn begin(&mut self, waiting: Vec<(u32, Ts, u8)>) {
        debug_assert!(waiting.windows(2).all(|w| w[0].0 < w[1].0));
        let left = self.waiting_len();
        self.unconfirmed += left as u64;
        self.round += 1;
        self.waiting = waiting;
    }

    /// One confirmation of `region`: the ts to publish if that was the last one needed.
    pub fn confirm(&mut self, region: u32) -> Option<Ts> {
        let i = self.waiting.binary_search_by_key(&region, |w| w.0).ok()?;
        let (_, ts, left) = &mut self.waiting[i];
        if *left == 0 {
            return None;
        }
        *left -= 1;
        (*left == 0).then_some(*ts)
    }

    /// How many regions still wait for confirmations.
    pub fn waiting_len(&self) -> usize {
        self.waiting.iter().filter(|w| w.2 > 0).count()
    }
}
