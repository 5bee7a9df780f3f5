//! `[[expect]]` checks as a scenario file writes them: a metric series or a log text, a window,
//! how its samples combine, and the comparison they must pass. Guide steps make their claims
//! in the same vocabulary.
//!
//! Field order is the canonical order of the link's binary form: append new fields at the end.

use serde::{Deserialize, Serialize};

use crate::dur::Dur;
use crate::unit_enum::unit_enum_deserialize;

/// A check over a metric or the log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expectation {
    /// What this checks, in words.
    #[serde(default)]
    pub name: String,
    /// A metric series name (see docs/scenario-format.md for the list).
    #[serde(default)]
    pub metric: Option<String>,
    /// Instead of a metric: count log lines containing this text.
    #[serde(default)]
    pub log: Option<String>,
    /// How to combine samples in the window.
    #[serde(default)]
    pub agg: Agg,
    /// Start of the window (default: the start of the run).
    #[serde(default)]
    pub from: Option<Dur>,
    /// End of the window, or the instant for `agg = "last"` (default: the end of the run).
    #[serde(default)]
    pub to: Option<Dur>,
    /// Comparison.
    pub op: Cmp,
    /// Threshold.
    pub value: f64,
}

/// How samples in an expectation's window are combined.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Agg {
    /// The sample at `to`.
    #[default]
    Last,
    /// The largest sample.
    Max,
    /// The smallest sample.
    Min,
    /// Every sample must satisfy the comparison (the worst is reported).
    All,
    /// Some sample must satisfy it (the best is reported).
    Any,
}

unit_enum_deserialize!(Agg { Last = "last", Max = "max", Min = "min", All = "all", Any = "any" });

/// Comparison operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Cmp {
    /// Greater than.
    #[serde(rename = ">")]
    Gt,
    /// At least.
    #[serde(rename = ">=")]
    Ge,
    /// Less than.
    #[serde(rename = "<")]
    Lt,
    /// At most.
    #[serde(rename = "<=")]
    Le,
    /// Equal.
    #[serde(rename = "==")]
    Eq,
}

unit_enum_deserialize!(Cmp { Gt = ">", Ge = ">=", Lt = "<", Le = "<=", Eq = "==" });

impl Cmp {
    /// True when `observed <op> threshold`.
    pub fn holds(self, observed: f64, threshold: f64) -> bool {
        match self {
            Cmp::Gt => observed > threshold,
            Cmp::Ge => observed >= threshold,
            Cmp::Lt => observed < threshold,
            Cmp::Le => observed <= threshold,
            Cmp::Eq => observed == threshold,
        }
    }

    /// The operator as written in files.
    pub fn symbol(self) -> &'static str {
        match self {
            Cmp::Gt => ">",
            Cmp::Ge => ">=",
            Cmp::Lt => "<",
            Cmp::Le => "<=",
            Cmp::Eq => "==",
        }
    }
}
