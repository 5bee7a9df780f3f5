//! What crosses the Web Worker boundary: commands from the page, frames back. Plain serde
//! data (bincode through gloo-worker); no closures, no model types. Times are simulated
//! microseconds.

use std::rc::Rc;

use serde::{Deserialize, Serialize};

use crate::view_model as vm;

/// A command, numbered so a frame can say which commands it already reflects.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToEngine {
    /// Increasing per page; frames echo the last one handled in [`Frame::ack`].
    pub seq: u64,
    /// What to do.
    pub cmd: Command,
}

/// What the page asks the engine to do.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Command {
    /// Run the scenario of `link` (a `v1.` share link, so the worker runs exactly what a
    /// shared URL would) from t = 0, with the compare twin for toggle `compare`, then move to
    /// `cursor` (None: where the previous run was) and set playing (None: unchanged).
    Load {
        /// The scenario as a `v1.` link.
        link: String,
        /// Compare mode: the toggle flipped in the twin.
        compare: Option<usize>,
        /// Where to go (µs), or None to keep the previous cursor.
        cursor: Option<u64>,
        /// Play or pause afterwards, or None to keep.
        play: Option<bool>,
    },
    /// Start (toggle index) or leave (None) compare mode; the twin joins the cursor.
    Compare(Option<usize>),
    /// Play / pause (from the end, play starts over).
    TogglePlay,
    /// Pause, finishing any pending seek at once (so the next frame is exact).
    Pause,
    /// Change the speed and play.
    SetSpeed(Speed),
    /// Process one event (paused).
    StepEvent,
    /// Process events until the named node handles a message or a tick (paused).
    StepToNode(String),
    /// Move the cursor to a time (µs), paused; rewinds through snapshots if needed.
    Seek(u64),
    /// Which views the page shows, and their parameters.
    Views(ViewRequest),
    /// The Explore panel's jobs.
    Explore(ExploreCmd),
    /// TOML import and export (the page links no TOML code); answered at once with
    /// [`FromEngine::Toml`], without touching the runs.
    Toml(TomlCmd),
    /// Find where the runs of two links first differ (compare mode's "jump to the first
    /// difference"); answered at once with [`FromEngine::FirstDifference`].
    FirstDifference {
        /// The primary run's link.
        a: String,
        /// The twin's link.
        b: String,
    },
}

/// What the Explore panel asks for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ExploreCmd {
    /// Explore the scenario of `link` over `seeds` seeds from `first_seed`, with the fault
    /// budget `faults` (the CLI's `--faults`; empty for the default).
    Start {
        /// The base scenario as a `v1.` link.
        link: String,
        /// Fault budget.
        faults: String,
        /// First seed.
        first_seed: u64,
        /// How many seeds.
        seeds: u64,
    },
    /// Stop the running job (explore or shrink).
    Stop,
    /// Shrink failure `i` of the explore job.
    Shrink(usize),
}

/// TOML work the page hands to the worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum TomlCmd {
    /// Parse and validate an imported file (its name, for messages, and its text).
    Import {
        /// The file name.
        name: String,
        /// Its text.
        text: String,
    },
    /// Print the scenario of `link` (a `v1.` link) as TOML.
    Export {
        /// The scenario as a `v1.` link.
        link: String,
    },
}

/// The answer to a [`TomlCmd`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum TomlAnswer {
    /// An import: the scenario as a `v1.` link, or the message the page shows.
    Imported {
        /// The file name.
        name: String,
        /// The scenario's link, or the error (file, line and column included).
        result: Result<String, String>,
    },
    /// An export: the scenario's link and its TOML text.
    Exported {
        /// The link it was asked for.
        link: String,
        /// The TOML text.
        text: String,
    },
}

/// One failing property on one seed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FailureView {
    /// The seed.
    pub seed: u64,
    /// Property name (`expect[0]`, `liveness.leader`, …).
    pub property: String,
    /// What failed.
    pub message: String,
    /// The failing scenario as a `v1.` link.
    pub link: String,
}

/// A shrink's progress.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShrinkView {
    /// Which failure it shrinks.
    pub index: usize,
    /// `running`, `done`, `capped` or `failed`.
    pub state: String,
    /// Why it failed.
    pub error: Option<String>,
    /// Simulation runs spent.
    pub runs: u64,
    /// Faults before and now.
    pub faults: (usize, usize),
    /// Stores, regions and duration (µs) of the smallest failing scenario.
    pub size: (u32, u32, u64),
    /// The smallest failing scenario as a `v1.` link.
    pub link: String,
}

