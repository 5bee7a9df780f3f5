//! `delay`: add `delay` of one-way latency between the target and its peers (Chaos Mesh's
//! network-delay); a `duration` restores the links.

use faultline_sim::{Fault, LinkChange};

use super::check::VerbCheck;
use super::link_targets::LinkTargets;
use super::verb::Verb;
use crate::dur::Dur;
use crate::fault_spec::FaultSpec;
use crate::limits::MAX_DELAY_SECS;
use crate::validate_field::dur_range;

/// Add latency.
pub struct Delay;

impl Verb for Delay {
    fn name(&self) -> &'static str {
        "delay"
    }

    fn undoable(&self) -> bool {
        true
    }

    fn is_link_fault(&self) -> bool {
        true
    }

    /// An editor starts from 200 ms.
    fn start(&self, f: &mut FaultSpec) {
        f.delay = Some(Dur::millis(200));
    }

    /// `delay` is given, 1 µs up to the limit.
    fn check_delay(&self, c: &mut VerbCheck) {
        match c.f.delay {
            None => c.add("delay", "a delay fault needs delay, e.g. \"200ms\""),
            Some(d) => {
                let field = (c.field)("delay");
                dur_range(c.p, &field, d, Dur(1), Dur::secs(MAX_DELAY_SECS));
            }
        }
    }

    fn kernel_faults(&self, f: &FaultSpec, t: &LinkTargets) -> (Vec<Fault>, Vec<Fault>) {
        let d = f.delay.unwrap_or_default().to_sim();
        (
            vec![t.links(LinkChange::Delay(d))],
            vec![t.links(LinkChange::Restore)],
        )
    }
}
