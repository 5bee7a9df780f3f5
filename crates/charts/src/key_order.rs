//! Symptom first: the charts of a scenario's `[view] key_metrics` come before the rest, in the
//! order the scenario names them, and are drawn at full width; and one colour per node, so
//! `tikv-2` is the same colour in every chart (and in the topology, which uses the same slot).

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

/// The palette slot of a node (`tikv-3`, `cdc-1`, `pd-1`, `kafka-1`, `mysql-1`): stores take
/// the first slots, captures the next, so the nodes of one kind never share a colour in a
/// cluster of up to four stores and three captures.
pub fn node_colour_slot(node: &str) -> Option<usize> {
    let (kind, n) = node.rsplit_once('-')?;
    let n: usize = n.parse().ok().filter(|n| *n >= 1)?;
    match kind {
        "tikv" => Some(n - 1),
        "cdc" => Some(3 + n),
        "pd" => Some(6),
        "kafka" | "mysql" => Some(7),
        _ => None,
    }
}

/// The palette slot of a per-node metric (its node's), or `None` for any other metric.
pub fn metric_colour_slot(metric: &str) -> Option<usize> {
    metric_node(metric).and_then(node_colour_slot)
}

/// The node a per-node metric is about (`leaders.tikv-2`, `lease_remaining.cdc-3`,
/// `processor_state.cf-1.cdc-1`): its last dotted segment, when that names a node.
pub fn metric_node(metric: &str) -> Option<&str> {
    let last = metric.rsplit('.').next()?;
    node_colour_slot(last).map(|_| last)
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

    #[test]
    fn a_node_has_one_slot_whatever_the_metric() {
        assert_eq!(metric_node("leaders.tikv-2"), Some("tikv-2"));
        assert_eq!(metric_node("processor_state.cf-1.cdc-3"), Some("cdc-3"));
        assert_eq!(metric_node("checkpoint_lag.cf-1"), None);
        assert_eq!(node_colour_slot("tikv-2"), Some(1));
        assert_ne!(node_colour_slot("tikv-1"), node_colour_slot("cdc-1"));
        assert_eq!(node_colour_slot("tikv-0"), None);
    }
}
