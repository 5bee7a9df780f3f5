//! The series a chart shows, read from the runs' metric stores. Several runs can be overlaid
//! (compare mode: buggy vs fixed); each series carries its run's label.

use faultline_scenario::Run;
use faultline_sim::{MetricStore, SimTime};
use serde::{Deserialize, Serialize};

/// TiCDC's alert on resolved-ts lag (seconds).
pub const RESOLVED_LAG_ALERT_SECS: f64 = 300.0;
/// TiCDC's alert on checkpoint lag (seconds).
pub const CHECKPOINT_LAG_ALERT_SECS: f64 = 600.0;
/// TiCDC warns `changefeed tick took too long` past this (seconds).
pub const OWNER_TICK_WARN_SECS: f64 = 1.0;
/// Points per series beyond which a series is thinned (keeping each bucket's extremes), so a
/// long run stays cheap to draw and to send across a worker boundary.
pub const MAX_POINTS: usize = 2_000;

/// Which chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ChartKind {
    /// Leaderless regions (left axis) and hibernated peers (right axis).
    Leaderless,
    /// Checkpoint and resolved-ts lag per changefeed, with the alert lines.
    CdcLag,
    /// Resolved-ts lag of the first tables (a frozen table shows as a 1 s/s ramp).
    TableLag,
    /// Rows per second acknowledged by the sink, per changefeed.
    SinkRows,
    /// Regions whose range is locked but owned by no KV client worker.
    Orphaned,
    /// Peers per hibernate GroupState.
    GroupStates,
    /// Leaders per store.
    LeadersPerStore,
    /// Replicas per store and the region count (left axis) and stores Up, Offline and
    /// Tombstone (right axis): a store joining fills, a store leaving drains, a split adds
    /// regions. Only in runs whose stores or regions change.
    Stores,
    /// The write path: transactions committed, Raft proposals and applied entries per second
    /// (left axis), and the client's failed requests so far by reason (right axis), so a
    /// leader without a quorum shows as proposals with no commits.
    Writes,
    /// How long the TiCDC owner's pass over the changefeeds takes (tiflow#4241: a blocking
    /// sink close stretches it to the Kafka timeout).
    OwnerTick,
    /// Most captures writing one table of each changefeed (2 = a double write, tiflow#9344).
    Writers,
    /// Lease time left of each capture's etcd session, as PD sees it.
    Lease,
    /// Metrics picked by name (`faultline chart --metric`); not one of the page's charts.
    Metrics,
}

impl ChartKind {
    /// Every chart, in page order.
    pub const ALL: [ChartKind; 12] = [
        ChartKind::Leaderless,
        ChartKind::CdcLag,
        ChartKind::TableLag,
        ChartKind::SinkRows,
        ChartKind::Orphaned,
        ChartKind::GroupStates,
        ChartKind::LeadersPerStore,
        ChartKind::Stores,
        ChartKind::Writes,
        ChartKind::OwnerTick,
        ChartKind::Writers,
        ChartKind::Lease,
    ];

