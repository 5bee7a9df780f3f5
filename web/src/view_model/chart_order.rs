//! Which chart goes where on the Charts tab: the scenario's key metrics first at full width
//! (`[view] key_metrics`), and the chart a guide step names highlighted.

use std::rc::Rc;

use faultline_charts::ordered_charts;

use super::chart_data::ChartData;

/// A chart in its place on the page.
#[derive(Clone, Debug, PartialEq)]
pub struct PlacedChartVm {
    /// Its data.
    pub data: Rc<ChartData>,
    /// It shows one of the scenario's key metrics: drawn first and at full width.
    pub key: bool,
    /// It draws the metric the current guide step names.
    pub highlighted: bool,
}

/// `charts` (in page order) reordered for `key_metrics`, with the chart drawing `highlight`
/// marked.
pub fn place_charts(
    charts: &[Rc<ChartData>],
    key_metrics: &[String],
    highlight: Option<&str>,
) -> Vec<PlacedChartVm> {
    let kinds: Vec<_> = charts.iter().map(|c| c.kind).collect();
    ordered_charts(&kinds, key_metrics)
        .into_iter()
        .filter_map(|p| {
            let data = charts.iter().find(|c| c.kind == p.kind)?.clone();
            let highlighted = highlight.is_some_and(|m| p.kind.shows(m));
            Some(PlacedChartVm {
                data,
                key: p.key,
                highlighted,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view_model::chart_data::{chart_data, ChartKind, LabelledRun};
    use crate::view_model::tests::run_at;

    /// Every chart with data in `run`, in page order, as the engine sends them.
    fn charts_of(run: &faultline_scenario::Run) -> Vec<Rc<ChartData>> {
        let runs = [LabelledRun { label: "run", run }];
        crate::view_model::available_charts(run)
            .into_iter()
            .map(|k| Rc::new(chart_data(k, &runs, None)))
            .collect()
    }

    #[test]
    fn key_metrics_come_first_and_the_guided_chart_is_highlighted() {
        let run = run_at("tiflow-4241-kafka-sink-close-blocks-owner.toml", 120);
        let charts = charts_of(&run);
        assert_ne!(
            charts[0].kind,
            ChartKind::OwnerTick,
            "page order starts elsewhere"
        );
        let placed = place_charts(
            &charts,
            &run.scenario.view.key_metrics,
            Some("checkpoint_lag.mysql-cf"),
        );
        assert_eq!(placed.len(), charts.len());
        assert_eq!(placed[0].data.kind, ChartKind::OwnerTick);
        assert!(placed[0].key);
        assert_eq!(placed[1].data.kind, ChartKind::CdcLag);
        let lit: Vec<ChartKind> = placed
            .iter()
            .filter(|p| p.highlighted)
            .map(|p| p.data.kind)
            .collect();
        assert_eq!(lit, vec![ChartKind::CdcLag]);
        assert!(placed.iter().skip(2).all(|p| !p.key));
    }

    #[test]
    fn without_key_metrics_or_a_step_nothing_moves_or_lights_up() {
        let run = run_at("raft-basics-kill-a-store.toml", 60);
        let charts = charts_of(&run);
        let placed = place_charts(&charts, &[], None);
        let kinds: Vec<ChartKind> = placed.iter().map(|p| p.data.kind).collect();
        let before: Vec<ChartKind> = charts.iter().map(|c| c.kind).collect();
        assert_eq!(kinds, before);
        assert!(placed.iter().all(|p| !p.key && !p.highlighted));
    }
}
