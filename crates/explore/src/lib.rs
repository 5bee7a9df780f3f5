//! Finding failing fault schedules automatically and turning them into minimal repro links.
//!
//! [`explore()`] runs a base scenario under many seeds, each with a random fault schedule
//! drawn from a [`FaultBudget`], and checks every [`property`] on each run. [`shrink()`]
//! delta-debugs one failing scenario down to the smallest one that still fails the same
//! property. Both are deterministic: the same inputs give the same report, whatever the
//! number of threads.

pub mod budget;
pub mod explore;
pub mod outcome;
pub mod property;
pub mod report;
mod report_json;
pub mod schedule;
pub mod shard;
pub mod shrink;

pub use budget::{FaultBudget, FaultKind};
pub use explore::{explore, ExploreError, ExploreOptions, Progress};
pub use outcome::{
    check_run, check_run_judging, check_scenario, check_scenario_judging, Finding, Outcome,
};
pub use report::{merge_reports, Report, ReportContext, SeedFailure};
pub use schedule::{random_faults, scenario_for_seed};
pub use shard::Shard;
pub use shrink::{shrink, ShrinkError, Shrunk};
