//! A scenario being run: its world, its end, its expectations.

use faultline_sim::{Model, SimTime};

use crate::build::{build_world, SimWorld};
use crate::error::{Problems, ScenarioError};
use crate::expect::{evaluate, ExpectResult};
use crate::format::Scenario;

/// One run of a scenario.
#[derive(Clone)]
pub struct Run {
    /// The scenario as given.
    pub scenario: Scenario,
    /// The simulated world.
    pub world: SimWorld,
}

impl Run {
    /// Builds the world. Fails if an expectation names a metric the model does not have.
    pub fn new(scenario: &Scenario) -> Result<Run, ScenarioError> {
        let world = build_world(scenario);
        check_metric_names(scenario, &world)?;
        Ok(Run {
            scenario: scenario.clone(),
            world,
        })
    }

    /// When the run ends.
    pub fn end(&self) -> SimTime {
        self.scenario.duration.to_time()
    }

    /// Current simulated time.
    pub fn now(&self) -> SimTime {
        self.world.now()
    }

    /// True once the run has run every event up to and including its end.
    pub fn finished(&self) -> bool {
        self.world.has_run_through(self.end())
    }

    /// Runs at most `max_events` events towards `until` (capped at the end); true when reached.
    pub fn run_slice(&mut self, until: SimTime, max_events: u64) -> bool {
        let until = until.min(self.end());
        self.world.run_slice(until, max_events)
    }

    /// Runs to `until` (capped at the end).
    pub fn run_until(&mut self, until: SimTime) {
        let until = until.min(self.end());
        self.world.run_until(until);
    }

    /// Runs to the end.
    pub fn run_to_end(&mut self) {
        let end = self.end();
        self.world.run_until(end);
    }

    /// The trace hash so far.
    pub fn trace_hash(&self) -> u64 {
        self.world.trace_hash()
    }

    /// Metric `name`'s sample at `secs` simulated seconds.
    ///
    /// # Panics
    /// If the metric does not exist or has no sample there yet: a test reading it is wrong.
    pub fn metric_at_secs(&self, name: &str, secs: u64) -> f64 {
        let at = faultline_sim::SimTime(secs * 1_000_000);
        self.world
            .kernel
            .metrics
            .at(name, at)
            .unwrap_or_else(|| panic!("{name} is sampled at {secs} s"))
    }

    /// The expectations, evaluated at the current time.
    pub fn evaluate(&self) -> Vec<ExpectResult> {
        evaluate(&self.scenario, &self.world)
    }

    /// The guide steps' claims, each evaluated at its step's time (pending until reached).
    pub fn evaluate_guide(&self) -> Vec<crate::expect_guide::GuideClaimResult> {
        crate::expect_guide::evaluate_guide(&self.scenario, &self.world)
    }
}

fn check_metric_names(s: &Scenario, world: &SimWorld) -> Result<(), ScenarioError> {
    let names = world.model.metric_names();
    let mut p = Problems::default();
    let expected = s
        .expect
        .iter()
        .enumerate()
        .filter_map(|(i, e)| Some((format!("expect[{i}].metric"), e.metric.as_deref()?)));
    let named = expected.chain(crate::expect_guide::named_metrics(s));
    for (field, m) in named {
        if !names.iter().any(|n| n == m) {
            p.add(field, unknown_metric(m, &names));
        }
    }
    p.into_result("scenario")
}

/// Why `m` is not a metric: the nearest names when some are near (a typo), else every name.
pub fn unknown_metric(m: &str, names: &[String]) -> String {
    match crate::nearest::did_you_mean(&crate::nearest::nearest(m, names, 3)) {
        Some(question) => format!("no metric named `{m}`; {question}"),
        None => format!("no metric named `{m}`; metrics are {}", names.join(", ")),
    }
}
