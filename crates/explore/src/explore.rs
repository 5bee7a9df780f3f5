//! `explore`: many seeds, each with its own random fault schedule, on every core.
//!
//! Seeds are handed out through an atomic counter, so threads never wait on each other; the
//! report is sorted by seed at the end, so it is the same whatever the number of threads.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};

use faultline_scenario::validate::validate;
use faultline_scenario::{encode_link, Run, Scenario};

use crate::budget::{FaultBudget, FaultKind};
use crate::outcome::{check_scenario_judging, Finding, Outcome};
use crate::property::liveness::recovery_needed;
use crate::report::{Report, ReportContext, SeedFailure};
use crate::schedule::{has_brokers, scenario_for_seed};

/// Property name of a seed whose derived scenario could not be run (a bug in explore).
pub const SETUP: &str = "explore.setup";

/// What to explore.
#[derive(Clone, Debug)]
pub struct ExploreOptions {
    /// How many seeds to run.
    pub seeds: u64,
    /// The first seed; seeds are `first_seed..first_seed + seeds`.
    pub first_seed: u64,
    /// Worker threads (at least 1).
    pub jobs: usize,
    /// Which faults each schedule may contain.
    pub budget: FaultBudget,
    /// Also judge the scenario's own `[[expect]]`s. Off by default: they describe the
    /// scenario's scripted faults, so under random faults they mostly fail for no bug.
    pub with_expectations: bool,
}

impl ExploreOptions {
    /// `seeds` seeds from `first_seed` on `jobs` threads with the default fault budget,
    /// properties only.
    pub fn new(seeds: u64, first_seed: u64, jobs: usize) -> ExploreOptions {
        ExploreOptions {
            seeds,
            first_seed,
            jobs,
            budget: FaultBudget::default(),
            with_expectations: false,
        }
    }
}

/// How far a run of explore got, for a progress bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Seeds finished.
    pub done: u64,
    /// Seeds in total.
    pub total: u64,
    /// Finished seeds with at least one failing property.
    pub failing: u64,
}

/// Why explore could not start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExploreError {
    /// The base scenario is invalid or cannot be built.
    #[error("{0}")]
    BadScenario(String),
    /// The seed range is empty or overflows.
    #[error("{0}")]
    BadSeeds(String),
}

/// Runs every seed of `opts` over `base` and reports the failures, sorted by seed.
/// `on_progress` is called from worker threads after each finished seed.
pub fn explore(
    base: &Scenario,
    opts: &ExploreOptions,
    on_progress: &(dyn Fn(Progress) + Sync),
) -> Result<Report, ExploreError> {
    validate("scenario", base).map_err(|e| ExploreError::BadScenario(e.to_string()))?;
    Run::new(base).map_err(|e| ExploreError::BadScenario(e.to_string()))?;
    if opts.seeds == 0 {
        return Err(ExploreError::BadSeeds("--seeds must be at least 1".into()));
    }
    opts.first_seed.checked_add(opts.seeds).ok_or_else(|| {
        ExploreError::BadSeeds(format!(
            "seeds {}..+{} run past the largest seed",
            opts.first_seed, opts.seeds
        ))
    })?;
    let mut notes = Vec::new();
    let mut budget = opts.budget.clone();
    if budget.allows(FaultKind::BrokerDown) && !has_brokers(base) {
        // Say so rather than silently inject nothing.
        notes.push("broker-down skipped: the scenario has no Kafka brokers".to_string());
        budget = budget.without(FaultKind::BrokerDown);
    }
    if budget.kinds.is_empty() {
        notes.push("no fault kind left to inject: every seed runs the base fault script".into());
    }
    let shared = Shared {
        base,
        budget: &budget,
        opts,
        next: AtomicU64::new(0),
        done: AtomicU64::new(0),
        failing: AtomicU64::new(0),
        on_progress,
    };
    let jobs = opts.jobs.max(1).min(opts.seeds.min(1024) as usize);
    let parts: Vec<Partial> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..jobs).map(|_| scope.spawn(|| shared.work())).collect();
        // Model panics are caught per seed; a panic here is a bug in explore itself, so pass
        // it on rather than report a run with seeds silently missing.
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    notes.extend(extension_note(base, &budget));
    let context = ReportContext {
        base_link: encode_link(base),
        budget: budget.to_string(),
        with_expectations: opts.with_expectations,
    };
    Ok(merge(parts, opts, notes, context))
}

/// Says when runs are lengthened so every liveness property can be judged (see
/// [`scenario_for_seed`]), so a longer failing link is not a surprise.
fn extension_note(base: &Scenario, budget: &FaultBudget) -> Option<String> {
    let longest = (0..8)
        .map(|seed| scenario_for_seed(base, budget, seed).duration)
        .max()?;
    (longest > base.duration).then(|| {
        format!(
            "runs lengthened past {} (up to {longest} in the first seeds) to leave {} after the last heal",
            base.duration,
            recovery_needed(base)
        )
    })
}

/// What every worker reads.
struct Shared<'a> {
    base: &'a Scenario,
    budget: &'a FaultBudget,
    opts: &'a ExploreOptions,
    next: AtomicU64,
    done: AtomicU64,
    failing: AtomicU64,
    on_progress: &'a (dyn Fn(Progress) + Sync),
}

/// One worker's results.
#[derive(Default)]
struct Partial {
    failures: Vec<SeedFailure>,
    skipped: BTreeMap<&'static str, u64>,
}

impl Shared<'_> {
    fn work(&self) -> Partial {
        let mut part = Partial::default();
        loop {
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            if i >= self.opts.seeds {
                return part;
            }
            let seed = self.opts.first_seed + i;
            let scenario = scenario_for_seed(self.base, self.budget, seed);
            let outcome = run_seed(&scenario, self.opts.with_expectations);
            for p in &outcome.skipped {
                *part.skipped.entry(p).or_default() += 1;
            }
            let failing = if outcome.findings.is_empty() {
                self.failing.load(Ordering::Relaxed)
            } else {
                part.failures.push(SeedFailure {
                    seed,
                    scenario,
                    findings: outcome.findings,
                });
                self.failing.fetch_add(1, Ordering::Relaxed) + 1
            };
            let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
            (self.on_progress)(Progress {
                done,
                total: self.opts.seeds,
                failing,
            });
        }
    }
}

fn run_seed(s: &Scenario, with_expectations: bool) -> Outcome {
    let setup = |message: String| Outcome {
        findings: vec![Finding {
            property: SETUP.into(),
            message,
            at: None,
        }],
        skipped: Vec::new(),
    };
    if let Err(e) = validate("explore", s) {
        return setup(format!("the generated schedule is invalid: {e}"));
    }
    check_scenario_judging(s, with_expectations).unwrap_or_else(setup)
}

fn merge(
    parts: Vec<Partial>,
    opts: &ExploreOptions,
    notes: Vec<String>,
    context: ReportContext,
) -> Report {
    let mut failures = Vec::new();
    let mut skipped: BTreeMap<&'static str, u64> = BTreeMap::new();
    for p in parts {
        failures.extend(p.failures);
        for (name, n) in p.skipped {
            *skipped.entry(name).or_default() += n;
        }
    }
    failures.sort_by_key(|f| f.seed);
    let skipped = crate::property::PROPERTIES
        .iter()
        .filter_map(|p| skipped.get(p.name).map(|n| (p.name, *n)))
        .collect();
    Report {
        context,
        first_seed: opts.first_seed,
        runs: opts.seeds,
        failures,
        skipped,
        notes,
    }
}
