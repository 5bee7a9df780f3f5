//! Checking what the tour says: each `[[guide]]` step's claims, evaluated at the step's time
//! with the `[[expect]]` machinery, so a caption that no longer matches the model fails
//! `faultline check` instead of misleading a reader.

use faultline_sim::{Model, World};

use crate::dur::Dur;
use crate::error::Problems;
use crate::expect::{evaluate_one, ExpectResult};
use crate::format::{Expectation, Scenario};
use crate::guide::GuideStep;

/// The outcome of one claim of one guide step.
#[derive(Clone, Debug, PartialEq)]
pub struct GuideClaimResult {
    /// Index of the step in the scenario's `guide` list.
    pub step: usize,
    /// The step's time.
    pub at: Dur,
    /// The claim's outcome; its `index` is the claim's place in the step's `expect` list.
    pub result: ExpectResult,
}

/// The claim as an expectation whose window ends at the step's time (validation forbids
/// `to` on a claim, so nothing is overridden).
fn at_step(step: &GuideStep, claim: &Expectation) -> Expectation {
    Expectation {
        to: Some(step.at),
        ..claim.clone()
    }
}

/// Every guide claim of `s`, evaluated against the world as it is now: a claim whose step
/// lies ahead of the world's time is pending.
pub fn evaluate_guide<M: Model>(s: &Scenario, world: &World<M>) -> Vec<GuideClaimResult> {
    let end = s.duration.to_time();
    let now = world.now();
    let mut out = Vec::new();
    for (step_index, step) in s.guide.iter().enumerate() {
        for (i, claim) in step.expect.iter().enumerate() {
            out.push(GuideClaimResult {
                step: step_index,
                at: step.at,
                result: evaluate_one(i, &at_step(step, claim), world, now, end),
            });
        }
    }
    out
}

/// The rules a step's claims follow beyond an expectation's own: metrics only (the log keeps
/// whole-run counts, not counts at a time) and no `to` (the step's `at` is the window's end).
pub(crate) fn check_guide_claims(p: &mut Problems, s: &Scenario) {
    for (i, step) in s.guide.iter().enumerate() {
        if step.expect.len() > crate::limits::MAX_EXPECTATIONS {
            p.add(
                format!("guide[{i}].expect"),
                format!(
                    "{} claims; the limit is {}",
                    step.expect.len(),
                    crate::limits::MAX_EXPECTATIONS
                ),
            );
            continue;
        }
        for (j, claim) in step.expect.iter().enumerate() {
            let field = |name: &str| format!("guide[{i}].expect[{j}].{name}");
            crate::validate_script::check_expectation_fields(p, s, claim, &field);
            if claim.log.is_some() {
                p.add(
                    field("log"),
                    "a caption's claim reads a metric at the step's time; log lines are counted over the whole run, so check them in [[expect]]",
                );
            }
            if claim.to.is_some() {
                p.add(
                    field("to"),
                    format!(
                        "a caption's claim is evaluated at its step's `at` ({}); remove `to`",
                        step.at
                    ),
                );
            }
            if let Some(from) = claim.from {
                if from > step.at {
                    p.add(
                        field("from"),
                        format!("{from} is after the step's `at` ({})", step.at),
                    );
                }
            }
        }
    }
}

/// Metric names a scenario's guide and view refer to, with the field naming each, for the
/// check against the model's series once the world is built.
pub(crate) fn named_metrics(s: &Scenario) -> Vec<(String, &str)> {
    let mut out = Vec::new();
    for (i, step) in s.guide.iter().enumerate() {
        for (j, claim) in step.expect.iter().enumerate() {
            if let Some(m) = &claim.metric {
                out.push((format!("guide[{i}].expect[{j}].metric"), m.as_str()));
            }
        }
        if let Some(m) = &step.metric {
            out.push((format!("guide[{i}].metric"), m.as_str()));
        }
    }
    for (i, m) in s.view.key_metrics.iter().enumerate() {
        out.push((format!("view.key_metrics[{i}]"), m.as_str()));
    }
    out
}
