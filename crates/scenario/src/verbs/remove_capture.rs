//! `remove_capture`: the operator scales TiCDC in: the capture's tables are drained, then it
//! leaves (a `duration` adds it back). At `0s` the capture starts outside the cluster
//! instead (a node ready for a later scale-out), so that step is no action.

use faultline_cdc::capture::session::OperatorAction;
use faultline_cdc::StackTimer;

use super::steps::{at_and_undo, cdc_timer, timed};
use super::verb::{Targets, Verb};
use crate::dur::Dur;
use crate::fault_action::FaultAction;
use crate::fault_spec::FaultSpec;
use crate::format::Scenario;
use crate::nodes::capture_indices;

/// Scale TiCDC in.
pub struct RemoveCapture;

/// Captures that start outside the cluster: targets of `remove_capture` at `0s`.
pub fn initially_absent(s: &Scenario) -> Vec<u32> {
    s.faults
        .iter()
        .filter(|f| f.action == FaultAction::RemoveCapture && f.at == Dur(0))
        .flat_map(|f| capture_indices(&f.target, s))
        .collect()
}

impl Verb for RemoveCapture {
    fn name(&self) -> &'static str {
        "remove_capture"
    }

    fn targets(&self) -> Targets {
        Targets::Captures
    }

    fn undoable(&self) -> bool {
        true
    }

    fn is_operator(&self) -> bool {
        true
    }

    fn timers(&self, f: &FaultSpec, s: &Scenario) -> Vec<(Dur, StackTimer)> {
        let caps = capture_indices(&f.target, s);
        // A remove at 0s is the initial membership, not an action.
        let now = match f.at == Dur(0) {
            true => Vec::new(),
            false => caps
                .iter()
                .map(|c| OperatorAction::RemoveCapture(*c))
                .collect(),
        };
        let undo = caps
            .iter()
            .map(|c| OperatorAction::AddCapture(*c))
            .collect();
        timed(at_and_undo(f, now, undo), cdc_timer)
    }
}
