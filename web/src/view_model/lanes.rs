//! Swimlanes: a metric that encodes a state as a number (`sink_state.<cf>`), turned into one
//! lane of coloured segments per entity over time. Also the changefeed list, as
//! `cdc cli changefeed list` prints it.
//!
//! The lanes are generic (a lane is a name and segments with a state name) so every state
//! metric uses one view: the sink lanes of issue 7, and issue 6's table-to-capture assignment
//! (with the double-write windows highlighted) and owner identity.

use faultline_cdc::owner::lifecycle::CHANGEFEED_STATE_METRIC;
use faultline_scenario::Run;
use faultline_sim::{MetricStore, SimTime};
use serde::{Deserialize, Serialize};

/// One stretch of time in one state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Segment {
    /// Start, seconds.
    pub from_secs: f64,
    /// End, seconds (the next sample's time, or the last sample for the open segment).
    pub to_secs: f64,
    /// State name; also the CSS class suffix (`state-running`) and `data-state` value.
    pub state: String,
}

/// One lane (a changefeed, a table).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Lane {
    /// Lane label (`cf-1`).
    pub name: String,
    /// Segments in time order; consecutive samples in one state are merged.
    pub segments: Vec<Segment>,
    /// Windows drawn over the segments (state `double-write`: two captures write the table).
    pub highlights: Vec<Segment>,
}

/// Everything a swimlane view draws.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LanesVm {
    /// Title.
    pub title: String,
    /// A stable id for tests (`data-lanes`).
    pub id: String,
    /// Legend: the states in display order.
    pub states: Vec<String>,
    /// The x axis spans `0..x_max_secs` (the run's end) so it does not rescale while playing.
    pub x_max_secs: f64,
    /// The time cursor.
    pub cursor_secs: f64,
    /// The lanes.
    pub lanes: Vec<Lane>,
}

impl LanesVm {
    /// Lanes over `run`'s whole time axis, with its cursor.
    fn over_run(run: &Run, title: &str, id: &str, states: Vec<String>, lanes: Vec<Lane>) -> Self {
        LanesVm {
            title: title.into(),
            id: id.into(),
            states,
            x_max_secs: run.end().as_secs_f64().max(1.0),
            cursor_secs: run.now().as_secs_f64(),
            lanes,
        }
    }
}

/// Sink lane states, in legend order. `error` is not a sink state in the model: a changefeed
/// in `error` or `failed` has its sink closed (or closing) because of that error, and a reader
/// of the lane wants to see why it is down, so a closed sink of a failing changefeed is shown
/// as `error`.
pub const SINK_STATES: [&str; 4] = ["running", "closing", "closed", "error"];

/// `sink_state.<cf>` code to name (docs/scenario-format.md: 0 closed, 1 running, 2 closing).
fn sink_state_name(code: f64) -> &'static str {
    match code as i64 {
        1 => "running",
        2 => "closing",
        _ => "closed",
    }
}

/// `changefeed_state.<cf>` codes meaning the changefeed is down by an error (2 error,
/// 3 failed).
fn is_error_code(code: f64) -> bool {
    matches!(code as i64, 2 | 3)
}

/// The sink state lane of every changefeed, from the `sink_state.<cf>` samples up to the
/// run's current time.
pub fn sink_lanes(run: &Run) -> LanesVm {
    let metrics = &run.world.kernel.metrics;
    let lanes = metrics
        .names()
        .iter()
        .filter_map(|n| n.strip_prefix("sink_state."))
        .map(|cf| Lane {
            name: cf.to_string(),
            segments: sink_segments(metrics, cf),
            highlights: Vec::new(),
        })
        .collect();
    let states = SINK_STATES.iter().map(|s| s.to_string()).collect();
    LanesVm::over_run(
        run,
        "Sink state per changefeed",
        "sink-state",
        states,
        lanes,
    )
}

