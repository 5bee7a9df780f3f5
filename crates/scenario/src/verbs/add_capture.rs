//! `add_capture`: the operator scales TiCDC out: the capture joins, through `pd-1` as the
//! other TiCDC operator actions.

use faultline_cdc::capture::session::OperatorAction;
use faultline_cdc::StackTimer;

use super::steps::{at_and_undo, cdc_timer, timed};
use super::verb::{Targets, Verb};
use crate::dur::Dur;
use crate::fault_spec::FaultSpec;
use crate::format::Scenario;
use crate::nodes::capture_indices;

/// Scale TiCDC out.
pub struct AddCapture;

impl Verb for AddCapture {
    fn name(&self) -> &'static str {
        "add_capture"
    }

    fn targets(&self) -> Targets {
        Targets::Captures
    }

    fn is_operator(&self) -> bool {
        true
    }

    fn timers(&self, f: &FaultSpec, s: &Scenario) -> Vec<(Dur, StackTimer)> {
        let now = (capture_indices(&f.target, s).into_iter())
            .map(OperatorAction::AddCapture)
            .collect();
        timed(at_and_undo(f, now, Vec::new()), cdc_timer)
    }
}
