//! `loss`: drop `loss_percent` of the packets between the target and its peers (Chaos
//! Mesh's network-loss); a `duration` restores the links.

use faultline_sim::{Fault, LinkChange};

use super::check::VerbCheck;
use super::link_targets::LinkTargets;
use super::verb::Verb;
use crate::fault_spec::FaultSpec;

/// Drop packets.
pub struct Loss;

impl Verb for Loss {
    fn name(&self) -> &'static str {
        "loss"
    }

    fn undoable(&self) -> bool {
        true
    }

    fn is_link_fault(&self) -> bool {
        true
    }

    /// An editor starts from 30%.
    fn start(&self, f: &mut FaultSpec) {
        f.loss_percent = Some(30);
    }

    /// `loss_percent` is given, 1..=100.
    fn check_loss(&self, c: &mut VerbCheck) {
        match c.f.loss_percent {
            None => c.add("loss_percent", "a loss fault needs loss_percent, 1..=100"),
            Some(v) if !(1..=100).contains(&v) => c.add(
                "loss_percent",
                format!("{v} is out of range; allowed 1..=100"),
            ),
            Some(_) => {}
        }
    }

    fn kernel_faults(&self, f: &FaultSpec, t: &LinkTargets) -> (Vec<Fault>, Vec<Fault>) {
        let ppm = f.loss_percent.unwrap_or(0).min(100) * 10_000;
        (
            vec![t.links(LinkChange::LossPpm(ppm))],
            vec![t.links(LinkChange::Restore)],
        )
    }
}
