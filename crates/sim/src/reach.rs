//! What a model's component may ask of the network without a kernel: which processes run and
//! which links get through. crates/tikv and crates/cdc hand it to their handlers beside an
//! outbox, so a handler can be unit-tested without building a world.

use crate::network::{Network, NodeId, NodeState};

/// The network as a component may see it: which processes run and which connections get
/// through. Nothing else of the kernel (time, queues, randomness) is reachable from here.
#[derive(Clone, Copy)]
pub struct Reach<'a> {
    net: &'a Network,
}

impl<'a> Reach<'a> {
    /// A view of `net`.
    pub fn new(net: &'a Network) -> Self {
        Reach { net }
    }

    /// True when `node`'s process runs (neither killed nor paused).
    pub fn is_up(&self, node: NodeId) -> bool {
        self.net.node(node).state == NodeState::Up
    }

    /// True when `node`'s process was killed and has not restarted.
    pub fn is_crashed(&self, node: NodeId) -> bool {
        self.net.node(node).state == NodeState::Crashed
    }

    /// True when `from` can send to `to` now: neither is killed and the link is not cut (the
    /// same rule as `Kernel::reachable`).
    pub fn reachable(&self, from: NodeId, to: NodeId) -> bool {
        !self.is_crashed(from) && !self.is_crashed(to) && self.link_up(from, to)
    }

    /// True when the `from -> to` link is not cut (it may still lose packets).
    pub fn link_up(&self, from: NodeId, to: NodeId) -> bool {
        self.net.link(from, to).up
    }

    /// True when the `from -> to` link is neither cut nor losing packets: what a TCP stream
    /// needs to deliver a batch without a retransmission stall.
    pub fn link_clean(&self, from: NodeId, to: NodeId) -> bool {
        let link = self.net.link(from, to);
        link.up && link.loss_ppm == 0
    }

    /// How many times `node` has been restarted (its connections' epoch).
    pub fn incarnation(&self, node: NodeId) -> u32 {
        self.net.node(node).incarnation
    }
}
