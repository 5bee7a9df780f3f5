//! `faultline link` and `faultline trace-hash`. The browser tests call both (tests/e2e), so
//! their arguments and one-line outputs stay as they are.

use clap::Args;
use faultline_scenario::{encode_shared, parse_duration_arg, record_run, share_url, Scenario};
use faultline_sim::{format_hash, SimTime};

use crate::load::ScenarioArg;
use crate::out::say;

/// Default base URL: where `cargo xtask serve` serves the app.
pub const DEFAULT_BASE: &str = "http://127.0.0.1:8080/";

/// Prints the scenario's share link: a self-checking one, which records the run's trace hash
/// and verdicts at the end (or at `--at`), so `faultline verify` and the page can say whether
/// a later build reproduces it; `--plain` for the scenario alone.
#[derive(Args, Debug)]
pub struct LinkArgs {
    #[command(flatten)]
    scenario: ScenarioArg,
    /// Where the app is served; the link is this URL plus `#v2.…`.
    #[arg(long, value_name = "URL", default_value = DEFAULT_BASE)]
    base: String,
    /// Record the run at this simulated time (e.g. `90s`) instead of at its end.
    #[arg(long, value_name = "TIME", conflicts_with = "plain")]
    at: Option<String>,
    /// The scenario alone, without running it: a shorter link that records no run.
    #[arg(long)]
    plain: bool,
}

/// Prints the 16-hex-digit trace hash of a full run (every event, log line and metrics sample):
/// equal hashes mean equal runs.
#[derive(Args, Debug)]
pub struct TraceHashArgs {
    #[command(flatten)]
    scenario: ScenarioArg,
}

/// `faultline link SCENARIO [--at TIME | --plain] [--base URL] [--set key=value]...`
pub fn run_link(a: LinkArgs) -> Result<i32, String> {
    let scenario = a.scenario.load()?;
    if a.plain {
        say!("{}", share_url(&a.base, &scenario));
        return Ok(0);
    }
    let at = record_time(a.at.as_deref(), &scenario)?;
    let mut run = crate::load::start_run(&a.scenario.scenario, &scenario)?;
    crate::progress::run_with_bar(&mut run, at);
    let base = a.base.split('#').next().unwrap_or(&a.base);
    say!(
        "{base}#{}",
        encode_shared(&scenario, Some(&record_run(&run)))
    );
    Ok(0)
}

/// `--at`, or the end of the run; past the end is refused, as a record there would say
/// nothing the end does not.
fn record_time(at: Option<&str>, s: &Scenario) -> Result<SimTime, String> {
    let Some(text) = at else {
        return Ok(s.duration.to_time());
    };
    let d = parse_duration_arg(text).map_err(|e| format!("--at {text}: {e}"))?;
    if d > s.duration {
        return Err(format!(
            "--at {text} is past the end of the run ({}); record at most --at {}",
            s.duration, s.duration
        ));
    }
    Ok(d.to_time())
}

/// `faultline trace-hash SCENARIO [--set key=value]...`
pub fn run_trace_hash(a: TraceHashArgs) -> Result<i32, String> {
    let scenario = a.scenario.load()?;
    let mut run = crate::load::start_run(&a.scenario.scenario, &scenario)?;
    run.run_to_end();
    say!("{}", format_hash(run.trace_hash()));
    Ok(0)
}
