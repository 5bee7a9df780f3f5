//! The nodes a process or network fault acts on, resolved against the world's network, and
//! the kernel faults over them.

use faultline_sim::{Fault, LinkChange, NodeId};

/// A step's target nodes and, for link faults, the other side.
pub struct LinkTargets {
    /// The nodes the target names.
    pub targets: Vec<NodeId>,
    /// `peers`, or every node but the targets.
    pub peers: Vec<NodeId>,
    /// Not `one_way`.
    pub both_ways: bool,
}

impl LinkTargets {
    /// One fault per target node.
    pub fn per_node(&self, f: fn(NodeId) -> Fault) -> Vec<Fault> {
        self.targets.iter().map(|n| f(*n)).collect()
    }

    /// The links between the targets and the peers change.
    pub fn links(&self, change: LinkChange) -> Fault {
        Fault::Links {
            from: self.targets.clone(),
            to: self.peers.clone(),
            both_ways: self.both_ways,
            change,
        }
    }
}
