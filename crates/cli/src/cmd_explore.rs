//! `faultline explore`: many seeds with random fault schedules; prints every failure with its
//! seed, property and share link, or the whole report as JSON for `explore-merge`.

use std::time::Instant;

use clap::Args;
use faultline_explore::{explore, ExploreOptions, FaultBudget, Progress, Report, Shard};

use crate::cmd_link::DEFAULT_BASE;
use crate::load::ScenarioArg;
use crate::out::say;
use crate::plain_progress::{percent, PlainProgress};
use crate::progress::{bar, rate_text};

/// Runs many seeds, each with its own random fault schedule, and checks every property
/// (docs/properties.md) on each.
///
/// Exit code 1 if any property failed on any seed.
#[derive(Args, Debug)]
pub struct ExploreArgs {
    #[command(flatten)]
    scenario: ScenarioArg,
    /// How many seeds (split between the shards with --shard); at least 1.
    #[arg(long, default_value_t = 1000, value_parser = parse_seeds)]
    seeds: u64,
    /// The first seed; seeds are FIRST..FIRST+SEEDS.
    #[arg(long, value_name = "FIRST", default_value_t = 0)]
    first_seed: u64,
    /// Run only the K-th of N disjoint slices of the seeds (1 <= K <= N), e.g. on one machine
    /// of N; merge the `--json` reports with `faultline explore-merge`.
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    shard: Option<Shard>,
    /// Which faults, and how many of each per run: kill, partition, loss, pause, broker-down,
    /// evict-leader, transfer-leader, add-store, remove-store, split, merge, each optionally `=N`.
    #[arg(long, value_name = "KIND[=N],...", value_parser = FaultBudget::parse)]
    faults: Option<FaultBudget>,
    /// Also judge the scenario's own [[expect]]s (left out by default: they were written for
    /// its scripted faults, not random ones).
    #[arg(long)]
    with_expectations: bool,
    /// Worker threads (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    jobs: Option<u64>,
    /// Where the app is served, for the failure links.
    #[arg(long, value_name = "URL", default_value = DEFAULT_BASE)]
    base: String,
    /// Print the report as JSON (for explore-merge) instead of text.
    #[arg(long)]
    json: bool,
}

/// `--seeds`: at least one. Zero would explore nothing and pass; it was refused only as a
/// shard of `1/1`, a flag the user never gave.
fn parse_seeds(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(0) => Err("explore needs at least one seed: give --seeds 1 or more".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(format!("not a number of seeds: {e}")),
    }
}

/// Runs the command; returns the exit code: 1 if any property failed on any seed.
pub fn run(a: ExploreArgs) -> Result<i32, String> {
    let shard = a.shard.unwrap_or(Shard::WHOLE);
    let (first_seed, seeds) = shard
        .slice(a.first_seed, a.seeds)
        .map_err(|e| format!("--shard {shard}: {e}"))?;
    let opts = ExploreOptions {
        seeds,
        first_seed,
        jobs: match a.jobs {
            Some(n) => n as usize,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        },
        budget: a.faults.clone().unwrap_or_default(),
        with_expectations: a.with_expectations,
    };
    let base = a.scenario.load()?;
    let of_shard = match a.shard {
        Some(s) => format!(
            " (shard {s} of {}..{})",
            a.first_seed,
            a.first_seed + a.seeds
        ),
        None => String::new(),
    };
    crate::out::warn(&format!(
        "exploring {}: seeds {first_seed}..{}{of_shard}, faults {}, {} jobs{}",
        crate::out::arg_label(&a.scenario.scenario),
        first_seed + seeds,
        opts.budget,
        opts.jobs,
        if opts.with_expectations {
            ", with the scenario's expectations"
        } else {
            ""
        }
    ));
    let report = run_with_progress(&base, &opts)?;
    if a.json {
        say!(
            "{}",
            serde_json::to_string_pretty(&report.to_json()).unwrap_or_default()
        );
    } else {
        print_report(&report, &a.base);
    }
    Ok(if report.failures.is_empty() { 0 } else { 1 })
}

fn run_with_progress(
    base: &faultline_scenario::Scenario,
    opts: &ExploreOptions,
) -> Result<Report, String> {
    let started = Instant::now();
    let bar = bar(opts.seeds, "{bar:30} {pos}/{len} seeds  {msg}  eta {eta}");
    bar.set_message(rate_text(0, started.elapsed()));
    let plain = PlainProgress::new();
    let report = explore(base, opts, &|p: Progress| {
        let rate = rate_text(p.done, started.elapsed());
        plain.tick(|elapsed| {
            format!(
                "explore: {}/{} seeds ({}%), {} failing, {rate}, {:.0} s elapsed",
                p.done,
                p.total,
                percent(p.done, p.total),
                p.failing,
                elapsed.as_secs_f64()
            )
        });
        bar.set_position(p.done);
        bar.set_message(format!("{rate}  {} failing", p.failing));
    })
    .map_err(|e| e.to_string())?;
    bar.finish_and_clear();
    crate::out::warn(&format!(
        "explored {} seeds in {:.1} s ({})",
        report.runs,
        started.elapsed().as_secs_f64(),
        rate_text(report.runs, started.elapsed())
    ));
    Ok(report)
}

/// The text report: each failure with its link, then the totals.
pub fn print_report(report: &Report, base_url: &str) {
    for line in report.failure_lines(base_url) {
        say!("{line}");
    }
    for line in report.summary_lines() {
        say!("{line}");
    }
    if let Some(f) = report.failures.first() {
        say!(
            "shrink a failure with: faultline shrink 'LINK' --property {}",
            f.findings[0].property
        );
    }
}
