//! A chart of metrics picked by name, for `faultline chart --metric`: any series of the run,
//! drawn by the same [`draw_chart`](crate::draw_chart) as the page's charts.

use faultline_scenario::Run;

use crate::chart_data::{points, ChartData, ChartKind, Series};

/// The chart of `names` over `run`, one series per name in the order given. Errors name the
/// first metric the run does not have, and list the ones it has.
pub fn metric_chart(run: &Run, names: &[String]) -> Result<ChartData, String> {
    let metrics = &run.world.kernel.metrics;
    let mut series = Vec::with_capacity(names.len());
    for (colour, name) in names.iter().enumerate() {
        if metrics.index(name).is_none() {
            return Err(format!(
                "no metric named `{name}`; this scenario has {}",
                metrics.names().join(", ")
            ));
        }
        series.push(Series {
            label: name.clone(),
            metric: name.clone(),
            run: 0,
            colour,
            secondary: false,
            points: points(metrics, name),
        });
    }
    Ok(ChartData {
        kind: ChartKind::Metrics,
        title: names.join(", "),
        y_label: ChartKind::Metrics.y_label().to_string(),
        y2_label: None,
        x_max_secs: run.end().as_secs_f64().max(1.0),
        series,
        alerts: Vec::new(),
        cursor_secs: None,
        faults: crate::chart_data::fault_marks(run),
        shared_max: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::render_svg;
    use crate::test_support::{run_at, TIKV_14547};

    #[test]
    fn draws_the_named_metrics_and_refuses_unknown_ones() {
        let run = run_at(TIKV_14547, 60);
        let names = ["leaderless_regions".to_string(), "hibernated_peers".into()];
        let data = metric_chart(&run, &names).expect("both metrics exist");
        assert_eq!(data.series.len(), 2);
        assert!(data.series.iter().all(|s| !s.points.is_empty()));
        let svg = render_svg(&data, 500, 300).expect("renders");
        assert!(svg.contains("leaderless_regions") && svg.contains("hibernated_peers"));
        let err = metric_chart(&run, &["no_such_metric".into()]).unwrap_err();
        assert!(
            err.contains("`no_such_metric`") && err.contains("leaderless_regions"),
            "{err}"
        );
    }
}
