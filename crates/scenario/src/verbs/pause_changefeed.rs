//! `pause_changefeed`: the operator pauses a changefeed (`target` is its id); a `duration`
//! resumes it. A TiCDC model action sent through `pd-1` (the CLI talks to etcd inside PD).

use faultline_cdc::capture::session::OperatorAction;
use faultline_cdc::StackTimer;

use super::steps::{at_and_undo, cdc_timer, timed};
use super::verb::{Targets, Verb};
use crate::dur::Dur;
use crate::fault_spec::FaultSpec;
use crate::format::Scenario;

/// Pause a changefeed.
pub struct PauseChangefeed;

/// The index of the changefeed a step's target names, if one has that id.
pub(crate) fn changefeed_index(f: &FaultSpec, s: &Scenario) -> Option<u16> {
    (s.changefeeds.iter())
        .position(|c| c.id == f.target.trim())
        .map(|i| i as u16)
}

impl Verb for PauseChangefeed {
    fn name(&self) -> &'static str {
        "pause_changefeed"
    }

    fn targets(&self) -> Targets {
        Targets::Changefeed
    }

    fn undoable(&self) -> bool {
        true
    }

    fn is_operator(&self) -> bool {
        true
    }

    fn timers(&self, f: &FaultSpec, s: &Scenario) -> Vec<(Dur, StackTimer)> {
        let cf = changefeed_index(f, s);
        let now = cf
            .map(OperatorAction::PauseChangefeed)
            .into_iter()
            .collect();
        let undo = cf
            .map(OperatorAction::ResumeChangefeed)
            .into_iter()
            .collect();
        timed(at_and_undo(f, now, undo), cdc_timer)
    }
}
