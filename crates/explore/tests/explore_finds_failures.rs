//! `explore` finds expectations that random faults break, reports them with a replayable
//! scenario, and reports the same thing whatever the number of threads.

mod common;

use faultline_explore::{explore, ExploreOptions, FaultBudget, Progress};
use faultline_scenario::{decode_link, share_url};

fn options(seeds: u64, jobs: usize, faults: &str) -> ExploreOptions {
    ExploreOptions {
        seeds,
        first_seed: 100,
        jobs,
        budget: FaultBudget::parse(faults).unwrap(),
        // These tests break the scenario's own expectation on purpose.
        with_expectations: true,
    }
}

#[test]
fn random_kills_break_an_expectation_that_needs_every_leader() {
    let base = common::never_leaderless();
    let calm = faultline_explore::check_scenario(&base).unwrap();
    assert!(!calm.fails("expect[0]"), "holds without faults: {calm:?}");
    let report = explore(&base, &options(12, 2, "kill=2"), &|_| {}).unwrap();
    assert_eq!(report.runs, 12);
    let failing: Vec<_> = report
        .failures
        .iter()
        .filter(|f| f.findings.iter().any(|x| x.property == "expect[0]"))
        .collect();
    assert!(
        !failing.is_empty(),
        "no seed broke expect[0]: {:?}",
        report.summary_lines()
    );
    // The reported scenario is the exact failing one: its seed, the base's expectations, and
    // the random kills on top.
    let f = failing[0];
    assert_eq!(f.scenario.seed, f.seed);
    assert_eq!(f.scenario.expect, base.expect);
    assert!(f.scenario.faults.len() > base.faults.len());
    let url = share_url("http://127.0.0.1:8080/", &f.scenario);
    assert_eq!(decode_link(&url).unwrap(), f.scenario);
}

#[test]
fn report_is_the_same_with_one_or_two_threads() {
    let base = common::no_faults_expected();
    let opts = |jobs| options(16, jobs, "kill,partition=2,loss,pause,broker-down");
    let one = explore(&base, &opts(1), &|_| {}).unwrap();
    let two = explore(&base, &opts(2), &|_| {}).unwrap();
    assert_eq!(one, two);
    assert_eq!(
        one.failure_lines("http://x/"),
        two.failure_lines("http://x/")
    );
    assert_eq!(one.failures.len(), 16, "every seed injects a fault");
    let seeds: Vec<u64> = one.failures.iter().map(|f| f.seed).collect();
    assert_eq!(seeds, (100..116).collect::<Vec<_>>(), "sorted by seed");
    assert!(one.notes.iter().any(|n| n.contains("broker-down skipped")));
}

#[test]
fn progress_reaches_the_total() {
    let base = common::no_faults_expected();
    let last = std::sync::Mutex::new(Vec::new());
    explore(&base, &options(5, 2, "pause"), &|p: Progress| {
        last.lock().unwrap().push(p)
    })
    .unwrap();
    let seen = last.into_inner().unwrap();
    assert_eq!(seen.len(), 5);
    assert!(seen
        .iter()
        .any(|p| p.done == 5 && p.total == 5 && p.failing == 5));
}

#[test]
fn bad_inputs_are_errors_not_panics() {
    let base = common::no_faults_expected();
    assert!(explore(&base, &options(0, 1, "kill"), &|_| {}).is_err());
    let mut o = options(2, 1, "kill");
    o.first_seed = u64::MAX;
    assert!(explore(&base, &o, &|_| {}).is_err());
}
