//! `faultline check`: evaluates each scenario's `[[expect]]` checks and the claims of its
//! `[[guide]]` captions (each at its step's time), so a tour that says something false fails.
//!
//! Every file is checked, even after a bad one, so a batch (`faultline check scenarios/*.toml`)
//! reports everything at once.

use clap::Args;
use faultline_scenario::Verdict;

use crate::load::load;
use crate::out::say;

/// Runs each scenario to its end and prints pass or FAIL for each expectation.
///
/// Exit code: 0 if everything passed, 1 if an expectation failed or an invariant was
/// violated, 2 if a file could not be read, parsed or run.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Scenario files or share links.
    #[arg(value_name = "SCENARIO", required = true)]
    scenarios: Vec<String>,
    /// Overrides one key in every scenario before validation, e.g. `--set seed=7`; repeatable.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
}

#[derive(Default)]
struct Tally {
    passed: usize,
    failed: usize,
    unusable: usize,
}

impl Tally {
    fn record(&mut self, passed: bool) {
        if passed {
            self.passed += 1;
        } else {
            self.failed += 1;
        }
    }
}

fn mark(passed: bool) -> &'static str {
    if passed {
        "pass"
    } else {
        "FAIL"
    }
}

fn observed_text(observed: Option<f64>) -> String {
    observed
        .map(|v| format!("{v}"))
        .unwrap_or_else(|| "no sample".into())
}

/// `FAIL  guide step 6 (12m30s): "no region is leaderless" (leaderless_regions at 12m30s == 0;
/// observed 5)`: the step as the tour numbers it, the claim, and what the run showed.
fn claim_line(c: &faultline_scenario::GuideClaimResult, passed: bool) -> String {
    let r = &c.result;
    let claim = if r.name == r.check {
        r.check.clone()
    } else {
        format!("\"{}\" ({})", r.name, r.check)
    };
    format!(
        "{}  guide step {} ({}): {claim}; observed {}",
        mark(passed),
        c.step + 1,
        c.at,
        observed_text(r.observed)
    )
}

/// Checks every scenario and prints a line per expectation, then the totals.
pub fn run(a: CheckArgs) -> Result<i32, String> {
    let mut tally = Tally::default();
    for arg in &a.scenarios {
        if let Err(e) = check_one(arg, &a.set, &mut tally) {
            // A file's errors start with its name already; the line names it once.
            let e = e.strip_prefix(&format!("{arg}: ")).unwrap_or(&e);
            say!("{}: cannot check: {e}", crate::out::arg_label(arg));
            tally.unusable += 1;
        }
    }
    let files = if tally.unusable > 0 {
        format!(
            ", {} of {} files not checked",
            tally.unusable,
            a.scenarios.len()
        )
    } else {
        String::new()
    };
    say!("{} passed, {} failed{files}", tally.passed, tally.failed);
    Ok(if tally.unusable > 0 {
        2
    } else if tally.failed > 0 {
        1
    } else {
        0
    })
}

fn check_one(arg: &str, set: &[String], tally: &mut Tally) -> Result<(), String> {
    let scenario = load(arg, set)?;
    let mut run = crate::load::start_run(arg, &scenario)?;
    let end = run.end();
    crate::progress::run_with_bar(&mut run, end);
    say!("{}: {}", crate::out::arg_label(arg), scenario.name);
    if scenario.expect.is_empty() && scenario.guide.iter().all(|g| g.expect.is_empty()) {
        say!("  (no expectations)");
    }
    for r in run.evaluate() {
        let observed = observed_text(r.observed);
        let passed = r.verdict == Verdict::Pass;
        tally.record(passed);
        let mark = mark(passed);
        if r.name == r.check {
            say!("  {mark}  {}  (observed {observed})", r.check);
        } else {
            say!(
                "  {mark}  {}  (observed {observed}; expected {})",
                r.name,
                r.check
            );
        }
    }
    for c in run.evaluate_guide() {
        let passed = c.result.verdict == Verdict::Pass;
        tally.record(passed);
        say!("  {}", claim_line(&c, passed));
    }
    if let Some((t, v)) = &run.world.violation {
        tally.failed += 1;
        say!("  FAIL  invariant violated at {t}: {v}");
    }
    Ok(())
}
