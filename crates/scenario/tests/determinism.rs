//! Same scenario, same seed: same trace hash. Another seed: another hash.

use faultline_scenario::*;

fn hash(s: &Scenario) -> u64 {
    let mut run = Run::new(s).unwrap();
    run.run_to_end();
    run.trace_hash()
}

#[test]
fn same_seed_same_trace_different_seed_different_trace() {
    for entry in gallery() {
        let s = entry.scenario;
        assert_eq!(hash(&s), hash(&s), "{} is not deterministic", entry.file);
        let mut other = s.clone();
        other.seed = s.seed.wrapping_add(1);
        assert_ne!(
            hash(&s),
            hash(&other),
            "{}: the seed changes nothing",
            entry.file
        );
    }
}

#[test]
fn a_snapshot_replays_to_the_same_hash() {
    let s = default_scenario();
    let mut run = Run::new(&s).unwrap();
    run.run_until(faultline_sim::SimTime(run.end().0 / 2));
    let snapshot = run.clone();
    run.run_to_end();
    let mut replay = snapshot;
    replay.run_to_end();
    assert_eq!(run.trace_hash(), replay.trace_hash());
}

#[test]
fn slices_give_the_same_trace_as_one_run() {
    let s = default_scenario();
    let mut sliced = Run::new(&s).unwrap();
    while !sliced.run_slice(sliced.end(), 37) {}
    assert_eq!(sliced.trace_hash(), hash(&s));
}

#[test]
fn recording_messages_does_not_change_the_run() {
    let s = default_scenario();
    let mut plain = Run::new(&s).unwrap();
    plain.run_to_end();
    let mut recorded = Run::new(&s).unwrap();
    recorded.world.kernel.messages.set_capacity(1000);
    recorded.run_to_end();
    assert_eq!(plain.trace_hash(), recorded.trace_hash());
    assert_eq!(recorded.world.kernel.messages.records().len(), 1000);
}

#[test]
fn a_max_that_already_passes_is_decided_before_the_window_ends() {
    let file = include_str!("../../../scenarios/tikv-14547-leaders-lost-after-store-failure.toml");
    // tikv-1 dies at 60 s and some region stays leaderless for about 17 s.
    let text = format!(
        "{file}\n[[expect]]\nname = \"a region leaderless 10 s\"\nmetric = \"longest_leaderless_secs\"\nagg = \"max\"\nop = \">=\"\nvalue = 10\n"
    );
    let s = parse_scenario("14547.toml", &text).unwrap();
    let mut run = Run::new(&s).unwrap();
    run.run_until(faultline_sim::SimTime(3 * 60 * 1_000_000));
    let results = run.evaluate();
    let added = results.last().unwrap();
    // The max over the whole run already holds by 3 min, long before the run ends.
    assert_eq!(added.verdict, Verdict::Pass, "{added:?}");
    let mut early = Run::new(&s).unwrap();
    early.run_until(faultline_sim::SimTime(61 * 1_000_000));
    assert_eq!(early.evaluate().last().unwrap().verdict, Verdict::Pending);
}
