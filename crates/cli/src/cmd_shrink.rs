//! `faultline shrink`: the smallest scenario that still fails a property, as TOML and a link.

use faultline_explore::shrink::DEFAULT_MAX_RUNS;
use faultline_explore::{shrink, ShrinkError};
use faultline_scenario::{share_url, to_toml};

use crate::args::Args;
use crate::cmd_link::DEFAULT_BASE;
use crate::load::load;

const USAGE: &str = "usage: faultline shrink SCENARIO|LINK --property NAME [--max-runs N] \
[--base URL] [--set key=value]...";

/// Runs the command; returns 0 with the minimal scenario printed, 1 if the scenario does not
/// fail the property.
pub fn main(raw: &[String]) -> Result<i32, String> {
    let a = Args::parse(raw, &["property", "max-runs", "base", "set"], &[])?;
    let [arg] = a.positional.as_slice() else {
        return Err(USAGE.into());
    };
    let property = a
        .get("property")
        .ok_or_else(|| format!("--property is required\n{USAGE}"))?;
    let max_runs = match a.get("max-runs") {
        Some(v) => v
            .parse::<u64>()
            .ok()
            .filter(|n| *n > 0)
            .ok_or_else(|| format!("--max-runs {v}: not a whole number above 0"))?,
        None => DEFAULT_MAX_RUNS,
    };
    let scenario = load(arg, &a.all("set"))?;
    let before = (scenario.faults.len(), scenario.duration);
    let result = shrink(&scenario, property, max_runs, &mut |line| {
        eprintln!("shrink: {line}")
    });
    let shrunk = match result {
        Ok(s) => s,
        Err(e @ ShrinkError::DoesNotFail { .. }) => {
            eprintln!("{e}");
            return Ok(1);
        }
        Err(e) => return Err(e.to_string()),
    };
    let s = &shrunk.scenario;
    println!(
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
    println!(
        "# Fails `{}`: {}",
        shrunk.finding.property, shrunk.finding.message
    );
    println!("{}", to_toml(s));
    println!("{}", share_url(a.get("base").unwrap_or(DEFAULT_BASE), s));
    Ok(0)
}
