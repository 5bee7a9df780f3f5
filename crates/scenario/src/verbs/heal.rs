//! `heal`: restore the links between the target and its peers to healthy; it undoes an
//! earlier `partition`, `loss` or `delay` of the same target.

use faultline_sim::{Fault, LinkChange};

use super::link_targets::LinkTargets;
use super::verb::Verb;
use crate::fault_action::FaultAction;
use crate::fault_spec::FaultSpec;

/// Restore links to healthy.
pub struct Heal;

impl Verb for Heal {
    fn name(&self) -> &'static str {
        "heal"
    }

    fn is_link_fault(&self) -> bool {
        true
    }

    fn over_when_ordered(&self) -> bool {
        true
    }

    fn undoes(&self, fault: FaultAction) -> bool {
        matches!(
            fault,
            FaultAction::Partition | FaultAction::Loss | FaultAction::Delay
        )
    }

    fn kernel_faults(&self, _f: &FaultSpec, t: &LinkTargets) -> (Vec<Fault>, Vec<Fault>) {
        (vec![t.links(LinkChange::Restore)], Vec::new())
    }
}
