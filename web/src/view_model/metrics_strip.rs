//! The compact strip of headline numbers at the top of the page.

use faultline_scenario::Run;
use serde::{Deserialize, Serialize};

use super::chart_data::CHECKPOINT_LAG_ALERT_SECS;

/// One headline number.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StripItem {
    /// Metric name (`data-metric` in the page).
    pub name: String,
    /// Short caption.
    pub caption: String,
    /// Value at the cursor; `None` before the first sample.
    pub value: Option<f64>,
    /// The value is in the alarming range (a leaderless or orphaned region, lag over the
    /// alert line).
    pub alert: bool,
}

/// The strip's data.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MetricsStripVm {
    /// In display order; metrics the run lacks (CDC in a TiKV-only run) are left out.
    pub items: Vec<StripItem>,
}

/// The headline metrics at the run's current time.
pub fn metrics_strip(run: &Run) -> MetricsStripVm {
    let metrics = &run.world.kernel.metrics;
    let now = run.now();
    let mut wanted: Vec<(String, String, f64)> = vec![
        (
            "leaderless_regions".into(),
            "leaderless regions".into(),
            0.0,
        ),
        (
            "longest_leaderless_secs".into(),
            "longest leaderless (s)".into(),
            60.0,
        ),
        (
            "hibernated_peers".into(),
            "hibernated peers".into(),
            f64::INFINITY,
        ),
        ("orphaned_regions".into(), "orphaned regions".into(), 0.0),
    ];
    for name in metrics.names() {
        if let Some(cf) = name.strip_prefix("checkpoint_lag.") {
            wanted.push((
                name.clone(),
                format!("checkpoint lag {cf} (s)"),
                CHECKPOINT_LAG_ALERT_SECS,
            ));
        }
    }
    let items = wanted
        .into_iter()
        .filter(|(name, _, _)| metrics.index(name).is_some())
        .map(|(name, caption, alert_above)| {
            let value = metrics.at(&name, now);
            StripItem {
                alert: value.is_some_and(|v| v > alert_above),
                name,
                caption,
                value,
            }
        })
        .collect();
    MetricsStripVm { items }
}
