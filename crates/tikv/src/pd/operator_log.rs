//! How PD names and logs its operators, so the log reads as PD's does: `add operator` when a
//! scheduler or checker creates one, `operator finish` or `operator timeout` when it ends
//! (tikv/pd `pkg/schedule/operator/operator_controller.go`, `addOperatorLocked` and
//! `buryOperator`; the text follows `Operator::String` and `step.go`'s step strings).
//!
//! A replica operator lists PD's joint-consensus steps (`builder.go`
//! `buildStepsWithJointConsensus`); the model carries out steps 1 to 3 (enter the joint
//! state, leave it, remove the demoted peer) as one admin entry (`crate::region::learner`).

use faultline_sim::Level;

use crate::cluster::Cluster;
use crate::out::Cx;
use crate::pd::state::Operator;

/// The operator as PD's log prints it: desc, brief, kind and steps (store ids are 1-based).
pub(crate) fn describe(op: &Operator, leader: bool) -> String {
    let (from, to) = (op.from_store + 1, op.to_store + 1);
    if leader {
        format!(
            "{} {{transfer leader: store {from} to {to}}} (kind:leader, steps:[0:{{transfer leader from store {from} to store {to}}}])",
            op.desc.name()
        )
    } else {
        let swap = format!(
            "promote learner peer on store {to} to voter, demote voter peer on store {from} to learner"
        );
        format!(
            "{} {{mv peer: store [{from}] to [{to}]}} (kind:region, steps:[0:{{add learner peer on store {to}}}, 1:{{use joint consensus, {swap}}}, 2:{{leave joint state, {swap}}}, 3:{{remove peer on store {from}}}])",
            op.desc.name()
        )
    }
}

impl Cluster {
    /// PD logs an operator it just created for region `r`.
    pub(crate) fn log_operator_added(&self, cx: &mut Cx, r: u32, op: &Operator, leader: bool) {
        let detail = format!("region-id={r} operator=\"{}\"", describe(op, leader));
        cx.out
            .log(Some(self.pd_node), Level::Info, "add operator", detail);
    }

    /// PD logs an operator that ended at `now` (µs): finished, or dropped at its deadline;
    /// each is counted (`pd.operators_finished`, `pd.operators_timed_out`).
    pub(crate) fn log_operator_ended(
        &mut self,
        cx: &mut Cx,
        (r, op, leader): (u32, Operator, bool),
        now: u64,
    ) {
        let finished = now < op.deadline;
        let message = if finished {
            self.book.operators_finished += 1;
            "operator finish"
        } else {
            self.book.operators_timed_out += 1;
            "operator timeout"
        };
        let takes = (now - op.created) as f64 / 1e6;
        let detail = format!(
            "region-id={r} takes={takes}s operator=\"{}\"",
            describe(&op, leader)
        );
        cx.out.log(Some(self.pd_node), Level::Info, message, detail);
    }
}
