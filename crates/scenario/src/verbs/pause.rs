//! `pause`: stall the process (Chaos Mesh's pod-failure); a `duration` resumes it.

use faultline_sim::Fault;

use super::link_targets::LinkTargets;
use super::verb::Verb;
use crate::fault_spec::FaultSpec;

/// Stall the process.
pub struct Pause;

impl Verb for Pause {
    fn name(&self) -> &'static str {
        "pause"
    }

    fn undoable(&self) -> bool {
        true
    }

    fn kernel_faults(&self, _f: &FaultSpec, t: &LinkTargets) -> (Vec<Fault>, Vec<Fault>) {
        (t.per_node(Fault::Pause), t.per_node(Fault::Resume))
    }
}
