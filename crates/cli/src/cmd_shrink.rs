//! `faultline shrink`: the smallest scenario that still fails a property, as TOML and a link.

use clap::Args;
use faultline_explore::shrink::DEFAULT_MAX_RUNS;
use faultline_explore::{shrink, ShrinkError};
use faultline_scenario::{share_url, to_toml};

use crate::cmd_link::DEFAULT_BASE;
use crate::load::ScenarioArg;
use crate::out::say;

/// Delta-debugs a failing scenario down to the smallest one that still fails PROPERTY
/// (a name from docs/properties.md, `expect[i]`, or an expectation's name).
///
/// Exit code 0 with the shrunk scenario printed, 1 if the scenario does not fail the property.
#[derive(Args, Debug)]
pub struct ShrinkArgs {
    #[command(flatten)]
    scenario: ScenarioArg,
    /// The property that must keep failing.
    #[arg(long)]
    property: String,
    /// Most simulation runs to spend.
    #[arg(long, default_value_t = DEFAULT_MAX_RUNS, value_parser = clap::value_parser!(u64).range(1..))]
    max_runs: u64,
    /// Where the app is served, for the printed link.
    #[arg(long, value_name = "URL", default_value = DEFAULT_BASE)]
    base: String,
}

/// Runs the command; returns 0 with the minimal scenario printed, 1 if the scenario does not
/// fail the property.
pub fn run(a: ShrinkArgs) -> Result<i32, String> {
    let scenario = a.scenario.load()?;
    let before = (scenario.faults.len(), scenario.duration);
    let spinner = crate::progress::bar(a.max_runs, "{spinner} shrinking: {msg} ({elapsed})");
    let result = shrink(&scenario, &a.property, a.max_runs, &mut |line| {
        if spinner.is_hidden() {
            crate::out::warn(&format!("shrink: {line}"));
        } else {
            spinner.set_message(crate::out::escape_controls(line).into_owned());
            spinner.tick();
        }
    });
    spinner.finish_and_clear();
    let shrunk = match result {
        Ok(s) => s,
        Err(e @ ShrinkError::DoesNotFail { .. }) => {
            crate::out::warn(&e.to_string());
            return Ok(1);
        }
        Err(e) => return Err(e.to_string()),
    };
    let s = &shrunk.scenario;
    say!(
        "# Shrunk in {} runs{}: faults {} -> {}, duration {} -> {}",
        shrunk.runs,
        if shrunk.capped {
            " (stopped at --max-runs)"
        } else {
            ""
        },
        before.0,
        s.faults.len(),
        before.1,
        s.duration
    );
    say!(
        "# Fails `{}`: {}",
        shrunk.finding.property,
        shrunk.finding.message
    );
    say!("{}", to_toml(s));
    say!("{}", share_url(&a.base, s));
    Ok(0)
}
