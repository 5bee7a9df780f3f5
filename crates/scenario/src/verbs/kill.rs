//! `kill`: kill the process (Chaos Mesh's pod-kill); a `duration` restarts it.

use faultline_sim::Fault;

use super::link_targets::LinkTargets;
use super::verb::Verb;
use crate::fault_spec::FaultSpec;

/// Kill the process.
pub struct Kill;

impl Verb for Kill {
    fn name(&self) -> &'static str {
        "kill"
    }

    fn undoable(&self) -> bool {
        true
    }

    fn kernel_faults(&self, _f: &FaultSpec, t: &LinkTargets) -> (Vec<Fault>, Vec<Fault>) {
        (t.per_node(Fault::Crash), t.per_node(Fault::Restart))
    }
}
