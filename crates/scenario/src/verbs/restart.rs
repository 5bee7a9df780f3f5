//! `restart`: start a killed process; it undoes an earlier `kill` of the same target.

use faultline_sim::Fault;

use super::link_targets::LinkTargets;
use super::verb::Verb;
use crate::fault_action::FaultAction;
use crate::fault_spec::FaultSpec;

/// Start a killed process.
pub struct Restart;

impl Verb for Restart {
    fn name(&self) -> &'static str {
        "restart"
    }

    fn over_when_ordered(&self) -> bool {
        true
    }

    fn undoes(&self, fault: FaultAction) -> bool {
        fault == FaultAction::Kill
    }

    fn kernel_faults(&self, _f: &FaultSpec, t: &LinkTargets) -> (Vec<Fault>, Vec<Fault>) {
        (t.per_node(Fault::Restart), Vec::new())
    }
}
