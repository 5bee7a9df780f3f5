//! What the user has picked on the page: a fault chip on the timeline, a node of the topology
//! (and the node whose menu is open), and where the topology editor's nodes were dragged to.
//! Page state only: none of it is part of the scenario or its link.

use std::collections::BTreeMap;

/// The page's selection.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    /// The fault selected on the timeline (an index into the scenario's faults).
    pub fault: Option<usize>,
    /// The selected node, by name.
    pub node: Option<String>,
    /// The node whose context menu is open.
    pub menu: Option<String>,
    /// Topology editor positions by node name (saved in the browser, not in the link).
    pub positions: BTreeMap<String, (f64, f64)>,
}

impl Selection {
    /// Node `name` left the topology: it is no longer selected, its menu closes and its
    /// position is forgotten.
    pub fn forget_node(&mut self, name: &str) {
        self.positions.remove(name);
        self.node = None;
        self.menu = None;
    }
}
