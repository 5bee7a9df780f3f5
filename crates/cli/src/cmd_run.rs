//! `faultline run`: runs a scenario and prints a readable timeline, its final metrics as JSON,
//! or metric series sampled over time (`--series`).

use clap::Args;
use faultline_scenario::{parse_duration_arg, Run, Scenario};
use faultline_sim::{format_hash, Level, LogEntry, SimDuration, SimTime};

use crate::load::ScenarioArg;
use crate::log_filter::{LogFilter, LogLevel};
use crate::out::say;
use crate::plain_progress::PlainProgress;
use crate::series;

/// Runs a scenario; prints notable log lines and final metrics, or the series asked for.
#[derive(Args, Debug)]
pub struct RunArgs {
    #[command(flatten)]
    scenario: ScenarioArg,
    /// Stop after this much simulated time (e.g. `90s`, `5m`); at most the scenario's duration.
    #[arg(long = "for", value_name = "DURATION")]
    for_: Option<String>,
    /// Run with this seed instead of the scenario's.
    #[arg(long)]
    seed: Option<u64>,
    /// Print these metrics over time (comma-separated), one row per `--every`.
    #[arg(long, value_name = "METRIC,...", value_delimiter = ',')]
    series: Vec<String>,
    /// The step between `--series` rows.
    #[arg(
        long,
        value_name = "DURATION",
        default_value = "1s",
        requires = "series"
    )]
    every: String,
    /// Print `--series` as CSV (the default for series).
    #[arg(long, requires = "series", conflicts_with = "json")]
    csv: bool,
    /// Print JSON: the final metrics, or with `--series` the sampled series.
    #[arg(long)]
    json: bool,
    /// Print every kept log line at or above LEVEL, instead of the first 40 warnings.
    #[arg(long, value_enum, value_name = "LEVEL", conflicts_with_all = ["series", "json"])]
    log: Option<LogLevel>,
    /// With `--log`: only the lines of these nodes (comma-separated names such as `cdc-1,pd-1`;
    /// `sim` for injected faults).
    #[arg(long, value_name = "NAME,...", value_delimiter = ',', requires = "log")]
    node: Vec<String>,
}

/// Runs the command; returns the process exit code.
pub fn run(a: RunArgs) -> Result<i32, String> {
    let mut overrides = a.scenario.set.clone();
    if let Some(seed) = a.seed {
        overrides.push(format!("seed={seed}"));
    }
    let scenario = crate::load::load(&a.scenario.scenario, &overrides)?;
    let mut run = crate::load::start_run(&a.scenario.scenario, &scenario)?;
    let until = stop_time(a.for_.as_deref(), &scenario)?;
    if !a.series.is_empty() {
        return print_series(&a, &mut run, until);
    }
    // Resolved before the run, so a mistyped node name costs nothing.
    let filter = match a.log {
        Some(level) => Some(LogFilter::new(level, &a.node, &run.world.kernel)?),
        None => None,
    };
    crate::progress::run_with_bar(&mut run, until);
    if let Some(filter) = filter {
        print_log(&run, &filter);
    } else if a.json {
        say!("{}", json_summary(&run));
    } else {
        print_timeline(&scenario, &run);
    }
    Ok(0)
}

/// `--for`, or the end of the run. Past the end is refused: the run would stop at the end
/// anyway, and a user asking for more should know the scenario is shorter.
fn stop_time(for_: Option<&str>, s: &Scenario) -> Result<SimTime, String> {
    let Some(text) = for_ else {
        return Ok(s.duration.to_time());
    };
    let d = parse_duration_arg(text).map_err(|e| format!("--for {text}: {e}"))?;
    if d > s.duration {
        return Err(format!(
            "--for {text} is past the end of the run ({}); run longer with --set duration={text}",
            s.duration
        ));
    }
    Ok(d.to_time())
}