    /// A stable id for element ids and tests.
    pub fn id(self) -> &'static str {
        match self {
            ChartKind::Leaderless => "leaderless",
            ChartKind::CdcLag => "cdc-lag",
            ChartKind::TableLag => "table-lag",
            ChartKind::SinkRows => "sink-rows",
            ChartKind::Orphaned => "orphaned",
            ChartKind::GroupStates => "group-states",
            ChartKind::LeadersPerStore => "leaders",
            ChartKind::Stores => "stores",
            ChartKind::Writes => "writes",
            ChartKind::OwnerTick => "owner-tick",
            ChartKind::Writers => "writers",
            ChartKind::Lease => "lease",
            ChartKind::Metrics => "metrics",
        }
    }

    /// The chart with this [`id`](ChartKind::id), among the page's charts.
    pub fn from_id(id: &str) -> Option<ChartKind> {
        ChartKind::ALL.into_iter().find(|k| k.id() == id)
    }

    pub(crate) fn title(self) -> &'static str {
        match self {
            ChartKind::Leaderless => "Leaderless regions and hibernated peers",
            ChartKind::CdcLag => "Changefeed checkpoint and resolved-ts lag",
            ChartKind::TableLag => "Table resolved-ts lag",
            ChartKind::SinkRows => "Rows/s into the sink",
            ChartKind::Orphaned => "Orphaned regions",
            ChartKind::GroupStates => "Peers per GroupState",
            ChartKind::LeadersPerStore => "Leaders per store",
            ChartKind::Stores => "Replicas per store and regions",
            ChartKind::Writes => "Writes per second",
            ChartKind::OwnerTick => "TiCDC owner tick duration",
            ChartKind::Writers => "Captures writing one table (max per changefeed)",
            ChartKind::Lease => "etcd lease remaining per capture",
            ChartKind::Metrics => "Metrics",
        }
    }

    /// What the title adds for the series on the right axis, when the run has any: a title
    /// naming a right axis the chart does not draw would describe another run.
    pub(crate) fn right_axis_title(self) -> Option<&'static str> {
        match self {
            ChartKind::Stores => Some("; stores by state, learners and snapshots (right)"),
            ChartKind::Writes => Some(", and failed client requests so far (right)"),
            _ => None,
        }
    }

    pub(crate) fn y_label(self) -> &'static str {
        match self {
            ChartKind::Leaderless => "leaderless regions",
            ChartKind::CdcLag | ChartKind::TableLag => "lag (s)",
            ChartKind::SinkRows => "rows/s",
            ChartKind::Orphaned => "regions",
            ChartKind::GroupStates => "peers",
            ChartKind::LeadersPerStore => "leaders",
            ChartKind::Stores => "replicas, regions",
            ChartKind::Writes => "per second",
            ChartKind::OwnerTick | ChartKind::Lease => "seconds",
            ChartKind::Writers => "writers",
            ChartKind::Metrics => "value",
        }
    }

    /// The right-hand axis's label, for the charts that have one.
    pub(crate) fn y2_label(self) -> &'static str {
        match self {
            ChartKind::Writes => "failed requests (total)",
            ChartKind::Stores => "stores, learners",
            _ => "hibernated peers",
        }
    }

    /// True when this chart draws metric `name`.
    pub fn shows(self, name: &str) -> bool {
        self.axis_of(name).is_some()
    }

    /// Does a metric belong on the left axis (`Some(false)`), the right one (`Some(true)`),
    /// or not on this chart?
    fn axis_of(self, name: &str) -> Option<bool> {
        let left = match self {
            ChartKind::Leaderless if name == "hibernated_peers" => return Some(true),
            ChartKind::Leaderless => name == "leaderless_regions",
            ChartKind::Writes if name.starts_with("failed_writes.") => return Some(true),
            ChartKind::Writes => matches!(
                name,
                "txns_committed_per_sec" | "writes_proposed_per_sec" | "writes_applied_per_sec"
            ),
            ChartKind::CdcLag => {
                name.starts_with("checkpoint_lag.") || name.starts_with("resolved_lag.")
            }
            ChartKind::TableLag => name.starts_with("table_resolved_lag."),
            ChartKind::SinkRows => name.starts_with("sink_rows_per_sec."),
            ChartKind::Orphaned => name == "orphaned_regions",
            ChartKind::GroupStates => name.starts_with("peers."),
            ChartKind::LeadersPerStore => name.starts_with("leaders."),
            // Small counts beside the store states: the moves under way.
            ChartKind::Stores
                if name.starts_with("stores.")
                    || matches!(
                        name,
                        "learners" | "snapshots_in_flight" | "replicas_per_region.max"
                    ) =>
            {
                return Some(true)
            }
            // The region count sits with the replicas: the same magnitude (each store holds
            // about regions x replicas / stores), and it moves when a split adds regions.
            ChartKind::Stores => name.starts_with("replicas.") || name == "regions",
            ChartKind::OwnerTick => name == "owner_tick_secs",
            ChartKind::Writers => name.starts_with("writers_max."),
            ChartKind::Lease => name.starts_with("lease_remaining."),
            // Picked by name in `metric_chart`, never by prefix.
            ChartKind::Metrics => false,
        };
        left.then_some(false)
    }

    fn alerts(self) -> Vec<AlertLine> {
        match self {
            ChartKind::CdcLag => vec![
                AlertLine {
                    label: "resolved-ts lag alert (300 s)".into(),
                    value: RESOLVED_LAG_ALERT_SECS,
                },
                AlertLine {
                    label: "checkpoint lag alert (600 s)".into(),
                    value: CHECKPOINT_LAG_ALERT_SECS,
                },
            ],
            ChartKind::TableLag => vec![AlertLine {
                label: "resolved-ts lag alert (300 s)".into(),
                value: RESOLVED_LAG_ALERT_SECS,
            }],
            // TiCDC logs `changefeed tick took too long` past 1 s.
            ChartKind::OwnerTick => vec![AlertLine {
                label: "tick took too long (1 s)".into(),
                value: OWNER_TICK_WARN_SECS,
            }],
            ChartKind::Writers => vec![AlertLine {
                label: "double write (2 writers)".into(),
                value: 2.0,
            }],
            _ => Vec::new(),
        }
    }
}

