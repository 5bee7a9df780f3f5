//! CDC properties, judged from metric series the CDC model exports (skipped until it does).

use faultline_scenario::Run;
use faultline_sim::MetricStore;

use super::check::Check;

/// Prefix of per-changefeed checkpoint series: `checkpoint_ts.<changefeed>`.
pub const CHECKPOINT_PREFIX: &str = "checkpoint_ts.";
/// Prefix of per-changefeed resolved-ts series: `resolved_ts.<changefeed>`.
pub const RESOLVED_PREFIX: &str = "resolved_ts.";
/// Prefix of per-changefeed series of rows that differ between upstream and downstream:
/// `consistency_diff_rows.<changefeed>`.
pub const DIFF_ROWS_PREFIX: &str = "consistency_diff_rows.";
/// Prefix of per-changefeed series of the most writers any one table had at once:
/// `writers_max.<changefeed>`.
pub const WRITERS_MAX_PREFIX: &str = "writers_max.";

/// Every series whose name starts with `prefix`, with the changefeed id that follows it.
fn per_changefeed<'a>(m: &'a MetricStore, prefix: &str) -> Vec<(&'a str, &'a str)> {
    m.names()
        .iter()
        .filter_map(|n| n.strip_prefix(prefix).map(|cf| (n.as_str(), cf)))
        .collect()
}

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

/// `cdc.consistent`: every changefeed's rows at or below its checkpoint match upstream at the
/// end of the run (the model compares exactly those, so it holds at any instant).
pub fn consistent(run: &Run) -> Check {
    let m = &run.world.kernel.metrics;
    let series = per_changefeed(m, DIFF_ROWS_PREFIX);
    if series.is_empty() {
        return None;
    }
    for (name, cf) in series {
        let diff = m.last(name)?;
        if diff != 0.0 {
            return Some(Err(format!(
                "changefeed `{cf}`: {diff} rows differ between upstream and downstream at the end"
            )));
        }
    }
    Some(Ok(()))
}

/// `cdc.single_writer`: a guarantee of the fixed tiflow#9344 behaviour only, so it is skipped
/// when the scenario runs the buggy processor close or remove delay.
pub fn single_writer(run: &Run) -> Check {
    let t = &run.scenario.toggles;
    let fixed = t.cdc_processor_close_on_session_loss
        == faultline_scenario::ProcessorCloseOnSessionLoss::Immediate
        && t.cdc_capture_remove_delay.0 .0 > 0;
    if !fixed {
        return None;
    }
    let m = &run.world.kernel.metrics;
    let series = per_changefeed(m, WRITERS_MAX_PREFIX);
    if series.is_empty() {
        return None;
    }
    for (name, cf) in series {
        if let Some((t, w)) = m.series(name)?.into_iter().find(|(_, w)| *w > 1.0) {
            return Some(Err(format!(
                "changefeed `{cf}`: {w} writers for one table at {t}"
            )));
        }
    }
    Some(Ok(()))
}

/// Metric: how long the owner's current pass over the changefeeds has taken.
pub const OWNER_TICK: &str = "owner_tick_secs";

/// Longest owner pass tolerated: well above a healthy pass (milliseconds), well below the
/// minutes a synchronous Kafka producer close can take (tiflow#4241).
pub const OWNER_TICK_MAX_SECS: f64 = 5.0;

/// `cdc.owner_responsive`: the owner loop never spends more than [`OWNER_TICK_MAX_SECS`] on
/// one pass, so one changefeed cannot stall the others.
pub fn owner_responsive(run: &Run) -> Check {
    let series = run.world.kernel.metrics.series(OWNER_TICK)?;
    Some(match series.iter().find(|(_, v)| *v > OWNER_TICK_MAX_SECS) {
        Some((t, v)) => Err(format!(
            "an owner pass had taken {v} s at {t} (limit {OWNER_TICK_MAX_SECS} s): every changefeed waits behind it"
        )),
        None => Ok(()),
    })
}
