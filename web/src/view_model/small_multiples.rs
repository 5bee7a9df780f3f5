//! Compare mode's charts as small multiples: one plot per run on the same axes, so the buggy
//! and the fixed run are two plots side by side rather than a solid and a dashed line a few
//! pixels apart in one.

use super::chart_data::{ChartData, Series};

/// The runs a chart overlays (compare mode gives two).
pub fn run_count(data: &ChartData) -> usize {
    data.series.iter().map(|s| s.run + 1).max().unwrap_or(0)
}

/// The run label a compare-mode series carries (`"buggy: leaderless_regions"`), or `run`.
fn run_label(series: &[&Series]) -> String {
    series
        .iter()
        .find_map(|s| s.label.strip_suffix(&s.metric)?.strip_suffix(": "))
        .unwrap_or("run")
        .to_string()
}

/// One chart per run of `data`, each titled with its run's label (`buggy`, `fixed`), its
/// series drawn solid and named by metric only, and every axis as high as the highest run's
/// so the plots compare at a glance. A chart of one run comes back as it is.
pub fn per_run(data: &ChartData) -> Vec<(String, ChartData)> {
    let runs = run_count(data);
    if runs <= 1 {
        return vec![("run".to_string(), data.clone())];
    }
    // The extents over both runs' samples, so a brief spike in either does not set the scale.
    let shared = faultline_charts::data_extents(data);
    (0..runs)
        .map(|run| {
            let own: Vec<&Series> = data.series.iter().filter(|s| s.run == run).collect();
            let label = run_label(&own);
            let series = own
                .into_iter()
                .map(|s| Series {
                    label: s.metric.clone(),
                    run: 0,
                    ..s.clone()
                })
                .collect();
            let chart = ChartData {
                title: format!("{} ({label})", data.title),
                series,
                shared_max: Some(shared),
                ..data.clone()
            };
            (label, chart)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view_model::chart_data::{chart_data, ChartKind, LabelledRun};
    use crate::view_model::tests::run_at;

    #[test]
    fn compare_charts_split_into_one_plot_per_run_on_shared_axes() {
        // Two runs of two minutes: regions without quorum stay leaderless in the first, and
        // the second (one store of three dies, then returns) has every region led again.
        let stuck = run_at("raft-quorum-lost-two-stores.toml", 120);
        let healed = run_at("raft-basics-kill-a-store.toml", 120);
        let runs = [
            LabelledRun {
                label: "stuck",
                run: &stuck,
            },
            LabelledRun {
                label: "healed",
                run: &healed,
            },
        ];
        let data = chart_data(ChartKind::Leaderless, &runs, None);
        assert_eq!(run_count(&data), 2);
        let parts = per_run(&data);
        let labels: Vec<&str> = parts.iter().map(|(l, _)| l.as_str()).collect();
        assert_eq!(labels, ["stuck", "healed"]);
        let (_, b) = &parts[0];
        let (_, f) = &parts[1];
        assert!(b.title.ends_with("(stuck)"), "{}", b.title);
        // Each plot holds only its own run's lines, drawn solid and named by metric.
        assert!(b.series.iter().all(|s| s.run == 0 && s.label == s.metric));
        let last = |c: &ChartData| c.series[0].points.last().map(|p| p.1);
        assert!(last(b) > Some(0.0), "stuck: regions still leaderless");
        assert_eq!(last(f), Some(0.0), "healed: every region led");
        // Both share the axes, set by both runs' samples together: the first run's stuck
        // regions, more than the second's brief spike.
        assert_eq!(b.shared_max, f.shared_max);
        assert_eq!(b.shared_max, Some(faultline_charts::data_extents(&data)));
        assert_eq!(b.x_max_secs, f.x_max_secs);
        let stuck = last(b).unwrap_or(0.0);
        assert_eq!(b.shared_max.map(|m| m.0), Some(stuck));
    }

    #[test]
    fn a_single_run_chart_stays_whole() {
        let run = run_at("raft-basics-kill-a-store.toml", 30);
        let data = chart_data(
            ChartKind::Leaderless,
            &[LabelledRun {
                label: "run",
                run: &run,
            }],
            None,
        );
        let parts = per_run(&data);
        assert_eq!(parts.len(), 1);
        assert_eq!(parts[0].1, data);
    }
}
