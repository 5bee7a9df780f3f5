//! `shrink`: delta-debugs a failing scenario while the same property keeps failing.
//!
//! Passes, repeated until none makes progress: drop faults (ddmin), stop the run earlier,
//! halve fault durations, round fault start times, fewer regions, stores, captures and
//! tables. Every candidate must pass validation and fail the same property; anything else is
//! rejected. Candidates are tried in a fixed order, so shrinking is deterministic.

mod ddmin;
mod relabel;
mod shrinker;
mod steps;

pub use ddmin::ddmin;

use std::collections::BTreeMap;

use faultline_scenario::validate::validate;
use faultline_scenario::{encode_link, Scenario};

use crate::outcome::{check_scenario, Finding, PANIC};
use crate::property::{expect, find, names};

use shrinker::Shrinker;

/// Default cap on simulation runs one shrink may spend.
pub const DEFAULT_MAX_RUNS: u64 = 2_000;

/// Most rounds of all passes; each round that changes nothing ends shrinking early.
const MAX_ROUNDS: usize = 8;

/// The smallest failing scenario found, named and described as shrunk from the original, with
/// the expectations that no longer hold on it dropped.
#[derive(Clone, Debug, PartialEq)]
pub struct Shrunk {
    /// The minimal scenario; it fails the property.
    pub scenario: Scenario,
    /// How it fails.
    pub finding: Finding,
    /// Simulation runs spent.
    pub runs: u64,
    /// True if shrinking stopped at the run cap rather than at a fixpoint.
    pub capped: bool,
}

/// Why shrinking could not start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShrinkError {
    /// No property by that name.
    #[error("no property named `{property}`; properties are {}", names.join(", "))]
    UnknownProperty {
        /// As given.
        property: String,
        /// Every known name.
        names: Vec<String>,
    },
    /// The scenario does not fail the property to begin with.
    #[error("the scenario does not fail `{property}` ({why}); nothing to shrink")]
    DoesNotFail {
        /// The property.
        property: String,
        /// What happened instead.
        why: String,
    },
    /// The scenario is invalid or cannot be built.
    #[error("{0}")]
    BadScenario(String),
}

/// Shrinks `s` while `property` (a property name, `expect[i]`, or an expectation's name) still
/// fails. `log` gets one line per pass that made progress.
pub fn shrink(
    s: &Scenario,
    property: &str,
    max_runs: u64,
    log: &mut dyn FnMut(&str),
) -> Result<Shrunk, ShrinkError> {
    validate("scenario", s).map_err(|e| ShrinkError::BadScenario(e.to_string()))?;
    let property = canonical(s, property)?;
    let mut sh = Shrinker {
        property,
        // One run of the budget is kept for the final verdicts below.
        max_runs: max_runs.saturating_sub(1).max(1),
        runs: 0,
        seen: BTreeMap::new(),
    };
    let outcome = check_scenario(s).map_err(ShrinkError::BadScenario)?;
    sh.runs += 1;
    let Some(first) = outcome
        .findings
        .iter()
        .find(|f| f.property == sh.property)
        .cloned()
    else {
        let why = match outcome.findings.first() {
            Some(f) => format!("it fails `{}` instead", f.property),
            None => "it passes".into(),
        };
        return Err(ShrinkError::DoesNotFail {
            property: sh.property,
            why,
        });
    };
    sh.seen.insert(encode_link(s), Some(first.clone()));
    let mut current = s.clone();
    for _ in 0..MAX_ROUNDS {
        let before = current.clone();
        current = steps::drop_faults(&mut sh, current, log);
        current = steps::stop_earlier(&mut sh, current, log);
        current = steps::shorten_faults(&mut sh, current, log);
        current = steps::round_fault_times(&mut sh, current, log);
        for knob in &steps::KNOBS {
            current = steps::lower(&mut sh, current, knob, log);
        }
        if current == before || sh.capped() {
            break;
        }
    }
    // Every accepted candidate is in `seen` as failing, so this is a lookup, not a run.
    let mut finding = sh.fails(&current).unwrap_or(first);
    // One more run to learn which of the scenario's expectations still hold on it.
    let verdicts = if sh.runs < max_runs {
        sh.runs += 1;
        Some(relabel::verdicts(&current))
    } else {
        None
    };
    let scenario = relabel::relabel(s, current, &mut finding, verdicts.as_deref());
    Ok(Shrunk {
        scenario,
        finding,
        runs: sh.runs,
        capped: sh.capped(),
    })
}

/// The property's canonical name: generic names as they are, expectations as `expect[i]`.
fn canonical(s: &Scenario, property: &str) -> Result<String, ShrinkError> {
    if find(property).is_some() || property == PANIC {
        return Ok(property.to_string());
    }
    match expect::index_of(s, property) {
        Some(i) => Ok(expect::name(i)),
        None => {
            let mut all = names(s);
            all.push(PANIC.into());
            Err(ShrinkError::UnknownProperty {
                property: property.to_string(),
                names: all,
            })
        }
    }
}
