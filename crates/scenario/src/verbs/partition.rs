//! `partition`: cut the links between the target and its peers (Chaos Mesh's
//! network-partition); a `duration` restores them.

use faultline_sim::{Fault, LinkChange};

use super::link_targets::LinkTargets;
use super::verb::Verb;
use crate::fault_spec::FaultSpec;

/// Cut the network.
pub struct Partition;

impl Verb for Partition {
    fn name(&self) -> &'static str {
        "partition"
    }

    fn undoable(&self) -> bool {
        true
    }

    fn is_link_fault(&self) -> bool {
        true
    }

    fn kernel_faults(&self, _f: &FaultSpec, t: &LinkTargets) -> (Vec<Fault>, Vec<Fault>) {
        (
            vec![t.links(LinkChange::Cut)],
            vec![t.links(LinkChange::Restore)],
        )
    }
}
