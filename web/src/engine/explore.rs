//! Explore and shrink in the page, in slices (issue 8 section 3). Yew-free, so native tests
//! drive them the same way the panel does.
//!
//! Why slices: `faultline_explore::explore` runs seeds on threads, which wasm32 in the browser
//! does not have; its per-seed pieces (`scenario_for_seed`, `outcome::check_run`) are public,
//! and a seed's `Run` can be advanced a few thousand events at a time with `Run::run_slice`.
//! So the engine (`crate::engine`, in the simulation worker) steps one seed at a time with the
//! same wall-clock slicer as playback (`crate::slicer`), interleaved with playback and with
//! the page's commands, and reports progress in its frames. The results equal the CLI's for the same seeds and budget: each seed's
//! scenario and outcome are functions of the seed alone.
//!
//! Shrinking is not incremental in `faultline_explore` (`shrink()` runs candidates to its run
//! cap in one call), so [`ShrinkJob`] calls it repeatedly with a small cap, each call starting
//! from the previous call's smallest failing scenario. The page is busy for at most one
//! step's runs; progress shows between steps.

use faultline_explore::outcome::check_run;
use faultline_explore::schedule::has_brokers;
use faultline_explore::{scenario_for_seed, shrink, FaultBudget, FaultKind, ShrinkError};
use faultline_scenario::{encode_link, Run, Scenario};

use crate::slicer::Steppable;

/// One failing property on one seed.
#[derive(Clone, Debug, PartialEq)]
pub struct ExploreFailure {
    /// The seed.
    pub seed: u64,
    /// The exact failing scenario (seed and fault schedule included): its link replays it.
    pub scenario: Scenario,
    /// Property name (`expect[0]`, `liveness.leader`, `invariant`, ...).
    pub property: String,
    /// What failed, with the observed values.
    pub message: String,
    /// The scenario's link (`v1.…`), encoded once: the panel re-renders every slice.
    pub link: String,
}

/// Explore over a base scenario: seeds `first_seed..first_seed + seeds`, one at a time.
pub struct ExploreJob {
    base: Scenario,
    budget: FaultBudget,
    first_seed: u64,
    seeds: u64,
    next: u64,
    current: Option<(u64, Scenario, Run)>,
    /// Failures so far, in seed order.
    pub failures: Vec<ExploreFailure>,
    /// Notes (fault kinds that cannot be injected into this scenario).
    pub notes: Vec<String>,
    /// Seeds with at least one failure.
    pub failing_seeds: u64,
}

/// Most seeds one panel run may ask for: each seed is a whole simulation.
pub const MAX_SEEDS: u64 = 1_000;

impl ExploreJob {
    /// Explores `base` with the fault budget `budget` (`kill=2,partition,...`, the CLI's
    /// `--faults`) over `seeds` seeds from `first_seed`. Errors say what is wrong with the
    /// inputs.
    pub fn new(
        base: &Scenario,
        budget: &str,
        first_seed: u64,
        seeds: u64,
    ) -> Result<ExploreJob, String> {
        let mut budget = if budget.trim().is_empty() {
            FaultBudget::default()
        } else {
            FaultBudget::parse(budget)?
        };
        if seeds == 0 || seeds > MAX_SEEDS {
            return Err(format!("seeds must be 1..={MAX_SEEDS}"));
        }
        first_seed
            .checked_add(seeds)
            .ok_or("the seed range runs past the largest seed")?;
        Run::new(base).map_err(|e| e.to_string())?;
        let mut notes = Vec::new();
        // The same adjustment `faultline explore` makes, so the panel and the CLI agree.
        if budget.allows(FaultKind::BrokerDown) && !has_brokers(base) {
            notes.push("broker-down skipped: the scenario has no Kafka brokers".to_string());
            budget = budget.without(FaultKind::BrokerDown);
        }
        Ok(ExploreJob {
            base: base.clone(),
            budget,
            first_seed,
            seeds,
            next: 0,
            current: None,
            failures: Vec::new(),
            notes,
            failing_seeds: 0,
        })
    }

