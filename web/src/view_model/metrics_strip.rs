//! The compact strip of headline numbers at the top of the page.

use faultline_cdc::check::metrics::CHECKPOINT_LAG_METRIC;
use faultline_cdc::owner::lifecycle::CHANGEFEED_STATE_METRIC;
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
        if let Some(cf) = name.strip_prefix(CHECKPOINT_LAG_METRIC) {
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

/// The state a state-coded metric's value stands for (`sink_state.cf-1` = 2 is "closing"),
/// so the page says `sink: closing` rather than a number; None for other metrics or codes.
pub fn state_name(metric: &str, value: f64) -> Option<&'static str> {
    use faultline_cdc::owner::lifecycle::{FeedStatus, ProcessorState, SinkState};
    let prefix = metric.split('.').next()?;
    let code = u8::try_from(value as i64)
        .ok()
        .filter(|c| f64::from(*c) == value)?;
    match prefix {
        _ if metric.starts_with(CHANGEFEED_STATE_METRIC) => FeedStatus::ALL
            .into_iter()
            .find(|s| s.code() == code)
            .map(FeedStatus::name),
        "sink_state" => SinkState::ALL
            .into_iter()
            .find(|s| s.code() == code)
            .map(SinkState::name),
        "processor_state" => ProcessorState::ALL
            .into_iter()
            .find(|s| s.code() == code)
            .map(ProcessorState::name),
        _ => None,
    }
}

#[cfg(test)]
mod state_tests {
    use super::state_name;

    #[test]
    fn state_codes_read_as_names() {
        assert_eq!(state_name("sink_state.kafka-cf-1", 2.0), Some("closing"));
        assert_eq!(
            state_name("changefeed_state.kafka-cf-1", 2.0),
            Some("error")
        );
        assert_eq!(
            state_name("processor_state.cf-1.cdc-1", 2.0),
            Some("running")
        );
        assert_eq!(state_name("leaderless_regions", 2.0), None);
        assert_eq!(state_name("sink_state.cf", 1.5), None);
    }
}
