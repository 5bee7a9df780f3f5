//! The fault verbs, one type per file, each implementing [`Verb`]; this file is the one place
//! that maps a [`FaultAction`] (the name a scenario file or a share link stores) to its verb.
//! Adding a verb: its file here, its variant in `fault_action.rs`, and its line below.

mod add_capture;
mod add_store;
pub mod check;
mod delay;
mod evict_leader;
mod heal;
mod kill;
pub mod link_targets;
mod loss;
mod merge;
mod partition;
mod pause;
mod pause_changefeed;
pub mod remove_capture;
mod remove_store;
mod restart;
mod resume;
mod resume_changefeed;
pub mod split;
pub mod steps;
mod transfer_leader;
pub mod verb;

use self::verb::Verb;
use crate::dur::Dur;
use crate::fault_action::FaultAction;
use crate::fault_spec::FaultSpec;

impl FaultAction {
    /// The verb: what this action means, validates, builds and says.
    pub fn verb(self) -> &'static dyn Verb {
        match self {
            FaultAction::Kill => &kill::Kill,
            FaultAction::Restart => &restart::Restart,
            FaultAction::Pause => &pause::Pause,
            FaultAction::Resume => &resume::Resume,
            FaultAction::Partition => &partition::Partition,
            FaultAction::Heal => &heal::Heal,
            FaultAction::Loss => &loss::Loss,
            FaultAction::Delay => &delay::Delay,
            FaultAction::PauseChangefeed => &pause_changefeed::PauseChangefeed,
            FaultAction::ResumeChangefeed => &resume_changefeed::ResumeChangefeed,
            FaultAction::RemoveCapture => &remove_capture::RemoveCapture,
            FaultAction::AddCapture => &add_capture::AddCapture,
            FaultAction::EvictLeader => &evict_leader::EvictLeader,
            FaultAction::TransferLeader => &transfer_leader::TransferLeader,
            FaultAction::AddStore => &add_store::AddStore,
            FaultAction::RemoveStore => &remove_store::RemoveStore,
            FaultAction::Split => &split::Split,
            FaultAction::Merge => &merge::Merge,
        }
    }

    /// The name used in scenario files.
    pub fn name(self) -> &'static str {
        self.verb().name()
    }

    /// Whether a `duration` can undo the step (restart, resume, heal, resume the changefeed,
    /// re-add the capture, remove the scheduler).
    pub fn undoable(self) -> bool {
        self.verb().undoable()
    }

    /// True for operator actions on TiCDC (model actions, not kernel faults).
    pub fn is_operator(self) -> bool {
        self.verb().is_operator()
    }
}

impl FaultSpec {
    /// A step with the values an editor starts from (each verb's [`Verb::start`]: `loss`
    /// drops 30%, `delay` adds 200 ms, `transfer_leader` moves the leaders of another store,
    /// `split` and `merge` take region 0); nothing is undone.
    pub fn new(at: Dur, action: FaultAction, target: &str) -> FaultSpec {
        let mut f = FaultSpec {
            at,
            action,
            target: target.to_string(),
            peers: None,
            one_way: false,
            loss_percent: None,
            delay: None,
            duration: None,
            from: None,
            region: None,
            parts: None,
            table: None,
            row: None,
        };
        action.verb().start(&mut f);
        f
    }

    /// The step in a few words, for the playground's chips and the charts' fault marks: the
    /// verb and its target (`kill tikv-2`), or for a split or merge, whose target is always
    /// PD, what it cuts or joins (`split region 5 in 4`, `merge region 9`).
    pub fn short_label(&self) -> String {
        self.action.verb().label(self)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Dur, FaultAction, FaultSpec};

    /// Each verb's name is the one scenario files spell it with.
    #[test]
    fn every_verb_reads_back_from_its_name() {
        #[derive(serde::Deserialize)]
        struct Wrap {
            v: FaultAction,
        }
        for a in FaultAction::ALL {
            let text = format!("v = {:?}", a.name());
            assert_eq!(toml::from_str::<Wrap>(&text).unwrap().v, a, "{text}");
        }
    }

    /// A step names its verb and target.
    #[test]
    fn a_step_names_its_verb_and_target() {
        let kill = FaultSpec::new(Dur::secs(50), FaultAction::Kill, "tikv-2");
        assert_eq!(kill.short_label(), "kill tikv-2");
    }
}
