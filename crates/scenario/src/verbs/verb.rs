//! The `Verb` trait: everything one fault verb means, from its name in scenario files to the
//! kernel faults and model timers it becomes. Each verb is one type in one file of `verbs/`;
//! the defaults here are what a verb that takes no extra field does.

use faultline_cdc::StackTimer;
use faultline_sim::Fault;

use super::check::VerbCheck;
use super::link_targets::LinkTargets;
use crate::dur::Dur;
use crate::fault_action::FaultAction;
use crate::fault_spec::FaultSpec;
use crate::format::Scenario;

/// What a verb's `target` names, for validation and for the menus that offer the verb.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Targets {
    /// Any node (process and network faults).
    AnyNode,
    /// TiCDC captures (`cdc-N`).
    Captures,
    /// TiKV stores (`tikv-N`).
    Stores,
    /// PD (`pd-1`), for pd-ctl's region operators.
    Pd,
    /// A changefeed id, not a node.
    Changefeed,
}

/// One fault verb. [`FaultAction::verb`] gives the verb of a script step.
pub trait Verb: Sync {
    /// The name in scenario files and share links' error messages (`kill`).
    fn name(&self) -> &'static str;

    /// What the target names.
    fn targets(&self) -> Targets {
        Targets::AnyNode
    }

    /// Whether a `duration` can undo the step.
    fn undoable(&self) -> bool {
        false
    }

    /// True for operator actions on TiCDC (model actions, not kernel faults).
    fn is_operator(&self) -> bool {
        false
    }

    /// Whether the step changes links (and so takes `peers` and `one_way`).
    fn is_link_fault(&self) -> bool {
        false
    }

    /// Whether the step leaves nothing to undo, so liveness counts it over as soon as it is
    /// ordered (what PD does after it is the cluster's normal work).
    fn over_when_ordered(&self) -> bool {
        false
    }

    /// Whether this verb, later on the same target, undoes a step of verb `fault`.
    fn undoes(&self, _fault: FaultAction) -> bool {
        false
    }

    /// Whether the step can change the stores or the regions (so the stores chart shows).
    fn changes_layout(&self) -> bool {
        false
    }

    /// Sets the fields an editor starts from on a step with every optional field empty.
    fn start(&self, _f: &mut FaultSpec) {}

    /// The step in a few words, for the playground's chips and the charts' fault marks.
    fn label(&self, f: &FaultSpec) -> String {
        format!("{} {}", self.name(), f.target)
    }

    /// What the step does beyond its fields, in words a bug report appends to the step's
    /// line (after the verb, target and fields): empty for most verbs.
    fn report_words(&self, _f: &FaultSpec) -> String {
        String::new()
    }

    /// Checks `target` (its characters are already known to be printable), by what it names.
    fn check_target(&self, c: &mut VerbCheck) {
        match self.targets() {
            Targets::AnyNode => c.target_resolves(),
            Targets::Captures => c.target_only("cdc-", "captures only, e.g. `cdc-2`"),
            Targets::Stores => c.target_only("tikv-", "TiKV stores only, e.g. `tikv-1`"),
            Targets::Changefeed => c.target_is_changefeed(),
            Targets::Pd => {}
        }
    }

    /// Checks `peers` and `one_way`: a link fault's peers exist; no other verb takes them.
    fn check_link_fields(&self, c: &mut VerbCheck) {
        if self.is_link_fault() {
            c.peers_resolve();
        } else {
            c.refuse_link_fields();
        }
    }

    /// Checks `from` and `region` (`transfer_leader`'s fields; `split` and `merge` take
    /// `region` too and check it with their own fields).
    fn check_leader_fields(&self, c: &mut VerbCheck) {
        c.refuse_from();
        c.refuse_region();
    }

    /// Checks `parts`, `table` and `row` (`split`'s fields).
    fn check_split_fields(&self, c: &mut VerbCheck) {
        c.refuse_split_fields();
    }

    /// Checks `loss_percent` (`loss`'s field).
    fn check_loss(&self, c: &mut VerbCheck) {
        c.refuse_loss();
    }

    /// Checks `delay` (`delay`'s field).
    fn check_delay(&self, c: &mut VerbCheck) {
        c.refuse_delay();
    }

    /// The kernel faults of the step, and those that undo it after `duration`.
    fn kernel_faults(&self, _f: &FaultSpec, _t: &LinkTargets) -> (Vec<Fault>, Vec<Fault>) {
        (Vec::new(), Vec::new())
    }

    /// The model timers the step arms on `pd-1`, with their times: operator actions, which
    /// the CLI or pd-ctl sends through PD, not kernel faults.
    fn timers(&self, _f: &FaultSpec, _s: &Scenario) -> Vec<(Dur, StackTimer)> {
        Vec::new()
    }
}
