//! Symptom first: the charts of a scenario's `[view] key_metrics` come before the rest, in the
//! order the scenario names them, and are drawn at full width.

use crate::chart_data::ChartKind;

/// A chart in page order and whether it shows one of the scenario's key metrics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlacedChart {
    /// Which chart.
    pub kind: ChartKind,
    /// It shows a key metric: drawn first and at full width.
    pub key: bool,
}

/// `available` (in page order) with the charts showing a key metric first, ordered by the
/// first key metric each shows; the others keep their page order.
pub fn ordered_charts(available: &[ChartKind], key_metrics: &[String]) -> Vec<PlacedChart> {
    let rank = |k: ChartKind| key_metrics.iter().position(|m| k.shows(m));
    let mut keyed: Vec<(usize, ChartKind)> = available
        .iter()
        .filter_map(|&k| rank(k).map(|r| (r, k)))
        .collect();
    // A stable sort keeps page order among charts showing the same key metric.
    keyed.sort_by_key(|(r, _)| *r);
    let rest = available.iter().filter(|&&k| rank(k).is_none());
    keyed
        .into_iter()
        .map(|(_, kind)| PlacedChart { kind, key: true })
        .chain(rest.map(|&kind| PlacedChart { kind, key: false }))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(k: &[&str]) -> Vec<String> {
        k.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn key_metric_charts_come_first_in_the_scenarios_order() {
        let got = ordered_charts(
            &ChartKind::ALL,
            &keys(&["owner_tick_secs", "checkpoint_lag.mysql-cf"]),
        );
        assert_eq!(
            got[0],
            PlacedChart {
                kind: ChartKind::OwnerTick,
                key: true
            }
        );
        assert_eq!(
            got[1],
            PlacedChart {
                kind: ChartKind::CdcLag,
                key: true
            }
        );
        assert!(got[2..].iter().all(|c| !c.key));
        assert_eq!(
            got[2].kind,
            ChartKind::Leaderless,
            "the rest keep page order"
        );
        assert_eq!(got.len(), ChartKind::ALL.len());
    }

    #[test]
    fn without_key_metrics_the_page_order_stays() {
        let got = ordered_charts(&ChartKind::ALL, &[]);
        let kinds: Vec<ChartKind> = got.iter().map(|c| c.kind).collect();
        assert_eq!(kinds, ChartKind::ALL.to_vec());
    }
}
