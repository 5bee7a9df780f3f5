//! Running one scenario to its end and checking every property on it.

use std::panic::{catch_unwind, AssertUnwindSafe};

use faultline_scenario::{Run, Scenario};
use faultline_sim::SimTime;

use crate::property::{expect, PROPERTIES};

/// The property name given to a run that panicked: a model bug worth a link of its own.
pub const PANIC: &str = "panic";

/// One property that failed on a run.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// Property name (`invariant`, `expect[0]`, `liveness.leader`, `panic`, ...).
    pub property: String,
    /// What went wrong, with the observed values.
    pub message: String,
    /// When it went wrong, if known (invariant violations).
    pub at: Option<SimTime>,
}

/// Every property checked on one finished run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outcome {
    /// Properties that failed, in table order, then expectations in index order.
    pub findings: Vec<Finding>,
    /// Generic properties that could not be judged on this run.
    pub skipped: Vec<&'static str>,
}

impl Outcome {
    /// True if `property` failed.
    pub fn fails(&self, property: &str) -> bool {
        self.findings.iter().any(|f| f.property == property)
    }
}

/// Runs `s` to its end and checks every property. A panic in the model is caught and reported
/// as the property [`PANIC`]. Errors only if the world cannot be built (the scenario asks for a
/// metric the model does not have).
pub fn check_scenario(s: &Scenario) -> Result<Outcome, String> {
    check_scenario_judging(s, true)
}

/// Like [`check_scenario`]; the scenario's own expectations are judged only if
/// `expectations` (explore leaves them out unless asked).
pub fn check_scenario_judging(s: &Scenario, expectations: bool) -> Result<Outcome, String> {
    let mut run = Run::new(s).map_err(|e| e.to_string())?;
    let result = catch_unwind(AssertUnwindSafe(move || {
        run.run_to_end();
        check_run_judging(&run, expectations)
    }));
    Ok(result.unwrap_or_else(|payload| Outcome {
        findings: vec![Finding {
            property: PANIC.into(),
            message: panic_message(payload.as_ref()),
            at: None,
        }],
        skipped: Vec::new(),
    }))
}

/// Checks every property on a finished run, the scenario's expectations included.
pub fn check_run(run: &Run) -> Outcome {
    check_run_judging(run, true)
}

/// Checks every generic property on a finished run, and the expectations if `expectations`.
pub fn check_run_judging(run: &Run, expectations: bool) -> Outcome {
    let mut out = Outcome::default();
    for p in PROPERTIES {
        match (p.check)(run) {
            Some(Ok(())) => {}
            Some(Err(message)) => out.findings.push(Finding {
                property: p.name.into(),
                message,
                at: if p.name == "invariant" {
                    run.world.violation.as_ref().map(|(t, _)| *t)
                } else {
                    None
                },
            }),
            None => out.skipped.push(p.name),
        }
    }
    let judged = if expectations {
        expect::failures(run)
    } else {
        Vec::new()
    };
    for (property, message) in judged {
        out.findings.push(Finding {
            property,
            message,
            at: None,
        });
    }
    out
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        format!("the simulation panicked: {s}")
    } else if let Some(s) = payload.downcast_ref::<String>() {
        format!("the simulation panicked: {s}")
    } else {
        "the simulation panicked".into()
    }
}
