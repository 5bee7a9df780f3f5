//! The nodes a scenario implies, and where the topology editor draws them. Positions are
//! UI-only state (autosaved, never part of the scenario or the link).

use std::collections::BTreeMap;

/// Kinds of node the editor draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// The placement driver.
    Pd,
    /// A TiKV store.
    Tikv,
    /// A TiCDC capture.
    Cdc,
    /// The downstream MySQL.
    Mysql,
    /// A Kafka broker.
    Kafka,
    /// The workload's client (TiDB's role), `client-1`.
    Client,
}

impl NodeKind {
    /// Short label for the palette and the node.
    pub fn label(self) -> &'static str {
        match self {
            NodeKind::Pd => "PD",
            NodeKind::Tikv => "TiKV",
            NodeKind::Cdc => "TiCDC",
            NodeKind::Mysql => "MySQL",
            NodeKind::Kafka => "Kafka",
            NodeKind::Client => "Client",
        }
    }
}

/// A node of the scenario, by the name the model gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopoNode {
    /// `pd-1`, `tikv-3`, `cdc-1`, `mysql-1`.
    pub name: String,
    /// What it is.
    pub kind: NodeKind,
}

/// The nodes of a built world (`(name, kind)` as the network lists them), in its order.
/// Reading the world rather than the scenario keeps the editor in step with whatever nodes
/// the model adds.
pub fn nodes<'a>(net: impl IntoIterator<Item = (&'a str, &'a str)>) -> Vec<TopoNode> {
    net.into_iter()
        .map(|(name, kind)| TopoNode {
            name: name.to_string(),
            kind: match kind {
                "pd" => NodeKind::Pd,
                "cdc" => NodeKind::Cdc,
                "mysql" => NodeKind::Mysql,
                "kafka" => NodeKind::Kafka,
                "client" => NodeKind::Client,
                _ => NodeKind::Tikv,
            },
        })
        .collect()
}

/// Canvas size of the editor, in SVG units.
pub const WIDTH: f64 = 640.0;
/// Canvas height.
pub const HEIGHT: f64 = 260.0;

/// Where a node is drawn: the user's placement, else a row per kind.
pub fn position(name: &str, kind: NodeKind, placed: &BTreeMap<String, (f64, f64)>) -> (f64, f64) {
    if let Some(p) = placed.get(name) {
        return *p;
    }
    let index: f64 = name
        .rsplit('-')
        .next()
        .and_then(|n| n.parse::<f64>().ok())
        .unwrap_or(1.0);
    match kind {
        NodeKind::Pd => (WIDTH / 2.0, 36.0),
        NodeKind::Tikv => (60.0 + (index - 1.0) * 95.0 % (WIDTH - 80.0), 120.0),
        NodeKind::Cdc => (90.0 + (index - 1.0) * 120.0, 210.0),
        NodeKind::Mysql => (WIDTH - 80.0, 210.0),
        NodeKind::Kafka => (WIDTH - 80.0 - (index - 1.0) * 90.0, 150.0),
        NodeKind::Client => (80.0, 36.0),
    }
}

/// Positions as autosave text: `name:x,y;name:x,y`.
pub fn positions_to_text(p: &BTreeMap<String, (f64, f64)>) -> String {
    p.iter()
        .map(|(n, (x, y))| format!("{n}:{x:.0},{y:.0}"))
        .collect::<Vec<_>>()
        .join(";")
}

/// Reads autosaved positions; anything unreadable is skipped.
pub fn positions_from_text(text: &str) -> BTreeMap<String, (f64, f64)> {
    text.split(';')
        .filter_map(|item| {
            let (name, xy) = item.split_once(':')?;
            let (x, y) = xy.split_once(',')?;
            Some((name.to_string(), (x.parse().ok()?, y.parse().ok()?)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn node_list_and_positions() {
        // A TiKV-only gallery scenario: PD and the stores, no TiCDC nodes.
        let s = faultline_scenario::gallery()
            .into_iter()
            .find(|e| e.file == "tikv-14547-leaders-lost-after-store-failure.toml")
            .expect("in the gallery")
            .scenario;
        let run = faultline_scenario::Run::new(&s).unwrap();
        let net = run.world.kernel.net.nodes();
        let n = nodes(net.iter().map(|n| (n.name.as_str(), n.kind.as_str())));
        assert_eq!(n[0].name, "pd-1");
        assert_eq!(n[0].kind, NodeKind::Pd);
        assert_eq!(n.len(), 1 + s.topology.stores as usize);
        let mut p = BTreeMap::new();
        p.insert("tikv-1".to_string(), (10.0, 20.0));
        assert_eq!(positions_from_text(&positions_to_text(&p)), p);
        assert_eq!(position("tikv-1", NodeKind::Tikv, &p), (10.0, 20.0));
    }
}
