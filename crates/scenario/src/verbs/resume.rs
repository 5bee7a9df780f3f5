//! `resume`: un-stall a paused process; it undoes an earlier `pause` of the same target.

use faultline_sim::Fault;

use super::link_targets::LinkTargets;
use super::verb::Verb;
use crate::fault_action::FaultAction;
use crate::fault_spec::FaultSpec;

/// Un-stall a paused process.
pub struct Resume;

impl Verb for Resume {
    fn name(&self) -> &'static str {
        "resume"
    }

    fn over_when_ordered(&self) -> bool {
        true
    }

    fn undoes(&self, fault: FaultAction) -> bool {
        fault == FaultAction::Pause
    }

    fn kernel_faults(&self, _f: &FaultSpec, t: &LinkTargets) -> (Vec<Fault>, Vec<Fault>) {
        (t.per_node(Fault::Resume), Vec::new())
    }
}