/// An explore job's progress.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExploreProgress {
    /// `running`, `stopped` or `finished`.
    pub state: String,
    /// Seeds finished.
    pub done: u64,
    /// Seeds in total.
    pub total: u64,
    /// Seeds with a failure.
    pub failing_seeds: u64,
    /// The seed running and how far (0..=1).
    pub running: Option<(u64, f64)>,
    /// Notes (fault kinds skipped).
    pub notes: Vec<String>,
    /// The first failures (at most [`super::MAX_FAILURES`]).
    pub failures: Vec<FailureView>,
    /// Failures in all.
    pub failure_count: usize,
    /// The shrink, if one was asked for.
    pub shrink: Option<ShrinkView>,
}

/// The Explore panel's state.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ExploreView {
    /// A problem with the inputs.
    pub error: Option<String>,
    /// The job.
    pub job: Option<ExploreProgress>,
}

impl ExploreView {
    /// True while a job runs (explore or shrink).
    pub fn busy(&self) -> bool {
        self.job.as_ref().is_some_and(|j| {
            j.state == "running" || j.shrink.as_ref().is_some_and(|s| s.state == "running")
        })
    }
}

/// The views tab the page shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ViewTab {
    /// No views panel (embed).
    #[default]
    None,
    /// Charts.
    Charts,
    /// Region map and detail.
    Regions,
    /// Event and message log.
    Log,
    /// Space-time diagram.
    SpaceTime,
    /// Watermark blame.
    Blame,
    /// Consistency check (only computed while paused).
    Consistency,
    /// The TiCDC lifecycle.
    Cdc,
}

/// The views the page wants in each frame.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ViewRequest {
    /// The open tab.
    pub tab: ViewTab,
    /// Selected region (region detail).
    pub region: Option<u32>,
    /// Nodes drawn in the space-time diagram.
    pub space_time_nodes: Vec<String>,
}

/// Whether the run moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum RunState {
    /// Nothing loaded yet.
    #[default]
    Loading,
    /// Playing.
    Running,
    /// Catching up with a seek.
    Seeking,
    /// Paused.
    Paused,
    /// At the end (and the twin too).
    Finished,
}

impl RunState {
    /// `running`, `seeking`, `paused` or `finished` (the e2e tests wait for these).
    pub fn name(self) -> &'static str {
        match self {
            RunState::Loading | RunState::Seeking => "seeking",
            RunState::Running => "running",
            RunState::Paused => "paused",
            RunState::Finished => "finished",
        }
    }
}

/// A node of the cluster at the cursor (topology editor, pickers).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NodeView {
    /// `tikv-1`, `cdc-2`, …
    pub name: String,
    /// The model's kind string.
    pub kind: String,
    /// `up`, `crashed`, `paused`; a store PD does not count as serving: `absent`, `offline`,
    /// `tombstone`.
    pub state: String,
    /// Leaders held (stores only).
    pub leaders: Option<f64>,
}

/// The compare twin at the cursor.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TwinFrame {
    /// Which toggle is flipped.
    pub toggle: usize,
    /// Its clock.
    pub now_us: u64,
    /// Its trace hash.
    pub trace_hash: u64,
    /// Headline numbers.
    pub strip: Rc<vm::MetricsStripVm>,
    /// Expectations.
    pub expectations: Rc<vm::ExpectationsVm>,
    /// Its region map, while the Regions tab is open (compare mode shows both maps).
    pub region_map: Option<Rc<vm::RegionMapVm>>,
}

/// The TiCDC tab's data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CdcViews {
    /// `cdc cli changefeed list`.
    pub list: Rc<vm::ChangefeedListVm>,
    /// Sink state lanes.
    pub sink_lanes: Rc<vm::LanesVm>,
    /// Owner tick chart.
    pub owner_tick: Rc<vm::ChartData>,
    /// Capture sessions, when the run has them.
    pub sessions: Option<SessionViews>,
}

/// Capture sessions and scheduling (tiflow#9344).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SessionViews {
    /// Owner lane.
    pub owner: Rc<vm::LanesVm>,
    /// Table capture lanes.
    pub tables: Rc<vm::LanesVm>,
    /// Writers chart.
    pub writers: Rc<vm::ChartData>,
    /// Lease chart.
    pub lease: Rc<vm::ChartData>,
}

