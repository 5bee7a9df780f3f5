//! What a component may do and ask, without a kernel: it writes commands (`send`,
//! `send_ordered`, `set_timer`, `log`) to an [`Out`], and asks about the network through one
//! named query, [`Reach`]; a handler gets both, with the time of its event, in one context,
//! [`Cx`]. Only the top of the model (`model.rs`) hands the commands to the kernel, in the
//! order they were written, so a component's unit test can assert on exactly what it did
//! after one input.
//!
//! The shape follows stateright's actor `Out` and raft-rs's `msgs` outbox; `Cx` is the same
//! type as crates/tikv's, with TiCDC's commands.

pub use faultline_sim::Reach;
use faultline_sim::{Level, NodeId, SimDuration, SimTime};

use crate::msg::{CdcMsg, CdcTimer};

/// One command written by a component.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// A message over the network (it may be lost or delayed by the link).
    Send {
        /// Sender.
        from: NodeId,
        /// Receiver.
        to: NodeId,
        /// Payload.
        msg: CdcMsg,
    },
    /// A client's write request to a store, which proposes it to `region`'s Raft group there
    /// (TiKV's `Msg::Propose`), over the network.
    Propose {
        /// Sender (the workload's client).
        from: NodeId,
        /// Receiver (a store).
        to: NodeId,
        /// Target region.
        region: u32,
        /// The client's operation id, answered when the entry is applied.
        op: u64,
        /// The region's epoch version the client grouped the request's keys with.
        version: u64,
    },
    /// A message over an ordered connection (a gRPC stream over TCP).
    SendOrdered {
        /// Sender.
        from: NodeId,
        /// Receiver.
        to: NodeId,
        /// Payload.
        msg: CdcMsg,
    },
    /// A timer of `node`, `after` from now.
    SetTimer {
        /// Owner of the timer.
        node: NodeId,
        /// Delay.
        after: SimDuration,
        /// Payload.
        timer: CdcTimer,
    },
    /// A log line in the system's own wording.
    Log {
        /// The node that logs it (`None` for the model itself).
        node: Option<NodeId>,
        /// Severity.
        level: Level,
        /// The fixed message, as the real log prints it.
        message: &'static str,
        /// Its fields.
        detail: String,
    },
}

/// The commands a component wrote, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Out {
    commands: Vec<Command>,
}

impl Out {
    /// Sends `msg` from `from` to `to`.
    pub fn send(&mut self, from: NodeId, to: NodeId, msg: CdcMsg) {
        self.commands.push(Command::Send { from, to, msg });
    }

    /// Sends client `from`'s write request `op` for `region` to store node `to`.
    pub fn propose(&mut self, from: NodeId, to: NodeId, (region, version): (u32, u64), op: u64) {
        self.commands.push(Command::Propose {
            from,
            to,
            region,
            op,
            version,
        });
    }

    /// Sends `msg` over the ordered connection from `from` to `to`.
    pub fn send_ordered(&mut self, from: NodeId, to: NodeId, msg: CdcMsg) {
        self.commands.push(Command::SendOrdered { from, to, msg });
    }

    /// Arms `timer` for `node` after `after`.
    pub fn set_timer(&mut self, node: NodeId, after: SimDuration, timer: CdcTimer) {
        self.commands.push(Command::SetTimer { node, after, timer });
    }

    /// Writes a log line.
    pub fn log(
        &mut self,
        node: Option<NodeId>,
        level: Level,
        message: &'static str,
        detail: String,
    ) {
        self.commands.push(Command::Log {
            node,
            level,
            message,
            detail,
        });
    }

    /// The commands so far, in the order written.
    pub fn commands(&self) -> &[Command] {
        &self.commands
    }

    /// Takes the commands, leaving the outbox empty.
    pub fn take(&mut self) -> Vec<Command> {
        std::mem::take(&mut self.commands)
    }

    /// The log messages written so far (for tests and summaries).
    pub fn logged(&self) -> Vec<&'static str> {
        self.commands
            .iter()
            .filter_map(|c| match c {
                Command::Log { message, .. } => Some(*message),
                _ => None,
            })
            .collect()
    }
}

/// A handler's context: the time of the event it handles, what it may ask of the network, and
/// where it writes what it does. One named type instead of `(now, reach)`, `(now, out)` and
/// `(reach, out)` tuples.
pub struct Cx<'a> {
    /// The simulated time of the event.
    pub now: SimTime,
    /// Which processes run and which links get through.
    pub reach: Reach<'a>,
    /// The commands written so far.
    pub out: Out,
}

impl<'a> Cx<'a> {
    /// A context at `now` over `reach`, with an empty outbox.
    pub fn new(now: SimTime, reach: Reach<'a>) -> Self {
        Cx {
            now,
            reach,
            out: Out::default(),
        }
    }
}