fn sink_segments(metrics: &MetricStore, cf: &str) -> Vec<Segment> {
    let sink = metrics
        .series(&format!("sink_state.{cf}"))
        .unwrap_or_default();
    let feed = metrics
        .series(&format!("{CHANGEFEED_STATE_METRIC}{cf}"))
        .unwrap_or_default();
    // Both metrics are sampled in the same rows, so index i is the same instant.
    let states = sink.iter().enumerate().map(|(i, &(t, code))| {
        let name = sink_state_name(code);
        let failing = feed.get(i).is_some_and(|&(_, f)| is_error_code(f));
        (
            t,
            if failing && name == "closed" {
                "error"
            } else {
                name
            },
        )
    });
    merge(states)
}

/// Merges consecutive samples in one state into segments. Each segment runs until the next
/// sample of a different state; the last one ends at the last sample.
pub fn merge<'a>(samples: impl Iterator<Item = (SimTime, &'a str)>) -> Vec<Segment> {
    let mut out: Vec<Segment> = Vec::new();
    for (t, state) in samples {
        let secs = t.as_secs_f64();
        if let Some(last) = out.last_mut() {
            last.to_secs = secs;
            if last.state == state {
                continue;
            }
        }
        out.push(Segment {
            from_secs: secs,
            to_secs: secs,
            state: state.to_string(),
        });
    }
    out
}

/// The state name of a 1-based capture index metric (`table_capture`, `owner_capture`):
/// `cdc-N`, or `none` for 0.
fn capture_name(code: f64) -> String {
    match code as i64 {
        n if n >= 1 => format!("cdc-{n}"),
        _ => "none".to_string(),
    }
}

/// Samples of `name` as named states.
fn named_states(
    metrics: &MetricStore,
    name: &str,
    state: fn(f64) -> String,
) -> Vec<(SimTime, String)> {
    metrics
        .series(name)
        .unwrap_or_default()
        .into_iter()
        .map(|(t, v)| (t, state(v)))
        .collect()
}

/// Segments of a named-state series.
fn segments_of(samples: &[(SimTime, String)]) -> Vec<Segment> {
    merge(samples.iter().map(|(t, s)| (*t, s.as_str())))
}

/// The state of a double write: the table has two writers.
pub const DOUBLE_WRITE: &str = "double-write";

/// Windows where `writers.<cf>.t<N>` is 2 or more (two captures write one table).
pub fn double_writes(metrics: &MetricStore, cf: &str, table: &str) -> Vec<Segment> {
    let samples = named_states(metrics, &format!("writers.{cf}.{table}"), |v| {
        if v >= 2.0 { DOUBLE_WRITE } else { "single" }.to_string()
    });
    segments_of(&samples)
        .into_iter()
        .filter(|s| s.state == DOUBLE_WRITE)
        .collect()
}

/// The legend: every state drawn, in a stable order (`cdc-1`, `cdc-2`, ..., `none`).
fn legend(lanes: &[Lane]) -> Vec<String> {
    let mut states: Vec<String> = lanes
        .iter()
        .flat_map(|l| l.segments.iter().map(|s| s.state.clone()))
        .collect();
    states.sort_by_key(|s| (s == "none", s.len(), s.clone()));
    states.dedup();
    if lanes.iter().any(|l| !l.highlights.is_empty()) {
        states.push(DOUBLE_WRITE.to_string());
    }
    states
}

/// Which capture owns each table over time (`table_capture.<cf>.t<N>`, the first 16 tables of
/// each changefeed), with the windows where two captures write the table highlighted
/// (`writers.<cf>.t<N>` >= 2). Empty without the scheduler's metrics.
pub fn table_lanes(run: &Run) -> LanesVm {
    let metrics = &run.world.kernel.metrics;
    let keys: Vec<(&str, &str)> = metrics
        .names()
        .iter()
        .filter_map(|n| n.strip_prefix("table_capture."))
        .filter_map(|rest| rest.rsplit_once('.'))
        .collect();
    let several_feeds = keys
        .first()
        .is_some_and(|(cf, _)| keys.iter().any(|(c, _)| c != cf));
    let lanes: Vec<Lane> = keys
        .iter()
        .map(|&(cf, table)| Lane {
            name: if several_feeds {
                format!("{cf} {table}")
            } else {
                table.to_string()
            },
            segments: segments_of(&named_states(
                metrics,
                &format!("table_capture.{cf}.{table}"),
                capture_name,
            )),
            highlights: double_writes(metrics, cf, table),
        })
        .collect();
    let title = "Table to capture (double writes outlined)";
    LanesVm::over_run(run, title, "table-capture", legend(&lanes), lanes)
}

