//! `resume_changefeed`: the operator resumes a changefeed (`target` is its id), through
//! `pd-1` as `pause_changefeed`.

use faultline_cdc::capture::session::OperatorAction;
use faultline_cdc::StackTimer;

use super::pause_changefeed::changefeed_index;
use super::steps::{at_and_undo, cdc_timer, timed};
use super::verb::{Targets, Verb};
use crate::dur::Dur;
use crate::fault_spec::FaultSpec;
use crate::format::Scenario;

/// Resume a changefeed.
pub struct ResumeChangefeed;

impl Verb for ResumeChangefeed {
    fn name(&self) -> &'static str {
        "resume_changefeed"
    }

    fn targets(&self) -> Targets {
        Targets::Changefeed
    }

    fn is_operator(&self) -> bool {
        true
    }

    fn timers(&self, f: &FaultSpec, s: &Scenario) -> Vec<(Dur, StackTimer)> {
        let now = (changefeed_index(f, s).map(OperatorAction::ResumeChangefeed))
            .into_iter()
            .collect();
        timed(at_and_undo(f, now, Vec::new()), cdc_timer)
    }
}
