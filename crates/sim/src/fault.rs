//! Faults the kernel applies to nodes and links. Model-level actions (transfer a leader, pause a
//! changefeed) are model timers, not kernel faults.

use crate::network::NodeId;
use crate::time::SimDuration;
use crate::trace::{TraceEncode, TraceHasher};

/// What happens to a set of links.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkChange {
    /// Partition: nothing crosses.
    Cut,
    /// Back to healthy (undoes cut, loss and delay).
    Restore,
    /// Drop this many packets per million.
    LossPpm(u32),
    /// Add this much one-way delay.
    Delay(SimDuration),
}

/// A fault or its repair, applied at one instant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Kill the process (pod-kill): volatile state is lost.
    Crash(NodeId),
    /// Start a crashed process again.
    Restart(NodeId),
    /// Stall the process (pod-failure / SIGSTOP) without losing state.
    Pause(NodeId),
    /// Let a paused process run again.
    Resume(NodeId),
    /// Change every link from a node in `from` to a node in `to` (and back, if `both_ways`).
    Links {
        /// Sending side.
        from: Vec<NodeId>,
        /// Receiving side.
        to: Vec<NodeId>,
        /// Also change the reverse direction.
        both_ways: bool,
        /// The change.
        change: LinkChange,
    },
}

impl Fault {
    /// A short verb for logs.
    pub fn verb(&self) -> &'static str {
        match self {
            Fault::Crash(_) => "kill",
            Fault::Restart(_) => "restart",
            Fault::Pause(_) => "pause",
            Fault::Resume(_) => "resume",
            Fault::Links { change, .. } => match change {
                LinkChange::Cut => "partition",
                LinkChange::Restore => "heal",
                LinkChange::LossPpm(_) => "loss",
                LinkChange::Delay(_) => "delay",
            },
        }
    }
}

impl TraceEncode for Fault {
    fn encode(&self, h: &mut TraceHasher) {
        match self {
            Fault::Crash(n) => (1, n.0).encode_pair(h),
            Fault::Restart(n) => (2, n.0).encode_pair(h),
            Fault::Pause(n) => (3, n.0).encode_pair(h),
            Fault::Resume(n) => (4, n.0).encode_pair(h),
            Fault::Links {
                from,
                to,
                both_ways,
                change,
            } => {
                h.word(5);
                h.word(from.len() as u64);
                from.iter().for_each(|n| h.word(n.0 as u64));
                h.word(to.len() as u64);
                to.iter().for_each(|n| h.word(n.0 as u64));
                h.word(*both_ways as u64);
                match change {
                    LinkChange::Cut => h.word(0),
                    LinkChange::Restore => h.word(1),
                    LinkChange::LossPpm(p) => {
                        h.word(2);
                        h.word(*p as u64)
                    }
                    LinkChange::Delay(d) => {
                        h.word(3);
                        h.word(d.0)
                    }
                }
            }
        }
    }
}

trait EncodePair {
    fn encode_pair(self, h: &mut TraceHasher);
}

impl EncodePair for (u64, u32) {
    fn encode_pair(self, h: &mut TraceHasher) {
        h.word(self.0);
        h.word(self.1 as u64);
    }
}
