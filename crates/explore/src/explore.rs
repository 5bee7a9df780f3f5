//! `explore`: many seeds, each with its own random fault schedule, on every core.
//!
//! Seeds are handed out through an atomic counter, so threads never wait on each other; the
//! report is sorted by seed at the end, so it is the same whatever the number of threads.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};

use faultline_scenario::validate::validate;
use faultline_scenario::{Run, Scenario};

use crate::budget::{FaultBudget, FaultKind};
use crate::outcome::{check_scenario, Finding, Outcome};
use crate::report::{Report, SeedFailure};
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
    Ok(merge(parts, opts.seeds, notes))
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
            let outcome = run_seed(&scenario);
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

fn run_seed(s: &Scenario) -> Outcome {
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
    check_scenario(s).unwrap_or_else(setup)
}

fn merge(parts: Vec<Partial>, runs: u64, notes: Vec<String>) -> Report {
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
        runs,
        failures,
        skipped,
        notes,
    }
}
