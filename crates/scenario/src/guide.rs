//! Guided playback: the `[[guide]]` steps (a caption, the claims it makes, the view it talks
//! about) and the scenario's `[view]` (which charts tell its story first).
//!
//! Field order is the canonical order of the link's binary form: append new fields at the end.

use serde::{Deserialize, Serialize};

use crate::dur::Dur;
use crate::expectation::Expectation;
use crate::unit_enum::unit_enum_deserialize;

/// A narrated caption for guided playback.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GuideStep {
    /// When the caption applies.
    pub at: Dur,
    /// What to watch.
    pub caption: String,
    /// The caption's claims, checked at `at` by `faultline check` and shown beside the caption:
    /// the `[[expect]]` vocabulary over metrics, with the window ending at the step's time.
    #[serde(default)]
    pub expect: Vec<Expectation>,
    /// The view tab the caption talks about; the tour switches to it.
    #[serde(default)]
    pub tab: Option<GuideTab>,
    /// A chart (metric series name) the caption talks about; the tour scrolls it into sight.
    #[serde(default)]
    pub metric: Option<String>,
    /// A node (e.g. `tikv-1`) the caption talks about; the tour highlights it in the topology.
    #[serde(default)]
    pub node: Option<String>,
}

impl GuideStep {
    /// A step with only a time and a caption (no claims, no view), as the TOML would read with
    /// only `at` and `caption`.
    pub fn new(at: Dur, caption: impl Into<String>) -> GuideStep {
        GuideStep {
            at,
            caption: caption.into(),
            expect: Vec::new(),
            tab: None,
            metric: None,
            node: None,
        }
    }
}

/// The playground's view tabs a guide step may open, by their names in the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum GuideTab {
    /// Metric charts.
    Charts,
    /// TiCDC lifecycle: changefeeds, sink state lanes, owner.
    Cdc,
    /// The region map.
    Regions,
    /// The log.
    Log,
    /// Messages between nodes over time.
    SpaceTime,
    /// Which tables hold the changefeed's watermark back.
    Blame,
    /// Upstream against downstream rows.
    Consistency,
}

unit_enum_deserialize!(GuideTab {
    Charts = "charts",
    Cdc = "cdc",
    Regions = "regions",
    Log = "log",
    SpaceTime = "space-time",
    Blame = "blame",
    Consistency = "consistency",
});

/// What a scenario shows first.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ViewSpec {
    /// The metric series that show the symptom, most telling first: their charts come first,
    /// at full width.
    pub key_metrics: Vec<String>,
}
