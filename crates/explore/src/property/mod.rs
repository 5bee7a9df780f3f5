//! Named properties every explored run is checked against (documented in
//! docs/properties.md).
//!
//! Generic properties live in one table, [`PROPERTIES`]: a name, a description, what it needs,
//! and a check over a finished [`Run`]. A check returns `None` when it cannot be judged on this
//! run (say, its metric does not exist in the model yet), so adding a property is one row here
//! and one function. Each `[[expect]]` of the scenario is a property too, named `expect[i]`.

pub mod cdc;
pub mod check;
pub mod expect;
pub mod invariant;
pub mod liveness;

use faultline_scenario::Run;

pub use check::Check;

/// A generic property.
#[derive(Clone, Copy)]
pub struct Property {
    /// Stable name, used by `faultline shrink --property`.
    pub name: &'static str,
    /// What must hold, in words.
    pub description: &'static str,
    /// What the check needs; shown when it is skipped.
    pub needs: &'static str,
    /// The check over a finished run.
    pub check: fn(&Run) -> Check,
}

/// Every generic property, in report order.
pub const PROPERTIES: &[Property] = &[
    Property {
        name: "invariant",
        description: "no model invariant is ever violated (Raft: at most one leader per term; \
                      committed entries are never lost)",
        needs: "nothing",
        check: invariant::check,
    },
    Property {
        name: "liveness.leader",
        description: "once the last fault has healed, no region stays without a leader for \
                      more than 60 s, until the end",
        needs: "metric `max_leaderless_secs`, faults that heal, and 60 s of run after they do",
        check: liveness::leader,
    },
    Property {
        name: "liveness.checkpoint",
        description: "once the last fault has healed, every changefeed's checkpoint lag is back \
                      under 60 s within 120 s (of its owner's next retry, if it is then waiting \
                      for one) and stays there",
        needs: "metrics `checkpoint_lag.<changefeed>`, faults that heal, and 120 s of run after \
                they do and every changefeed waiting for a retry has been retried",
        check: liveness::checkpoint,
    },
    Property {
        name: "cdc.checkpoint_monotonic",
        description: "no changefeed's checkpoint ever moves backwards",
        needs: "metrics `checkpoint_ts.<changefeed>`",
        check: cdc::checkpoint_monotonic,
    },
    Property {
        name: "cdc.checkpoint_le_resolved",
        description: "a changefeed's checkpoint never passes its resolved ts",
        needs: "metrics `checkpoint_ts.<changefeed>` with `resolved_ts.<changefeed>`",
        check: cdc::checkpoint_le_resolved,
    },
    Property {
        name: "cdc.consistent",
        description: "downstream equals upstream at the end of the run",
        needs: "metrics `consistency_diff_rows.<changefeed>`",
        check: cdc::consistent,
    },
    Property {
        name: "cdc.owner_responsive",
        description: "the owner loop never spends more than 5 s on one pass over the changefeeds",
        needs: "metric `owner_tick_secs`",
        check: cdc::owner_responsive,
    },
    Property {
        name: "cdc.single_writer",
        description: "never two writers for one table",
        needs: "metrics `writers_max.<changefeed>`, fixed tiflow#9344 toggles",
        check: cdc::single_writer,
    },
];

/// A generic property by name.
pub fn find(name: &str) -> Option<&'static Property> {
    PROPERTIES.iter().find(|p| p.name == name)
}

/// Every property name a scenario can be checked against: the generic ones, then `expect[i]`.
pub fn names(run_scenario: &faultline_scenario::Scenario) -> Vec<String> {
    let mut v: Vec<String> = PROPERTIES.iter().map(|p| p.name.to_string()).collect();
    v.extend((0..run_scenario.expect.len()).map(expect::name));
    v
}
