//! CDC properties, judged from metric series the CDC model exports (skipped until it does).

use faultline_scenario::Run;
use faultline_sim::MetricStore;

use super::Check;

/// Prefix of per-changefeed checkpoint series: `checkpoint_ts.<changefeed>`.
pub const CHECKPOINT_PREFIX: &str = "checkpoint_ts.";
/// Prefix of per-changefeed resolved-ts series: `resolved_ts.<changefeed>`.
pub const RESOLVED_PREFIX: &str = "resolved_ts.";
/// Rows that differ between upstream and downstream.
pub const DIFF_ROWS: &str = "consistency_diff_rows";
/// Most writers any one table had at once.
pub const WRITERS_MAX: &str = "writers_max";

fn changefeeds(m: &MetricStore) -> Vec<&str> {
    m.names()
        .iter()
        .filter_map(|n| n.strip_prefix(CHECKPOINT_PREFIX))
        .collect()
}

/// `cdc.checkpoint_monotonic`.
pub fn checkpoint_monotonic(run: &Run) -> Check {
    let m = &run.world.kernel.metrics;
    let cfs = changefeeds(m);
    if cfs.is_empty() {
        return None;
    }
    for cf in cfs {
        let series = m.series(&format!("{CHECKPOINT_PREFIX}{cf}"))?;
        for w in series.windows(2) {
            let ((_, a), (t, b)) = (w[0], w[1]);
            if b < a {
                return Some(Err(format!(
                    "changefeed `{cf}`: checkpoint went back from {a} to {b} at {t}"
                )));
            }
        }
    }
    Some(Ok(()))
}

/// `cdc.checkpoint_le_resolved`.
pub fn checkpoint_le_resolved(run: &Run) -> Check {
    let m = &run.world.kernel.metrics;
    let mut judged = false;
    for cf in changefeeds(m) {
        let (Some(cp), Some(rs)) = (
            m.series(&format!("{CHECKPOINT_PREFIX}{cf}")),
            m.series(&format!("{RESOLVED_PREFIX}{cf}")),
        ) else {
            continue;
        };
        judged = true;
        if let Some(((t, c), (_, r))) = cp.iter().zip(&rs).find(|((_, c), (_, r))| c > r) {
            return Some(Err(format!(
                "changefeed `{cf}`: checkpoint {c} is past resolved ts {r} at {t}"
            )));
        }
    }
    judged.then_some(Ok(()))
}

/// `cdc.consistent`.
pub fn consistent(run: &Run) -> Check {
    let diff = run.world.kernel.metrics.last(DIFF_ROWS)?;
    Some(if diff == 0.0 {
        Ok(())
    } else {
        Err(format!(
            "{diff} rows differ between upstream and downstream at the end"
        ))
    })
}

/// `cdc.single_writer`.
pub fn single_writer(run: &Run) -> Check {
    let series = run.world.kernel.metrics.series(WRITERS_MAX)?;
    Some(match series.iter().find(|(_, w)| *w > 1.0) {
        Some((t, w)) => Err(format!("{w} writers for one table at {t}")),
        None => Ok(()),
    })
}
