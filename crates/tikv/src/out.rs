//! What a TiKV or PD handler may do and ask, without a kernel: it writes commands (`send`,
//! `set_timer`, `log`) to an [`Out`] and asks about the network through [`Reach`], both carried
//! in one handler context, [`Cx`], with the time of the event. Only the wiring
//! (`host.rs` `routed`, called from `cluster.rs`'s entry points) hands the commands to the
//! kernel, in the order they were written, so the kernel sees exactly what it saw when
//! handlers called it directly, and a handler's test can read what it did.
//!
//! The same shape as crates/cdc's `out.rs` (after stateright's actor `Out` and raft-rs's
//! `msgs` outbox), with TiKV's own message and timer types.

use faultline_sim::{Level, NodeId, Reach, SimDuration, SimTime};

use crate::msg::{Msg, Timer};

/// One command written by a handler.
#[derive(Clone, Debug)]
pub enum Command {
    /// A message over the network (it may be lost or delayed by the link).
    Send {
        /// Sender.
        from: NodeId,
        /// Receiver.
        to: NodeId,
        /// Payload.
        msg: Msg,
    },
    /// A timer of `node`, `after` from now.
    SetTimer {
        /// Owner of the timer.
        node: NodeId,
        /// Delay.
        after: SimDuration,
        /// Payload.
        timer: Timer,
    },
    /// A log line in TiKV's or PD's own wording.
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

/// The commands handlers wrote, in order.
#[derive(Clone, Debug, Default)]
pub struct Out {
    commands: Vec<Command>,
}

impl Out {
    /// Sends `msg` from `from` to `to`.
    pub fn send(&mut self, from: NodeId, to: NodeId, msg: Msg) {
        self.commands.push(Command::Send { from, to, msg });
    }

    /// Arms `timer` for `node` after `after`.
    pub fn set_timer(&mut self, node: NodeId, after: SimDuration, timer: Timer) {
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
}

/// A handler's context: the time of the event it handles, what it may ask of the network, and
/// where it writes what it does. One named type instead of `(now, reach, out)` tuples.
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
