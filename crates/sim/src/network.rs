//! Named nodes, their process state, and per-direction link state.
//!
//! Links are directional so a partition can be one-way (A cannot reach B while B still reaches
//! A). Only links that differ from the default are stored, in a `BTreeMap` keyed by
//! `(from, to)`, so iteration order is fixed.

use std::collections::BTreeMap;

use crate::time::SimDuration;

/// Index of a node in the [`Network`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(pub u32);

/// Whether a node's process runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeState {
    /// Running normally.
    Up,
    /// Killed: loses volatile state; messages and timers addressed to it are dropped.
    Crashed,
    /// Stalled (SIGSTOP, a long GC): keeps state; its messages and timers wait until it resumes.
    Paused,
}

impl NodeState {
    /// Lower-case name for logs and the UI.
    pub fn name(self) -> &'static str {
        match self {
            NodeState::Up => "up",
            NodeState::Crashed => "crashed",
            NodeState::Paused => "paused",
        }
    }
}

/// One direction of a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinkState {
    /// False while partitioned.
    pub up: bool,
    /// Packets lost, in parts per million.
    pub loss_ppm: u32,
    /// Extra one-way delay added to the base delay.
    pub extra_delay: SimDuration,
}

impl LinkState {
    /// A healthy link.
    pub const HEALTHY: LinkState = LinkState {
        up: true,
        loss_ppm: 0,
        extra_delay: SimDuration::ZERO,
    };
}

/// A node's name, kind and state.
#[derive(Clone, Debug)]
pub struct NodeInfo {
    /// Unique name such as `tikv-1`.
    pub name: String,
    /// What the node is (`tikv`, `pd`, `cdc`, ...), for the UI.
    pub kind: String,
    /// Process state.
    pub state: NodeState,
    /// Bumped on every restart so timers armed by an earlier life are ignored.
    pub incarnation: u32,
}

/// All nodes and the links between them.
#[derive(Clone, Debug)]
pub struct Network {
    nodes: Vec<NodeInfo>,
    links: BTreeMap<(NodeId, NodeId), LinkState>,
    /// Base one-way delay range `[min, max)` for every message.
    pub base_delay: (SimDuration, SimDuration),
}

impl Network {
    /// An empty network with the given base delay range.
    pub fn new(base_delay: (SimDuration, SimDuration)) -> Self {
        Network {
            nodes: Vec::new(),
            links: BTreeMap::new(),
            base_delay,
        }
    }

    /// Adds a node and returns its id.
    pub fn add_node(&mut self, name: &str, kind: &str) -> NodeId {
        let id = NodeId(self.nodes.len() as u32);
        self.nodes.push(NodeInfo {
            name: name.to_string(),
            kind: kind.to_string(),
            state: NodeState::Up,
            incarnation: 0,
        });
        id
    }

    /// All nodes, indexed by `NodeId`.
    pub fn nodes(&self) -> &[NodeInfo] {
        &self.nodes
    }

    /// One node.
    pub fn node(&self, id: NodeId) -> &NodeInfo {
        &self.nodes[id.0 as usize]
    }

    /// Mutable access to one node (the kernel uses it for state changes).
    pub fn node_mut(&mut self, id: NodeId) -> &mut NodeInfo {
        &mut self.nodes[id.0 as usize]
    }

    /// Looks a node up by name.
    pub fn find(&self, name: &str) -> Option<NodeId> {
        self.nodes
            .iter()
            .position(|n| n.name == name)
            .map(|i| NodeId(i as u32))
    }

    /// State of the link from `from` to `to`.
    pub fn link(&self, from: NodeId, to: NodeId) -> LinkState {
        self.links
            .get(&(from, to))
            .copied()
            .unwrap_or(LinkState::HEALTHY)
    }

    /// Changes one direction of a link; a link back to healthy is forgotten.
    pub fn update_link(&mut self, from: NodeId, to: NodeId, f: impl FnOnce(&mut LinkState)) {
        let mut l = self.link(from, to);
        f(&mut l);
        if l == LinkState::HEALTHY {
            self.links.remove(&(from, to));
        } else {
            self.links.insert((from, to), l);
        }
    }

    /// Links that are not healthy, in a fixed order.
    pub fn degraded_links(&self) -> impl Iterator<Item = (&(NodeId, NodeId), &LinkState)> {
        self.links.iter()
    }

    /// Restores every link to healthy.
    pub fn heal_all(&mut self) {
        self.links.clear();
    }
}
