//! How TiCDC 7.1 says that a changefeed's checkpoint is stuck: scheduler v3 logs the slowest
//! tables (`cdc/scheduler/internal/v3/replication/replication_manager.go`,
//! `Manager.AdvanceCheckpoint` -> `logSlowTableInfo`). When the changefeed's new checkpoint is
//! more than 30 s behind PD's time, and the last such log is more than a minute old, the owner
//! logs the tables whose checkpoints are more than 30 s behind, at most the four slowest
//! (`slowTableHeap`, ordered by checkpoint then resolved ts; popped from the least slow of
//! them to the slowest). The changefeed's state stays Normal: 7.1 has no stuck state (the
//! check of `feed_state_manager.go` on `checkpointTsAdvanced` came in 7.4, and fails only a
//! changefeed that is already in error); the lag itself is the `checkpoint_lag` gauge.
//!
//! Simplification: PD's time is the simulated time, and the minute is counted in it (tiflow
//! counts it on the owner's clock).

use faultline_sim::{Level, NodeId, SimDuration, SimTime};

use crate::cdc::Cdc;
use crate::msg::CfIx;
use crate::out::Out;
use crate::ts::Ts;

/// `logSlowTablesLagThreshold`.
const LAG_THRESHOLD: SimDuration = SimDuration::from_secs(30);
/// `logSlowTablesInterval`.
const INTERVAL: SimDuration = SimDuration::from_secs(60);
/// `defaultSlowTableHeapSize`.
const MOST: usize = 4;

impl Cdc {
    /// After changefeed `cf`'s checkpoint was computed at `now` on the owner `node`: logs its
    /// slow tables if it is more than 30 s behind, at most once a minute.
    pub(crate) fn log_slow_tables(
        &mut self,
        out: &mut Out,
        (now, node): (SimTime, NodeId),
        cf: CfIx,
    ) {
        let w = &mut self.watermarks[cf as usize];
        let behind = |ts: Ts| now.0.saturating_sub(ts.sim_time().0) > LAG_THRESHOLD.0;
        let due = w
            .slow_tables_logged_at
            .is_none_or(|at| now.0.saturating_sub(at.0) > INTERVAL.0);
        if !behind(w.checkpoint) || !due {
            return;
        }
        w.slow_tables_logged_at = Some(now);
        let mut slow: Vec<(Ts, Ts, u32)> = (w.tables.iter())
            .filter(|(_, (checkpoint, _))| behind(*checkpoint))
            .map(|(table, (checkpoint, resolved))| (*checkpoint, *resolved, *table))
            .collect();
        slow.sort();
        slow.truncate(MOST);
        for (checkpoint, resolved, table) in slow.into_iter().rev() {
            let lag = now.since(checkpoint.sim_time()).as_secs_f64();
            let detail = format!(
                "changefeed={} tableID={table} checkpointTs={} resolvedTs={} checkpointLag={lag:.3}s",
                self.cf_id(cf),
                checkpoint.0,
                resolved.0
            );
            out.log(Some(node), Level::Info, "schedulerv3: slow table", detail);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::out::Command;
    use crate::test_world::{mysql_feed, secs, world};

    /// The tables logged at `now` (each line's `tableID`), with changefeed 0's tables at these
    /// checkpoints.
    fn logged(cdc: &mut Cdc, now: SimTime) -> Vec<String> {
        let mut out = Out::default();
        cdc.log_slow_tables(&mut out, (now, cdc.captures[0]), 0);
        let table = |c: &Command| match c {
            Command::Log { detail, .. } => detail.split(' ').nth(1).map(str::to_string),
            _ => None,
        };
        out.commands().iter().filter_map(table).collect()
    }

    /// Behind by more than 30 s: the four slowest tables, least slow first; a minute later
    /// again, not before; caught up: nothing.
    #[test]
    fn a_checkpoint_30_s_behind_logs_the_four_slowest_tables_once_a_minute() {
        let mut w = world(1, vec![mysql_feed(6)]);
        let cdc = &mut w.model.cdc;
        let at = |s: u64| Ts::at(secs(s), 0);
        let w0 = &mut cdc.watermarks[0];
        for (table, s) in [(0, 10), (1, 5), (2, 8), (3, 50), (4, 9), (5, 6)] {
            w0.tables.insert(table, (at(s), at(s)));
        }
        w0.recompute(at(0));
        assert!(logged(cdc, secs(35)).is_empty(), "30 s behind: not more");
        let want = ["tableID=4", "tableID=2", "tableID=5", "tableID=1"];
        assert_eq!(
            logged(cdc, secs(45)),
            want,
            "table 0 is fifth, table 3 not behind"
        );
        assert!(logged(cdc, secs(105)).is_empty(), "a minute: not more");
        assert_eq!(logged(cdc, secs(106)).len(), 4);
        let w0 = &mut cdc.watermarks[0];
        for t in 0..6 {
            w0.tables.insert(t, (at(200), at(200)));
        }
        w0.recompute(at(0));
        assert!(logged(cdc, secs(220)).is_empty(), "caught up");
    }
}
