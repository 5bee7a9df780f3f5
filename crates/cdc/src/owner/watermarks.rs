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
    /// When the slow tables were last logged (`crate::owner::slow_tables`).
    pub slow_tables_logged_at: Option<SimTime>,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_changefeed_watermarks_are_the_minimum_over_its_tables() {
        let mut w = FeedWatermarks::default();
        w.recompute(Ts(5));
        assert_eq!(
            (w.checkpoint, w.resolved),
            (Ts(5), Ts(5)),
            "no table: the start ts"
        );
        w.tables.insert(0, (Ts(40), Ts(90)));
        w.tables.insert(1, (Ts(30), Ts(60)));
        w.recompute(Ts(5));
        assert_eq!((w.checkpoint, w.resolved), (Ts(30), Ts(60)));
        // A table reporting resolved below its checkpoint never pulls the changefeed's
        // resolved ts below the checkpoint.
        w.tables.insert(1, (Ts(30), Ts(20)));
        w.recompute(Ts(5));
        assert_eq!((w.checkpoint, w.resolved), (Ts(30), Ts(30)));
    }

    #[test]
    fn with_redo_the_barrier_is_the_flushed_resolved_ts() {
        let w = FeedWatermarks {
            redo_meta: (Ts(10), Ts(15)),
            ..FeedWatermarks::default()
        };
        assert_eq!(w.barrier(true), Ts(15));
        assert_eq!(w.barrier(false), Ts(u64::MAX));
    }
}