/// One line on a chart.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Series {
    /// Legend text: the metric name, prefixed by the run's label when runs are overlaid.
    pub label: String,
    /// The metric.
    pub metric: String,
    /// Which run (0 = the first; later runs are drawn dashed).
    pub run: usize,
    /// Palette slot: the same metric has the same colour in every run.
    pub colour: usize,
    /// Drawn against the right-hand axis.
    pub secondary: bool,
    /// `(seconds, value)` samples.
    pub points: Vec<(f64, f64)>,
}

/// A horizontal threshold line (a real alert rule).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AlertLine {
    /// What the alert is.
    pub label: String,
    /// The threshold on the left axis.
    pub value: f64,
}

/// Everything a chart draws.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChartData {
    /// Which chart.
    pub kind: ChartKind,
    /// Title.
    pub title: String,
    /// Left axis label.
    pub y_label: String,
    /// Right axis label, when some series use it.
    pub y2_label: Option<String>,
    /// The x axis spans `0..x_max_secs` (the longest run's end), so it does not rescale
    /// while playing.
    pub x_max_secs: f64,
    /// The lines.
    pub series: Vec<Series>,
    /// Alert thresholds.
    pub alerts: Vec<AlertLine>,
    /// The time cursor, drawn as a vertical line.
    pub cursor_secs: Option<f64>,
    /// The fault script's moments (`kill tikv-1` at 60 s), drawn as marks on the time axis.
    #[serde(default)]
    pub faults: Vec<FaultMark>,
    /// The highest value (left, right axis) the axes must reach even if this chart's own
    /// series stay lower: compare mode draws one chart per run, and they share their axes.
    #[serde(default)]
    pub shared_max: Option<(f64, f64)>,
}

/// A fault's moment on a chart.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FaultMark {
    /// When (seconds).
    pub secs: f64,
    /// What, in the chips' words: `kill tikv-1`, `merge region 2`.
    pub label: String,
}

/// The fault moments of a run's scenario, in time order. Faults at the same moment share one
/// mark (`kill tikv-1, kill tikv-2`), so their labels never print over each other.
pub fn fault_marks(run: &Run) -> Vec<FaultMark> {
    let mut faults: Vec<_> = run.scenario.faults.iter().collect();
    faults.sort_by_key(|f| f.at);
    let mut marks: Vec<FaultMark> = Vec::new();
    for f in faults {
        let secs = f.at.to_time().as_secs_f64();
        let label = f.short_label();
        match marks.last_mut() {
            Some(m) if m.secs == secs => {
                m.label.push_str(", ");
                m.label.push_str(&label);
            }
            _ => marks.push(FaultMark { secs, label }),
        }
    }
    marks
}

impl ChartData {
    /// True when no run has any of this chart's metrics (e.g. CDC charts of a TiKV-only run).
    pub fn is_empty(&self) -> bool {
        self.series.is_empty()
    }
}

/// A run and the label its series get in compare mode (`"buggy"`, `"fixed"`).
#[derive(Clone, Copy)]
pub struct LabelledRun<'a> {
    /// Legend prefix.
    pub label: &'a str,
    /// The run.
    pub run: &'a Run,
}

