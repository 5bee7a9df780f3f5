//! Which series a chart takes, on which axis, and which charts a run offers.

use super::*;

#[test]
fn thinning_keeps_spikes_and_order() {
    let mut pts: Vec<(f64, f64)> = (0..10_000).map(|i| (i as f64, 0.0)).collect();
    pts[5_001].1 = 42.0;
    let t = thin(pts, 300);
    assert!(t.len() <= 300, "{}", t.len());
    assert!(t.iter().any(|p| p.1 == 42.0));
    assert!(t.windows(2).all(|w| w[0].0 < w[1].0));
}

/// A tour step on the charts tab that names a metric highlights the chart drawing it, so
/// every such metric in the gallery must be drawn by some chart (else the page has
/// nothing to bring into sight).
#[test]
fn the_stores_chart_is_offered_only_where_stores_change() {
    let run_of = |file: &str| {
        let entry = faultline_scenario::gallery()
            .into_iter()
            .find(|g| g.file == file)
            .expect("a gallery scenario");
        faultline_scenario::Run::new(&entry.scenario).expect("builds")
    };
    let elastic = run_of("tikv-scale-out-in-during-kafka-replication.toml");
    assert!(available_charts(&elastic).contains(&ChartKind::Stores));
    let fixed = run_of("tikv-rolling-restart.toml");
    assert!(!available_charts(&fixed).contains(&ChartKind::Stores));
    assert_eq!(ChartKind::Stores.axis_of("replicas.tikv-4"), Some(false));
    assert_eq!(ChartKind::Stores.axis_of("stores.tombstone"), Some(true));
    // A split changes the region count, which this chart draws too.
    let split = run_of("raft-region-split.toml");
    assert!(available_charts(&split).contains(&ChartKind::Stores));
    // So does a merge.
    let merge = run_of("cdc-region-merge-during-replication.toml");
    assert!(available_charts(&merge).contains(&ChartKind::Stores));
    // Their fault marks say what they cut or join, as the chips do, not `merge pd-1`.
    let marks: Vec<String> = fault_marks(&merge).into_iter().map(|m| m.label).collect();
    assert_eq!(marks, ["merge region 2", "merge region 4"]);
    assert_eq!(ChartKind::Stores.axis_of("regions"), Some(false));
    assert_eq!(ChartKind::Stores.axis_of("learners"), Some(true));
    assert_eq!(ChartKind::Stores.axis_of("snapshots_in_flight"), Some(true));
}

#[test]
fn every_gallery_tour_metric_on_the_charts_tab_has_a_chart() {
    use faultline_scenario::GuideTab;
    for entry in faultline_scenario::gallery() {
        for (i, step) in entry.scenario.guide.iter().enumerate() {
            let on_charts = matches!(step.tab, None | Some(GuideTab::Charts));
            let Some(metric) = step.metric.as_deref().filter(|_| on_charts) else {
                continue;
            };
            assert!(
                ChartKind::ALL.iter().any(|k| k.shows(metric)),
                "{} guide step {}: no chart draws {metric}",
                entry.file,
                i + 1
            );
        }
    }
}

/// The Writes chart draws rates against the left axis and the cumulative failure counts
/// against the right one, so a few hundred timeouts do not flatten 50 commits a second.
#[test]
fn the_writes_chart_puts_rates_left_and_failure_counts_right() {
    let w = ChartKind::Writes;
    for rate in [
        "txns_committed_per_sec",
        "writes_proposed_per_sec",
        "writes_applied_per_sec",
    ] {
        assert_eq!(w.axis_of(rate), Some(false), "{rate}");
    }
    assert_eq!(w.axis_of("failed_writes.timeout"), Some(true));
    assert_eq!(w.axis_of("failed_writes.no_leader"), Some(true));
    assert_eq!(
        w.axis_of("writes_proposed"),
        None,
        "a cumulative count is not a rate"
    );
    assert_eq!(ChartKind::from_id("writes"), Some(w));
    assert_eq!(w.y2_label(), "failed requests (total)");
    assert_eq!(ChartKind::Leaderless.y2_label(), "hibernated peers");
}

/// The writes chart names its right axis (failed requests) only in a run that has one: the
/// transactional clients of a changefeed scenario count failed requests, the raw write load of
/// a TiKV-only one does not.
#[test]
fn a_title_names_the_right_axis_only_when_the_chart_draws_it() {
    use crate::test_support::{chart_at, TIFLOW_9595, TIKV_14547};
    let quiet = chart_at(ChartKind::Writes, TIKV_14547, 90);
    assert_eq!(quiet.y2_label, None, "no failed-request series");
    assert_eq!(quiet.title, "Writes per second");
    let failing = chart_at(ChartKind::Writes, TIFLOW_9595, 90);
    assert!(failing.y2_label.is_some(), "failed requests on the right");
    assert_eq!(
        failing.title,
        "Writes per second, and failed client requests so far (right)"
    );
}
