//! Shipped scenarios run natively for the chart tests.

use faultline_scenario::{parse_scenario, Run};

use crate::chart_data::{chart_data, ChartData, ChartKind, LabelledRun};
use faultline_sim::SimTime;

pub(crate) const TIKV_14547: &str = "tikv-14547-leaders-lost-after-store-failure.toml";
pub(crate) const QUORUM_LOST: &str = "raft-quorum-lost-two-stores.toml";
pub(crate) const TIFLOW_9595: &str = "tiflow-9595-changefeed-stuck-after-tikv-failure.toml";
pub(crate) const SCALE_OUT_IN: &str = "tikv-scale-out-in-during-kafka-replication.toml";
pub(crate) const TIFLOW_9595_FIXED: &str =
    "tiflow-9595-changefeed-stuck-after-tikv-failure-fixed.toml";

/// A shipped scenario run for its first `secs` simulated seconds.
pub(crate) fn run_at(file: &str, secs: u64) -> Run {
    let path = format!("{}/../../scenarios/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let scenario = parse_scenario(file, &text).expect("a shipped scenario parses");
    let mut run = Run::new(&scenario).expect("a shipped scenario builds");
    run.run_until(SimTime(secs * 1_000_000));
    run
}

/// Chart `kind` of a shipped scenario's first `secs` simulated seconds, as one run.
pub(crate) fn chart_at(kind: ChartKind, file: &str, secs: u64) -> ChartData {
    let run = run_at(file, secs);
    let runs = [LabelledRun {
        label: "run",
        run: &run,
    }];
    chart_data(kind, &runs, None)
}
