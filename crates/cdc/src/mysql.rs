//! Downstream MySQL: applies each batch after a write latency, one at a time per changefeed
//! connection, last write wins (as `REPLACE INTO` does), then acknowledges.

use std::collections::BTreeMap;

use faultline_sim::SimTime;

use crate::change::RowChange;
use crate::upstream::RowVersion;

/// One changefeed's downstream database.
#[derive(Clone, Debug)]
pub struct Downstream {
    /// Rows as MySQL has them.
    pub rows: Vec<RowVersion>,
    /// The connection is busy until then.
    pub busy_until: SimTime,
    /// Batches received, not yet applied: (capture, table, batch) -> rows.
    pub queued: BTreeMap<(u32, u32, u64), Vec<RowChange>>,
}

impl Downstream {
    /// A downstream holding the same initial data as upstream.
    pub fn new(keys: u32) -> Self {
        Downstream {
            rows: vec![RowVersion::default(); keys as usize],
            busy_until: SimTime::ZERO,
            queued: BTreeMap::new(),
        }
    }
}
