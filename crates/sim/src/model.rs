//! The contract between the kernel and a simulated system.
//!
//! Models are sans-I/O: they react to a delivered message, a timer or a node state change by
//! mutating their own state and asking the [`Kernel`] to send messages or arm timers. Only the
//! kernel moves time and messages.

use crate::kernel::Kernel;
use crate::network::{NodeId, NodeState};
use crate::time::SimTime;
use crate::trace::TraceEncode;

/// A simulated system driven by the kernel.
pub trait Model: Clone + Sized {
    /// A message between nodes (a batch, if the system batches per connection).
    type Msg: Clone + TraceEncode;
    /// A timer payload.
    type Timer: Clone + TraceEncode;

    /// Called once when the world is built: arm the first timers.
    fn init(&mut self, k: &mut Kernel<Self>);

    /// A message from `from` reached `to`.
    fn on_message(&mut self, k: &mut Kernel<Self>, from: NodeId, to: NodeId, msg: Self::Msg);

    /// A timer armed by `node` fired.
    fn on_timer(&mut self, k: &mut Kernel<Self>, node: NodeId, timer: Self::Timer);

    /// A node was killed, restarted, paused or resumed.
    fn on_node_state(&mut self, k: &mut Kernel<Self>, node: NodeId, state: NodeState);

    /// Links changed (partition, heal, loss). Connection-oriented models use this to notice
    /// broken connections. Default: nothing.
    fn on_links_changed(&mut self, _k: &mut Kernel<Self>) {}

    /// Names of the metric series this model samples.
    fn metric_names(&self) -> Vec<String>;

    /// One sample of every series, in `metric_names` order.
    fn sample_metrics(&self, now: SimTime, out: &mut Vec<f64>);

    /// A short label for a message, for the message log and the space-time diagram (only
    /// called while message recording is on).
    fn describe_msg(_msg: &Self::Msg) -> String {
        "message".to_string()
    }

    /// Checks safety invariants; an `Err` names the violated property and what broke it.
    fn check_invariants(&self) -> Result<(), String> {
        Ok(())
    }
}