    /// Seeds finished.
    pub fn done(&self) -> u64 {
        self.next
    }

    /// Seeds in total.
    pub fn total(&self) -> u64 {
        self.seeds
    }

    /// The seed running now and how far it is (0..=1), if any.
    pub fn running(&self) -> Option<(u64, f64)> {
        self.current.as_ref().map(|(seed, _, run)| {
            let end = run.end().as_micros().max(1) as f64;
            (*seed, run.now().as_micros() as f64 / end)
        })
    }

    /// True when every seed has run.
    pub fn finished(&self) -> bool {
        self.next >= self.seeds
    }

    fn finish_seed(&mut self, seed: u64, scenario: Scenario, findings: Vec<(String, String)>) {
        if !findings.is_empty() {
            self.failing_seeds += 1;
        }
        let link = if findings.is_empty() {
            String::new()
        } else {
            encode_link(&scenario)
        };
        for (property, message) in findings {
            self.failures.push(ExploreFailure {
                link: link.clone(),
                seed,
                scenario: scenario.clone(),
                property,
                message,
            });
        }
        self.next += 1;
    }
}

impl Steppable for ExploreJob {
    fn step_events(&mut self, max_events: u64) -> bool {
        if self.finished() {
            return true;
        }
        let (seed, scenario, mut run) = match self.current.take() {
            Some(c) => c,
            None => {
                let seed = self.first_seed + self.next;
                let scenario = scenario_for_seed(&self.base, &self.budget, seed);
                match Run::new(&scenario) {
                    Ok(run) => (seed, scenario, run),
                    Err(e) => {
                        // The CLI reports this as a failure too: a drawn schedule the model
                        // rejects is a bug in explore.
                        let finding = vec![("explore.setup".to_string(), e.to_string())];
                        self.finish_seed(seed, scenario, finding);
                        return self.finished();
                    }
                }
            }
        };
        let end = run.end();
        if run.run_slice(end, max_events) {
            let findings = check_run(&run)
                .findings
                .into_iter()
                .map(|f| (f.property, f.message))
                .collect();
            self.finish_seed(seed, scenario, findings);
        } else {
            self.current = Some((seed, scenario, run));
        }
        self.finished()
    }
}

/// Simulation runs one shrink step may spend. Small, because a step blocks the page.
pub const RUNS_PER_STEP: u64 = 6;
/// Simulation runs one shrink may spend in all (the CLI's default is 2,000).
pub const MAX_RUNS: u64 = 120;

/// Where a shrink is.
#[derive(Clone, Debug, PartialEq)]
pub enum ShrinkStatus {
    /// More steps to go.
    Running,
    /// No candidate within the last step was smaller and still failing, or the shrinker reached
    /// its fixpoint.
    Done,
    /// Stopped at [`MAX_RUNS`].
    Capped,
    /// Could not shrink (the scenario does not fail the property, ...).
    Failed(String),
}

/// A shrink of one failing scenario, in steps of at most [`RUNS_PER_STEP`] runs.
pub struct ShrinkJob {
    /// The property being kept failing.
    pub property: String,
    /// The smallest failing scenario so far.
    pub current: Scenario,
    /// Faults in the scenario it started from.
    pub faults_before: usize,
    /// Simulation runs spent.
    pub runs: u64,
    /// Where it is.
    pub status: ShrinkStatus,
}

impl ShrinkJob {
    /// Starts shrinking `scenario` while `property` fails.
    pub fn new(scenario: &Scenario, property: &str) -> ShrinkJob {
        ShrinkJob {
            property: property.to_string(),
            current: scenario.clone(),
            faults_before: scenario.faults.len(),
            runs: 0,
            status: ShrinkStatus::Running,
        }
    }