/// The owner capture over time (`owner_capture`). Empty without the metric.
pub fn owner_lane(run: &Run) -> LanesVm {
    let metrics = &run.world.kernel.metrics;
    let lanes: Vec<Lane> = metrics
        .index("owner_capture")
        .map(|_| Lane {
            name: "owner".into(),
            segments: segments_of(&named_states(metrics, "owner_capture", capture_name)),
            highlights: Vec::new(),
        })
        .into_iter()
        .collect();
    LanesVm::over_run(run, "TiCDC owner", "owner", legend(&lanes), lanes)
}

/// One row of `cdc cli changefeed list`, with the owner-side sink state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChangefeedListRow {
    /// Changefeed id.
    pub id: String,
    /// `mysql` or `kafka`.
    pub sink_type: String,
    /// `normal`, `warning`, `error`, `failed`, `stopped`, `finished`.
    pub state: String,
    /// Owner-side sink: `running`, `closing`, `closed`.
    pub sink: String,
    /// Checkpoint as simulated time, seconds.
    pub checkpoint_secs: f64,
    /// Checkpoint lag, seconds.
    pub checkpoint_lag_secs: f64,
    /// The last error, as the owner recorded it.
    pub error: Option<String>,
}

/// The changefeed list at the run's current time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChangefeedListVm {
    /// One row per changefeed, in file order. Empty when the run has no TiCDC.
    pub rows: Vec<ChangefeedListRow>,
}

/// The changefeed list at the run's current time, from `Cdc::changefeed_list`.
pub fn changefeed_list(run: &Run) -> ChangefeedListVm {
    let cdc = &run.world.model.cdc;
    if !cdc.enabled() {
        return ChangefeedListVm { rows: Vec::new() };
    }
    let rows = cdc
        .changefeed_list(run.now())
        .into_iter()
        .map(|r| ChangefeedListRow {
            id: r.id,
            sink_type: r.sink_type.to_string(),
            state: r.state.name().to_string(),
            sink: r.sink.name().to_string(),
            checkpoint_secs: r.checkpoint_secs,
            checkpoint_lag_secs: r.checkpoint_lag_secs,
            error: r.error,
        })
        .collect();
    ChangefeedListVm { rows }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merging_keeps_one_segment_per_stretch() {
        let s = merge(
            [
                (0, "running"),
                (1, "running"),
                (2, "closing"),
                (5, "closed"),
            ]
            .into_iter()
            .map(|(t, s)| (SimTime(t * 1_000_000), s)),
        );
        let got: Vec<(f64, f64, &str)> = s
            .iter()
            .map(|g| (g.from_secs, g.to_secs, g.state.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (0.0, 2.0, "running"),
                (2.0, 5.0, "closing"),
                (5.0, 5.0, "closed")
            ]
        );
    }

    #[test]
    fn codes_follow_the_documented_metric() {
        assert_eq!(sink_state_name(0.0), "closed");
        assert_eq!(sink_state_name(1.0), "running");
        assert_eq!(sink_state_name(2.0), "closing");
        assert!(is_error_code(2.0) && is_error_code(3.0) && !is_error_code(1.0));
        assert_eq!(capture_name(2.0), "cdc-2");
        assert_eq!(capture_name(0.0), "none");
    }

    #[test]
    fn legend_orders_captures_then_none_then_double_write() {
        let seg = |s: &str| Segment {
            from_secs: 0.0,
            to_secs: 1.0,
            state: s.into(),
        };
        let lanes = [
            Lane {
                name: "t1".into(),
                segments: vec![seg("none"), seg("cdc-10"), seg("cdc-2")],
                highlights: vec![seg(DOUBLE_WRITE)],
            },
            Lane {
                name: "t2".into(),
                segments: vec![seg("cdc-1")],
                highlights: Vec::new(),
            },
        ];
        assert_eq!(
            legend(&lanes),
            ["cdc-1", "cdc-2", "cdc-10", "none", DOUBLE_WRITE]
        );
    }
}