/// `--series`: CSV streamed a row at a time as the run makes it; JSON (one document) once
/// the run has ended.
fn print_series(a: &RunArgs, run: &mut Run, until: SimTime) -> Result<i32, String> {
    series::check_names(run, &a.series)?;
    let every = series::parse_every(&a.every)?;
    let rows = series::row_count(until, every)?;
    if !a.json {
        let plain = PlainProgress::new();
        series::stream_csv(run, &a.series, every, rows, |t, line| {
            say!("{line}");
            plain.tick(|elapsed| crate::progress::simulated_line(t, until, elapsed));
        });
        return Ok(0);
    }
    crate::progress::run_with_bar(run, until);
    let mut v = series::sample(run, &a.series, every, rows).json();
    v["scenario"] = serde_json::json!(run.scenario.name);
    v["seed"] = serde_json::json!(run.scenario.seed);
    say!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
    Ok(0)
}

/// How many warnings the timeline shows before summarising the rest.
const SHOWN: usize = 40;

fn print_timeline(s: &Scenario, run: &Run) {
    let k = &run.world.kernel;
    say!(
        "{} (seed {}, {} simulated)",
        s.name,
        s.seed,
        SimDuration(run.now().0)
    );
    say!("");
    let notable: Vec<_> = k.log.entries().filter(|e| e.level >= Level::Warn).collect();
    for e in notable.iter().take(SHOWN) {
        say_entry(run, e);
    }
    if notable.len() > SHOWN {
        say!(
            "... and {} more warnings (see --json or the app's log view)",
            notable.len() - SHOWN
        );
    }
    say!("");
    say!("log message counts:");
    for (m, c) in k.log.counts() {
        say!("  {c:>8}  {m}");
    }
    say!("");
    say!("final metrics:");
    for name in k.metrics.names() {
        if let Some(v) = k.metrics.last(name) {
            say!("  {name:<32} {v}");
        }
    }
    say!("");
    say!("events processed: {}", k.processed());
    say!("trace hash: {}", format_hash(run.trace_hash()));
}

/// One log line as the timeline and `--log` print it.
fn say_entry(run: &Run, e: &LogEntry) {
    let k = &run.world.kernel;
    let node = e
        .node
        .map(|n| k.net.node(n).name.as_str())
        .unwrap_or(crate::log_filter::SIM_NODE);
    say!(
        "{}  {:<5}  {:<8}  {}  {}",
        e.at,
        e.level.name(),
        node,
        e.message,
        e.detail
    );
}

/// `--log`: every kept line the filter keeps, oldest first, after a note of what the log's
/// capacity dropped.
fn print_log(run: &Run, filter: &LogFilter) {
    let log = &run.world.kernel.log;
    if log.dropped() > 0 {
        say!(
            "({} earlier log lines were dropped: the log keeps the newest {}; use --for to stop earlier)",
            log.dropped(),
            log.entries().len()
        );
    }
    for e in log.entries().filter(|e| filter.keeps(e)) {
        say_entry(run, e);
    }
}

fn json_summary(run: &Run) -> String {
    let k = &run.world.kernel;
    let mut metrics = serde_json::Map::new();
    for name in k.metrics.names() {
        if let Some(v) = k.metrics.last(name) {
            metrics.insert(name.clone(), serde_json::json!(v));
        }
    }
    let counts: serde_json::Map<String, serde_json::Value> = k
        .log
        .counts()
        .iter()
        .map(|(m, c)| (m.to_string(), serde_json::json!(c)))
        .collect();
    let v = serde_json::json!({
        "scenario": run.scenario.name,
        "seed": run.scenario.seed,
        "simulated_secs": run.now().as_secs_f64(),
        "events": k.processed(),
        "trace_hash": format_hash(run.trace_hash()),
        "metrics": metrics,
        "log_counts": counts,
        "violation": run.world.violation.as_ref().map(|(t, v)| format!("{t}: {v}")),
    });
    serde_json::to_string_pretty(&v).unwrap_or_default()
}
