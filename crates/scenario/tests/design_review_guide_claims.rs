//! docs/guide-design-review.md tells a reviewer what compare mode shows on tiflow#9595; every
//! number it states is checked here against the two gallery runs, and the guide must still
//! state them (so a change to either side fails until both agree).

use faultline_scenario::{gallery, Run};

fn run_of(file: &str) -> Run {
    let s = gallery()
        .into_iter()
        .find(|e| e.file == file)
        .expect("in the gallery")
        .scenario;
    let mut run = Run::new(&s).expect("runs");
    run.run_to_end();
    run
}

#[test]
fn the_design_review_guide_states_what_the_tiflow_9595_runs_show() {
    let guide = include_str!("../../../docs/guide-design-review.md");
    for words in [
        "rises to 18 (by 2m30s)",
        "keeps `orphaned_regions` at 0",
        "back to about 3 s by 3 min",
        "buggy on the left and fixed on the right",
    ] {
        assert!(guide.contains(words), "the guide no longer says `{words}`");
    }
    let buggy = run_of("tiflow-9595-changefeed-stuck-after-tikv-failure.toml");
    let fixed = run_of("tiflow-9595-changefeed-stuck-after-tikv-failure-fixed.toml");
    let end = buggy.end().0 / 1_000_000;
    assert_eq!(buggy.metric_at_secs("orphaned_regions", 150), 18.0);
    assert_eq!(buggy.metric_at_secs("orphaned_regions", end), 18.0);
    let (lag_3m, lag_end) = (
        buggy.metric_at_secs("checkpoint_lag.redo-cf", 180),
        buggy.metric_at_secs("checkpoint_lag.redo-cf", end),
    );
    assert!(
        lag_end - lag_3m >= 0.95 * (end - 180) as f64,
        "buggy lag climbs 1 s/s: {lag_3m} at 3m, {lag_end} at the end"
    );
    for secs in 0..=end {
        assert_eq!(
            fixed.metric_at_secs("orphaned_regions", secs),
            0.0,
            "at {secs} s"
        );
    }
    let fixed_lag = fixed.metric_at_secs("checkpoint_lag.redo-cf", 180);
    assert!(
        (2.0..4.0).contains(&fixed_lag),
        "fixed lag at 3m: {fixed_lag}"
    );
}
