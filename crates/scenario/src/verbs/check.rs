//! What a verb's validation works on (one script step, its scenario and the node names), and
//! the checks several verbs share: a target that names nodes of one kind, and the refusals of
//! fields a verb does not take, worded as every verb words them.

use crate::error::Problems;
use crate::fault_spec::FaultSpec;
use crate::format::Scenario;
use crate::nodes::resolve;
use crate::text::{check_chars, TextKind};

/// One script step under validation: problems go to `p`, at fields named by `field`
/// (`faults[3].region`).
pub struct VerbCheck<'a> {
    pub(crate) p: &'a mut Problems,
    pub(crate) s: &'a Scenario,
    pub(crate) f: &'a FaultSpec,
    pub(crate) names: &'a [String],
    pub(crate) field: &'a dyn Fn(&str) -> String,
}

/// Whether a selector has control characters: those are reported as such and not resolved
/// further, since the resolver's "no node named ..." would echo them.
pub(crate) fn has_control(text: &str) -> bool {
    text.chars().any(char::is_control)
}

impl VerbCheck<'_> {
    /// A problem at the step's field `name`.
    pub(crate) fn add(&mut self, name: &str, message: impl std::fmt::Display) {
        let field = (self.field)(name);
        self.p.add(field, message);
    }

    /// The target names nodes that exist.
    pub(crate) fn target_resolves(&mut self) {
        if let Err(e) = resolve(&self.f.target, self.names) {
            self.add("target", e);
        }
    }

    /// The target names nodes that exist, all named `<prefix>N`; else `only` is the problem.
    pub(crate) fn target_only(&mut self, prefix: &str, only: &str) {
        match resolve(&self.f.target, self.names) {
            Ok(hit) if hit.iter().all(|n| n.starts_with(prefix)) => {}
            Ok(_) => {
                let msg = format!("{} takes {only}", self.f.action.name());
                self.add("target", msg);
            }
            Err(e) => self.add("target", e),
        }
    }

    /// The target is the id of one of the scenario's changefeeds.
    pub(crate) fn target_is_changefeed(&mut self) {
        let (s, f) = (self.s, self.f);
        if !s.changefeeds.iter().any(|c| c.id == f.target.trim()) {
            let ids: Vec<&str> = s.changefeeds.iter().map(|c| c.id.as_str()).collect();
            let msg = format!(
                "{} needs a changefeed id as target; changefeeds are [{}]",
                f.action.name(),
                ids.join(", ")
            );
            self.add("target", msg);
        }
    }

    /// A link fault's `peers`, if given, name nodes that exist.
    pub(crate) fn peers_resolve(&mut self) {
        let f = self.f;
        let Some(peers) = &f.peers else { return };
        if has_control(peers) {
            check_chars(self.p, &(self.field)("peers"), peers, TextKind::Name);
        } else if let Err(e) = resolve(peers, self.names) {
            self.add("peers", e);
        }
    }

    /// `peers` and `one_way` belong to the link faults.
    pub(crate) fn refuse_link_fields(&mut self) {
        let verb = self.f.action.name();
        if self.f.peers.is_some() {
            let msg = format!("only partition, heal, loss and delay take peers, not {verb}");
            self.add("peers", msg);
        }
        if self.f.one_way {
            let msg = format!("only partition, heal, loss and delay can be one-way, not {verb}");
            self.add("one_way", msg);
        }
    }

    /// `from` belongs to `transfer_leader`.
    pub(crate) fn refuse_from(&mut self) {
        if self.f.from.is_some() {
            let msg = format!(
                "only transfer_leader takes from, not {}",
                self.f.action.name()
            );
            self.add("from", msg);
        }
    }

    /// `region` belongs to `transfer_leader`, `split` and `merge`.
    pub(crate) fn refuse_region(&mut self) {
        if self.f.region.is_some() {
            let msg = format!(
                "only transfer_leader and split take region, not {}",
                self.f.action.name()
            );
            self.add("region", msg);
        }
    }

    /// `parts`, `table` and `row` belong to `split`.
    pub(crate) fn refuse_split_fields(&mut self) {
        let f = self.f;
        for (name, given) in [
            ("parts", f.parts.is_some()),
            ("table", f.table.is_some()),
            ("row", f.row.is_some()),
        ] {
            if given {
                let msg = format!("only split takes {name}, not {}", f.action.name());
                self.add(name, msg);
            }
        }
    }

    /// `loss_percent` belongs to `loss`.
    pub(crate) fn refuse_loss(&mut self) {
        if self.f.loss_percent.is_some() {
            let msg = format!("only loss takes loss_percent, not {}", self.f.action.name());
            self.add("loss_percent", msg);
        }
    }

    /// `delay` belongs to `delay`.
    pub(crate) fn refuse_delay(&mut self) {
        if self.f.delay.is_some() {
            let msg = format!("only delay takes delay, not {}", self.f.action.name());
            self.add("delay", msg);
        }
    }
}
