//! The owner's view of a changefeed: table watermarks reported by processors, the changefeed
//! checkpoint and resolved ts it persists, and the redo meta manager.

use std::collections::BTreeMap;

use faultline_sim::{PerSecond, SimTime};

use crate::ts::Ts;

/// A changefeed's watermarks as its owner keeps them: per-table reports and the changefeed's
/// checkpoint and resolved ts derived from them (its lifecycle is `lifecycle::FeedLifecycle`).
#[derive(Clone, Debug, Default)]
pub struct FeedWatermarks {
    /// Latest (checkpoint, resolved) per table.
    pub tables: BTreeMap<u32, (Ts, Ts)>,
    /// Persisted checkpoint ts.
    pub checkpoint: Ts,
    /// Persisted resolved ts.
    pub resolved: Ts,
    /// Redo meta: last flushed (checkpoint, resolved).
    pub redo_meta: (Ts, Ts),
    /// When the redo meta last changed.
    pub redo_changed_at: SimTime,
    /// Rows the sink acknowledged (MySQL or Kafka), per simulated second.
    pub rows_per_sec: PerSecond,
}

impl FeedWatermarks {
    /// Recomputes the watermarks from the table reports: min over tables.
    pub fn recompute(&mut self, start: Ts) {
        let cp = self.tables.values().map(|(c, _)| *c).min().unwrap_or(start);
        let rs = self.tables.values().map(|(_, r)| *r).min().unwrap_or(start);
        self.checkpoint = cp;
        self.resolved = rs.max(cp);
    }

    /// The redo barrier: sinks may write only what the redo log has made durable.
    pub fn barrier(&self, redo: bool) -> Ts {
        if redo {
            self.redo_meta.1
        } else {
            Ts(u64::MAX)
        }
    }
}
