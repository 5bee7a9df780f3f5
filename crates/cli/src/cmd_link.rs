//! `faultline link` and `faultline trace-hash`. The browser tests call both (tests/e2e), so
//! their arguments and one-line outputs stay as they are.

use clap::Args;
use faultline_scenario::share_url;
use faultline_sim::format_hash;

use crate::load::ScenarioArg;
use crate::out::say;

/// Default base URL: where `cargo xtask serve` serves the app.
pub const DEFAULT_BASE: &str = "http://127.0.0.1:8080/";

/// Prints the scenario's share link.
#[derive(Args, Debug)]
pub struct LinkArgs {
    #[command(flatten)]
    scenario: ScenarioArg,
    /// Where the app is served; the link is this URL plus `#v2.…`.
    #[arg(long, value_name = "URL", default_value = DEFAULT_BASE)]
    base: String,
}

/// Prints the 16-hex-digit trace hash of a full run: equal hashes mean equal runs.
#[derive(Args, Debug)]
pub struct TraceHashArgs {
    #[command(flatten)]
    scenario: ScenarioArg,
}

/// `faultline link SCENARIO [--base URL] [--set key=value]...`
pub fn run_link(a: LinkArgs) -> Result<i32, String> {
    let scenario = a.scenario.load()?;
    say!("{}", share_url(&a.base, &scenario));
    Ok(0)
}

/// `faultline trace-hash SCENARIO [--set key=value]...`
pub fn run_trace_hash(a: TraceHashArgs) -> Result<i32, String> {
    let scenario = a.scenario.load()?;
    let mut run = crate::load::start_run(&a.scenario.scenario, &scenario)?;
    run.run_to_end();
    say!("{}", format_hash(run.trace_hash()));
    Ok(0)
}
