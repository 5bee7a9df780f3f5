//! `shrink` turns a multi-fault failure into a small scenario that still fails the same
//! property, and its link replays the failure.

mod common;

use faultline_explore::{check_scenario, scenario_for_seed, shrink, FaultBudget, ShrinkError};
use faultline_scenario::{decode_link, share_url, validate::validate, Scenario};

/// The first seed whose schedule has at least `n` faults and fails `property`.
fn multi_fault_failure(base: &Scenario, faults: &str, n: usize, property: &str) -> Scenario {
    let budget = FaultBudget::parse(faults).unwrap();
    (0..200)
        .map(|seed| scenario_for_seed(base, &budget, seed))
        .filter(|s| s.faults.len() >= n)
        .find(|s| check_scenario(s).unwrap().fails(property))
        .expect("some seed fails with several faults")
}

fn replays(s: &Scenario, property: &str) {
    let link = share_url("http://127.0.0.1:8080/", s);
    let back = decode_link(&link).expect("the printed link decodes");
    assert_eq!(&back, s);
    assert!(
        check_scenario(&back).unwrap().fails(property),
        "link does not replay {property}"
    );
}

#[test]
fn shrinks_a_multi_fault_failure_to_one_fault_and_an_early_stop() {
    let base = common::no_faults_expected();
    let failing = multi_fault_failure(&base, "kill=3,partition=3,loss,pause", 4, "expect[0]");
    let mut log = Vec::new();
    let shrunk = shrink(&failing, "no faults", 500, &mut |l| log.push(l.to_string())).unwrap();
    let s = &shrunk.scenario;
    assert_eq!(s.faults.len(), 1, "one fault suffices; log: {log:?}");
    assert!(s.duration < failing.duration, "stopped earlier: {log:?}");
    assert!(s.topology.regions < failing.topology.regions);
    assert_eq!(shrunk.finding.property, "expect[0]");
    validate("shrunk", s).unwrap();
    replays(s, "expect[0]");
}

#[test]
fn shrinks_a_model_failure_to_at_most_two_faults() {
    let base = common::never_leaderless();
    let failing = multi_fault_failure(&base, "kill=3,pause=2", 3, "expect[0]");
    let shrunk = shrink(&failing, "expect[0]", 400, &mut |_| {}).unwrap();
    assert!(
        shrunk.scenario.faults.len() <= 2,
        "{:#?}",
        shrunk.scenario.faults
    );
    replays(&shrunk.scenario, "expect[0]");
    // Deterministic: the same input shrinks to the same scenario.
    let again = shrink(&failing, "expect[0]", 400, &mut |_| {}).unwrap();
    assert_eq!(again, shrunk);
}

#[test]
fn refuses_unknown_properties_and_passing_scenarios() {
    let base = common::no_faults_expected();
    match shrink(&base, "nope", 10, &mut |_| {}) {
        Err(ShrinkError::UnknownProperty { names, .. }) => {
            assert!(names.contains(&"invariant".to_string()));
            assert!(names.contains(&"expect[0]".to_string()));
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        shrink(&base, "expect[0]", 10, &mut |_| {}),
        Err(ShrinkError::DoesNotFail { .. })
    ));
}

/// The shrunk scenario says what it was shrunk from, keeps the expectations that still hold
/// and the one being shrunk (renumbered), and drops the rest and the guide.
#[test]
fn a_shrunk_scenario_says_what_it_was_shrunk_from_and_drops_what_no_longer_holds() {
    let mut base = common::never_leaderless();
    let target = base.expect.remove(0);
    let extra = faultline_scenario::parse_scenario(
        "extra.toml",
        r#"
name = "extra"
duration = "2m"
[[expect]]
name = "always holds"
log = "fault injected"
op = ">="
value = 0
[[expect]]
name = "no faults"
log = "fault injected"
op = "=="
value = 0
[[guide]]
at = "0s"
caption = "narrates the original script"
"#,
    )
    .unwrap();
    base.expect = extra.expect.clone();
    base.expect.push(target.clone());
    base.guide = extra.guide.clone();
    base.description = "The original description.".into();
    let failing = multi_fault_failure(&base, "kill=3,pause=2", 3, "expect[2]");
    let shrunk = shrink(&failing, "expect[2]", 400, &mut |_| {}).unwrap();
    let s = &shrunk.scenario;
    assert_eq!(s.name, format!("{} (shrunk)", failing.name));
    assert!(
        s.description
            .contains(&format!("from \"{}\"", failing.name))
            && s.description.contains(&format!("seed {}", failing.seed))
            && s.description.contains("no faults")
            && s.description.contains("The original description."),
        "{}",
        s.description
    );
    let names: Vec<&str> = s.expect.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["always holds", target.name.as_str()]);
    assert!(s.guide.is_empty(), "the guide narrated the original faults");
    assert_eq!(
        shrunk.finding.property, "expect[1]",
        "renumbered with the drop"
    );
    validate("shrunk", s).unwrap();
    replays(s, "expect[1]");
}
