//! Shards of one exploration merge into the report of a single run, reports survive JSON, and
//! the scenario's own expectations are judged only when asked for.

#[allow(dead_code)] // each test file uses a part of it
mod common;

use faultline_explore::{explore, merge_reports, ExploreOptions, FaultBudget, Report, Shard};

fn options(first_seed: u64, seeds: u64, with_expectations: bool) -> ExploreOptions {
    ExploreOptions {
        seeds,
        first_seed,
        jobs: 2,
        budget: FaultBudget::parse("kill,pause").unwrap(),
        with_expectations,
    }
}

#[test]
fn merged_shards_are_the_unsharded_report_and_round_trip_through_json() {
    let base = common::no_faults_expected();
    let whole = explore(&base, &options(10, 7, true), &|_| {}).unwrap();
    assert_eq!(whole.failures.len(), 7, "every seed breaks `no faults`");
    let mut parts = Vec::new();
    for index in [3, 1, 2] {
        let (first, n) = Shard { index, count: 3 }.slice(10, 7).unwrap();
        let part = explore(&base, &options(first, n, true), &|_| {}).unwrap();
        let back = Report::from_json(&part.to_json()).expect("reads its own JSON");
        assert_eq!(back, part);
        parts.push(back);
    }
    assert_eq!(merge_reports(parts.clone()).unwrap(), whole);

    parts.remove(2); // shard 2 of 3: 1 and 3 no longer meet
    let gap = merge_reports(parts).unwrap_err();
    assert!(gap.contains("leave a gap"), "{gap}");
    let other = explore(&base, &options(17, 2, false), &|_| {}).unwrap();
    let mixed = merge_reports(vec![whole, other]).unwrap_err();
    assert!(mixed.contains("other options"), "{mixed}");
}

#[test]
fn expectations_are_judged_only_when_asked_for() {
    let base = common::no_faults_expected();
    let only_properties = explore(&base, &options(0, 4, false), &|_| {}).unwrap();
    let expects = |r: &Report| {
        r.failures
            .iter()
            .flat_map(|f| &f.findings)
            .filter(|x| x.property.starts_with("expect["))
            .count()
    };
    assert_eq!(
        expects(&only_properties),
        0,
        "{:?}",
        only_properties.summary_lines()
    );
    let with = explore(&base, &options(0, 4, true), &|_| {}).unwrap();
    assert_eq!(
        expects(&with),
        4,
        "the scenario's own check fails on every seed"
    );
}

#[test]
fn bad_report_json_names_the_field() {
    let base = common::no_faults_expected();
    let report = explore(&base, &options(0, 1, true), &|_| {}).unwrap();
    let mut v = report.to_json();
    v["failures"][0]["seed"] = serde_json::json!("seven");
    let err = Report::from_json(&v).unwrap_err();
    assert!(err.contains("failures[0].`seed`"), "{err}");
    assert!(Report::from_json(&serde_json::json!({}))
        .unwrap_err()
        .contains("`format`"));
}