    /// Runs one step (at most [`RUNS_PER_STEP`] simulations). Returns true when done.
    pub fn step(&mut self) -> bool {
        if self.status != ShrinkStatus::Running {
            return true;
        }
        let cap = RUNS_PER_STEP.min(MAX_RUNS - self.runs);
        match shrink(&self.current, &self.property, cap, &mut |_| {}) {
            Ok(s) => {
                self.runs += s.runs;
                let progress = s.scenario != self.current;
                self.current = s.scenario;
                self.status = if !s.capped || !progress {
                    // A fixpoint, or a whole step of rejected candidates: each step restarts
                    // the passes, so another step would retry the same candidates.
                    ShrinkStatus::Done
                } else if self.runs >= MAX_RUNS {
                    ShrinkStatus::Capped
                } else {
                    ShrinkStatus::Running
                };
            }
            Err(e @ ShrinkError::DoesNotFail { .. }) if self.runs > 0 => {
                // Cannot happen for a scenario the shrinker returned; keep what we have.
                self.status = ShrinkStatus::Failed(e.to_string());
            }
            Err(e) => self.status = ShrinkStatus::Failed(e.to_string()),
        }
        self.status != ShrinkStatus::Running
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// raft-basics without its kill, one minute long, expecting no leaderless region ever:
    /// any random kill breaks it.
    fn fragile() -> Scenario {
        let (_, text) = faultline_scenario::SHIPPED
            .iter()
            .find(|(f, _)| *f == "raft-basics-kill-a-store.toml")
            .expect("shipped");
        // Everything before the fault script (topology, workload), one minute long.
        let head = text.split("[[faults]]").next().unwrap();
        let text = head.replace("duration = \"4m\"", "duration = \"1m\"")
            + "\n[[expect]]\nname = \"never leaderless\"\nmetric = \"leaderless_regions\"\nagg = \"max\"\nop = \"==\"\nvalue = 0\n";
        let s = faultline_scenario::parse_scenario("fragile", &text).expect("valid");
        assert!(s.faults.is_empty() && s.duration == faultline_scenario::Dur::secs(60));
        s
    }

    #[test]
    fn explore_in_slices_finds_the_random_kills_and_matches_the_cli_schedule() {
        let base = fragile();
        let mut job = ExploreJob::new(&base, "kill", 0, 3).expect("valid inputs");
        let mut slices = 0;
        while !job.step_events(5_000) {
            slices += 1;
            assert!(slices < 100_000, "explore does not end");
        }
        assert!(slices > 3, "a seed takes several slices");
        assert_eq!(job.done(), 3);
        assert!(
            !job.failures.is_empty(),
            "random kills leave regions leaderless"
        );
        let f = &job.failures[0];
        assert_eq!(f.property, "expect[0]");
        assert_eq!(
            f.scenario,
            scenario_for_seed(&base, &FaultBudget::parse("kill").unwrap(), f.seed)
        );
        assert_eq!(
            faultline_scenario::decode_link(&f.link).expect("the link decodes"),
            f.scenario
        );
    }

    #[test]
    fn bad_inputs_are_errors() {
        let base = fragile();
        assert!(ExploreJob::new(&base, "meteor", 0, 3).is_err());
        assert!(ExploreJob::new(&base, "kill", 0, 0).is_err());
        let job = ExploreJob::new(&base, "", 0, 1).expect("default budget");
        assert!(job.notes.iter().any(|n| n.contains("broker-down")));
    }

    #[test]
    fn shrink_in_steps_keeps_the_property_failing() {
        let base = fragile();
        let mut job = ExploreJob::new(&base, "kill=2,partition=2", 0, 4).expect("valid");
        while !job.step_events(50_000) {}
        let f = job.failures.first().expect("a failure").clone();
        let mut sh = ShrinkJob::new(&f.scenario, &f.property);
        let mut steps = 0;
        while !sh.step() {
            steps += 1;
        }
        assert!(
            matches!(sh.status, ShrinkStatus::Done | ShrinkStatus::Capped),
            "{:?}",
            sh.status
        );
        assert!(sh.current.faults.len() <= f.scenario.faults.len());
        assert!(sh.runs <= MAX_RUNS && steps as u64 <= MAX_RUNS);
        let outcome = faultline_explore::check_scenario(&sh.current).expect("runs");
        assert!(outcome.fails(&f.property));
    }
}