/// The palette slots the node series of chart `kind` take (`replicas.tikv-2` -> tikv-2's).
fn node_slots_in(kind: ChartKind, runs: &[LabelledRun<'_>]) -> Vec<usize> {
    let mut slots: Vec<usize> = runs
        .iter()
        .flat_map(|lr| lr.run.world.kernel.metrics.names())
        .filter(|name| kind.axis_of(name).is_some())
        .filter_map(|name| crate::node_colour::metric_colour_slot(name))
        .map(|slot| slot % crate::palette::CYCLE_LEN)
        .collect();
    slots.sort_unstable();
    slots.dedup();
    slots
}

/// The `i`-th palette slot not in `taken` (cycling when every slot is taken or `i` runs past
/// the free ones).
fn free_slot(i: usize, taken: &[usize]) -> usize {
    let free: Vec<usize> = (0..crate::palette::CYCLE_LEN)
        .filter(|s| !taken.contains(s))
        .collect();
    if free.is_empty() {
        i
    } else {
        free[i % free.len()]
    }
}

/// The data of chart `kind` over `runs`, with the cursor at `cursor`.
pub fn chart_data(kind: ChartKind, runs: &[LabelledRun<'_>], cursor: Option<SimTime>) -> ChartData {
    let mut names: Vec<String> = Vec::new();
    let mut series = Vec::new();
    let node_slots = node_slots_in(kind, runs);
    for (ri, lr) in runs.iter().enumerate() {
        let metrics = &lr.run.world.kernel.metrics;
        for name in metrics.names() {
            let Some(secondary) = kind.axis_of(name) else {
                continue;
            };
            // A node's series take the node's colour, so tikv-2 looks the same everywhere.
            let by_node = crate::node_colour::metric_colour_slot(name);
            // Other series take the palette's slots no node of this chart holds, so
            // `stores.up` is not drawn in tikv-1's blue beside `replicas.tikv-1`.
            let colour = match (by_node, names.iter().position(|n| n == name)) {
                (Some(slot), _) => slot,
                (None, Some(i)) => free_slot(i, &node_slots),
                (None, None) => {
                    names.push(name.clone());
                    free_slot(names.len() - 1, &node_slots)
                }
            };
            let label = if runs.len() > 1 {
                format!("{}: {name}", lr.label)
            } else {
                name.clone()
            };
            series.push(Series {
                label,
                metric: name.clone(),
                run: ri,
                colour,
                secondary,
                points: points(metrics, name),
            });
        }
    }
    let x_max_secs = runs
        .iter()
        .map(|r| r.run.end().as_secs_f64())
        .fold(1.0, f64::max);
    let right_axis = series.iter().any(|s| s.secondary);
    let title = match kind.right_axis_title().filter(|_| right_axis) {
        Some(more) => format!("{}{more}", kind.title()),
        None => kind.title().to_string(),
    };
    ChartData {
        kind,
        title,
        y_label: kind.y_label().to_string(),
        y2_label: right_axis.then(|| kind.y2_label().to_string()),
        x_max_secs,
        series,
        alerts: kind.alerts(),
        cursor_secs: cursor.map(SimTime::as_secs_f64),
        faults: runs.first().map(|r| fault_marks(r.run)).unwrap_or_default(),
        shared_max: None,
    }
}

/// The charts that have data in `run`. Every run has per-store replica counts; the stores
/// chart is offered only where stores can join or leave (flat lines elsewhere).
pub fn available_charts(run: &Run) -> Vec<ChartKind> {
    let names = run.world.kernel.metrics.names();
    ChartKind::ALL
        .into_iter()
        .filter(|k| names.iter().any(|n| k.axis_of(n).is_some()))
        .filter(|k| *k != ChartKind::Stores || layout_changes(&run.scenario))
        .collect()
}

/// Whether a scenario's stores or regions can change: stores may join, the script removes
/// one, splits or merges a region, or regions are made small enough to split by size.
fn layout_changes(s: &faultline_scenario::Scenario) -> bool {
    let split_size = faultline_scenario::Topology::default().region_split_size_mib;
    s.topology.max_stores > s.topology.stores
        || s.topology.region_split_size_mib < split_size
        || s.faults.iter().any(|f| f.action.verb().changes_layout())
}

pub(crate) fn points(metrics: &MetricStore, name: &str) -> Vec<(f64, f64)> {
    let raw: Vec<(f64, f64)> = metrics
        .series(name)
        .unwrap_or_default()
        .into_iter()
        .map(|(t, v)| (t.as_secs_f64(), v))
        .collect();
    thin(raw, MAX_POINTS)
}

/// Keeps at most about `max` points: per bucket its first, lowest and highest sample, so
/// spikes (a leaderless burst) survive thinning.
pub fn thin(points: Vec<(f64, f64)>, max: usize) -> Vec<(f64, f64)> {
    if points.len() <= max || max < 3 {
        return points;
    }
    let bucket = points.len().div_ceil(max / 3);
    let mut out = Vec::with_capacity(max);
    for chunk in points.chunks(bucket) {
        let mut keep = [0, 0, 0];
        for (i, p) in chunk.iter().enumerate() {
            if p.1 < chunk[keep[1]].1 {
                keep[1] = i;
            }
            if p.1 > chunk[keep[2]].1 {
                keep[2] = i;
            }
        }
        keep.sort_unstable();
        let mut last = usize::MAX;
        for k in keep {
            if k != last {
                out.push(chunk[k]);
                last = k;
            }
        }
    }
    out
}

#[cfg(test)]
#[path = "chart_data_tests.rs"]
mod tests;
