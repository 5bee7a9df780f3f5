//! One colour per node, so `tikv-2` is the same colour in every chart (and in the topology,
//! which uses the same slot): the palette slot of a node and of a per-node metric.

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
