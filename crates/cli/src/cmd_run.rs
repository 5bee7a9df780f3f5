//! `faultline run`: runs a scenario and prints a readable timeline, or final metrics as JSON.

use faultline_scenario::{parse_duration_arg, Run, Scenario};
use faultline_sim::{format_hash, Level, SimTime};

use crate::args::Args;
use crate::load::load;

/// Runs the command; returns the process exit code.
pub fn main(raw: &[String]) -> Result<i32, String> {
    let a = Args::parse(raw, &["for", "seed", "set"], &["json"])?;
    let [arg] = a.positional.as_slice() else {
        return Err("usage: faultline run SCENARIO [--for DURATION] [--seed N] [--set key=value]... [--json]".into());
    };
    let mut overrides = a.all("set");
    if let Some(seed) = a.get("seed") {
        seed.parse::<u64>()
            .map_err(|_| format!("--seed {seed}: not a whole number"))?;
        overrides.push(format!("seed={seed}"));
    }
    let scenario = load(arg, &overrides)?;
    let mut run = Run::new(&scenario).map_err(|e| e.to_string())?;
    let until = match a.get("for") {
        Some(d) => SimTime(
            parse_duration_arg(d)
                .map_err(|e| format!("--for {d}: {e}"))?
                .0,
        ),
        None => run.end(),
    };
    run.run_until(until);
    if a.has("json") {
        println!("{}", json_summary(&run));
    } else {
        print_timeline(&scenario, &run);
    }
    Ok(0)
}

fn print_timeline(s: &Scenario, run: &Run) {
    let k = &run.world.kernel;
    println!(
        "{} (seed {}, {} simulated)",
        s.name,
        s.seed,
        faultline_sim::SimDuration(run.now().0)
    );
    println!();
    let notable: Vec<_> = k.log.entries().filter(|e| e.level >= Level::Warn).collect();
    const SHOWN: usize = 40;
    for e in notable.iter().take(SHOWN) {
        let node = e
            .node
            .map(|n| k.net.node(n).name.clone())
            .unwrap_or_else(|| "sim".into());
        println!(
            "{}  {:<5}  {:<8}  {}  {}",
            e.at,
            e.level.name(),
            node,
            e.message,
            e.detail
        );
    }
    if notable.len() > SHOWN {
        println!(
            "... and {} more warnings (see --json or the app's log view)",
            notable.len() - SHOWN
        );
    }
    println!();
    println!("log message counts:");
    for (m, c) in k.log.counts() {
        println!("  {c:>8}  {m}");
    }
    println!();
    println!("final metrics:");
    for name in k.metrics.names() {
        if let Some(v) = k.metrics.last(name) {
            println!("  {name:<32} {v}");
        }
    }
    println!();
    println!("events processed: {}", k.processed());
    println!("trace hash: {}", format_hash(run.trace_hash()));
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
