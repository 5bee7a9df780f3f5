//! The scenario's `[[expect]]` checks, live at the cursor, and the first invariant violation.

use faultline_scenario::{Run, Verdict};
use serde::{Deserialize, Serialize};

/// One expectation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExpectRow {
    /// Index in the scenario's `expect` list (a stable test attribute).
    pub index: usize,
    /// Its name.
    pub name: String,
    /// The check in words.
    pub check: String,
    /// `pass`, `fail` or `pending`.
    pub verdict: String,
    /// The value that decided it.
    pub observed: Option<f64>,
}

/// An invariant violation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ViolationRow {
    /// When (µs).
    pub at_us: u64,
    /// What broke.
    pub message: String,
}

/// The panel's data.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ExpectationsVm {
    /// Every expectation, in scenario order.
    pub rows: Vec<ExpectRow>,
    /// The first invariant violation, if one happened.
    pub violation: Option<ViolationRow>,
    /// The guide captions' claims, each at its step's time (pending until the cursor reaches it).
    #[serde(default)]
    pub claims: Vec<GuideClaimRow>,
}

/// One claim of a guide step's caption.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GuideClaimRow {
    /// The step's index in the scenario's `guide` list.
    pub step: usize,
    /// The claim, as an expectation row (its `index` is its place in the step's list).
    pub row: ExpectRow,
}

fn row(r: faultline_scenario::ExpectResult) -> ExpectRow {
    ExpectRow {
        index: r.index,
        name: r.name,
        check: r.check,
        verdict: verdict_name(r.verdict).to_string(),
        observed: r.observed,
    }
}

/// The verdict as the page and the tests spell it.
pub fn verdict_name(v: Verdict) -> &'static str {
    match v {
        Verdict::Pass => "pass",
        Verdict::Fail => "fail",
        Verdict::Pending => "pending",
    }
}

/// The scenario's expectations before its run reports in (the worker is still loading): each
/// one pending under its name, so the panel shows what will be checked instead of claiming
/// the scenario has none.
pub fn pending_expectations(s: &faultline_scenario::Scenario) -> ExpectationsVm {
    let rows = s.expect.iter().enumerate().map(|(index, e)| ExpectRow {
        index,
        name: if e.name.is_empty() {
            e.metric
                .clone()
                .or_else(|| e.log.clone())
                .unwrap_or_default()
        } else {
            e.name.clone()
        },
        check: "waiting for the run".to_string(),
        verdict: verdict_name(Verdict::Pending).to_string(),
        observed: None,
    });
    ExpectationsVm {
        rows: rows.collect(),
        ..ExpectationsVm::default()
    }
}

/// Evaluates every expectation at the run's current time (the cursor).
pub fn expectations(run: &Run) -> ExpectationsVm {
    ExpectationsVm {
        rows: run.evaluate().into_iter().map(row).collect(),
        claims: run
            .evaluate_guide()
            .into_iter()
            .map(|c| GuideClaimRow {
                step: c.step,
                row: row(c.result),
            })
            .collect(),
        violation: run.world.violation.as_ref().map(|(at, m)| ViolationRow {
            at_us: at.as_micros(),
            message: m.clone(),
        }),
    }
}