/// The open tab's data.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum ViewData {
    /// Nothing asked for.
    #[default]
    None,
    /// One chart per available kind (both runs overlaid in compare mode).
    Charts(Vec<Rc<vm::ChartData>>),
    /// Region map and the selected region.
    Regions {
        /// One pixel per region.
        map: Rc<vm::RegionMapVm>,
        /// The selected region.
        detail: Option<vm::RegionDetailVm>,
        /// The region heatmap of each run with its label (`run`, or `buggy`/`fixed` in
        /// compare mode, the primary run first).
        heatmaps: Vec<(String, Rc<vm::HeatmapVm>)>,
    },
    /// Event and message log.
    Log {
        /// Events.
        log: Rc<vm::LogVm>,
        /// Deliveries.
        messages: Rc<vm::MessagesVm>,
    },
    /// Space-time diagram.
    SpaceTime {
        /// The diagram.
        data: Rc<vm::SpaceTimeVm>,
        /// Every node (picker).
        nodes: Vec<String>,
        /// Messages are being recorded.
        recording: bool,
    },
    /// Watermark blame.
    Blame(Rc<vm::BlameVm>),
    /// The consistency check (None while playing: it replays the downstream tables).
    Consistency(Option<Rc<vm::ConsistencyVm>>),
    /// The TiCDC lifecycle.
    Cdc(CdcViews),
}

/// What the page shows of the runs: sent while running (at most every
/// [`super::FRAME_MS`]) and once when the engine settles.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Frame {
    /// The last command handled.
    pub ack: u64,
    /// Playback state.
    pub state: RunState,
    /// Playing (the engine stops at the end).
    pub playing: bool,
    /// The cursor (µs).
    pub now_us: u64,
    /// Where a seek is heading (µs).
    pub seek_target_us: Option<u64>,
    /// Where the seek's replay started (µs: the snapshot restored, or the cursor), while
    /// seeking; the page shows progress from here to the target.
    pub seek_from_us: Option<u64>,
    /// The run's end (µs).
    pub end_us: u64,
    /// Trace hash at the cursor.
    pub trace_hash: u64,
    /// Events processed.
    pub events: u64,
    /// Snapshots held.
    pub snapshots: usize,
    /// The cluster's nodes at the cursor.
    pub nodes: Vec<NodeView>,
    /// A one-off hint for the page ("tikv-2 does nothing more before the end").
    pub notice: Option<String>,
    /// The engine could not run what it was sent.
    pub error: Option<String>,
    /// Headline numbers.
    pub strip: Rc<vm::MetricsStripVm>,
    /// Expectations at the cursor.
    pub expectations: Rc<vm::ExpectationsVm>,
    /// The compare twin.
    pub twin: Option<TwinFrame>,
    /// The Explore panel's state, or None when unchanged since the previous frame.
    pub explore: Option<ExploreView>,
    /// The open tab's data, or None when unchanged since the previous frame (while running
    /// it is refreshed every [`super::VIEWS_MS`]: charts redraw on the page's main thread).
    pub views: Option<ViewData>,
}

/// What the worker sends back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum FromEngine {
    /// The worker's script and WebAssembly loaded and it is listening: sent once, before it
    /// handles the page's first command (which may take long: building a large cluster).
    Ready,
    /// The runs at the cursor.
    Frame(Box<Frame>),
    /// A TOML import or export.
    Toml(TomlAnswer),
    /// Where two runs first differ.
    FirstDifference(super::first_difference::DifferenceView),
    /// The worker panicked: the message, and the simulated time it last reported (µs).
    Crashed {
        /// The panic message.
        message: String,
        /// The cursor at the last slice before the panic.
        at_us: u64,
    },
}

/// Playback speed: simulated seconds per wall-clock second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Speed {
    /// Real time.
    X1,
    /// Ten times.
    X10,
    /// A hundred times.
    X100,
    /// As fast as the machine goes.
    Max,
}

impl Speed {
    /// Every speed, for the selector.
    pub const ALL: [Speed; 4] = [Speed::X1, Speed::X10, Speed::X100, Speed::Max];

    /// Label in the selector.
    pub fn label(self) -> &'static str {
        match self {
            Speed::X1 => "1x",
            Speed::X10 => "10x",
            Speed::X100 => "100x",
            Speed::Max => "max",
        }
    }

    /// Simulated microseconds per wall-clock millisecond, or None for "max".
    pub fn us_per_ms(self) -> Option<f64> {
        match self {
            Speed::X1 => Some(1_000.0),
            Speed::X10 => Some(10_000.0),
            Speed::X100 => Some(100_000.0),
            Speed::Max => None,
        }
    }
}

/// Encodes and decodes like the worker boundary does.
#[cfg(test)]
pub fn cross<T: Serialize + serde::de::DeserializeOwned>(value: &T) -> T {
    let bytes = bincode::serialize(value).expect("encodes");
    bincode::deserialize(&bytes).expect("decodes")
}
