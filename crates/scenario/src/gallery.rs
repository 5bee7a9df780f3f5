//! The scenarios shipped in `scenarios/`, compiled in so the CLI and the browser share them.

use crate::format::Scenario;
use crate::parse::parse_scenario;

/// A shipped scenario.
#[derive(Clone, Debug)]
pub struct GalleryEntry {
    /// File name under `scenarios/`.
    pub file: &'static str,
    /// Its TOML text.
    pub text: &'static str,
    /// Parsed.
    pub scenario: Scenario,
}

macro_rules! shipped {
    ($($file:literal),* $(,)?) => {
        &[$(($file, include_str!(concat!("../../../scenarios/", $file)))),*]
    };
}

/// Every shipped scenario file, in gallery order.
pub const SHIPPED: &[(&str, &str)] = shipped![
    "tikv-14547-leaders-lost-after-store-failure.toml",
    "tikv-14547-leaders-lost-after-store-failure-fixed.toml",
    "raft-basics-kill-a-store.toml",
    "raft-minority-leader-partition.toml",
    "raft-quorum-lost-two-stores.toml",
    "raft-region-split.toml",
    "tikv-rolling-restart.toml",
    "tikv-rolling-restart-without-eviction.toml",
    "tikv-scale-out-in-during-kafka-replication.toml",
    "cdc-basic-replication.toml",
    "cdc-capture-loses-pd.toml",
    "cdc-large-transactions-hold-the-checkpoint.toml",
    "cdc-client-dies-holding-locks.toml",
    "cdc-region-split-during-replication.toml",
    "cdc-regions-split-by-size.toml",
    "cdc-region-merge-during-replication.toml",
    "tiflow-9595-changefeed-stuck-after-tikv-failure.toml",
    "tiflow-9595-changefeed-stuck-after-tikv-failure-fixed.toml",
    "tiflow-9344-double-write-after-cdc-network-loss.toml",
    "tiflow-9344-double-write-after-cdc-network-loss-fixed.toml",
    "tiflow-9344-scale-captures-during-workload.toml",
    "tiflow-4241-kafka-sink-close-blocks-owner.toml",
    "tiflow-4241-kafka-sink-close-blocks-owner-fixed.toml",
];

/// The scenario the app opens when the URL has none: a bug the model reproduces, so a
/// newcomer's first screen shows one (tiflow#9595: a changefeed stuck after a TiKV failure).
/// It was tikv#14547 until model version 20, under which that race no longer happens.
pub const DEFAULT_SCENARIO_FILE: &str = "tiflow-9595-changefeed-stuck-after-tikv-failure.toml";

/// The shipped scenarios, parsed. A file that fails to parse is a build bug, caught by tests.
pub fn gallery() -> Vec<GalleryEntry> {
    SHIPPED
        .iter()
        .filter_map(|(file, text)| {
            parse_scenario(file, text)
                .ok()
                .map(|scenario| GalleryEntry {
                    file,
                    text,
                    scenario,
                })
        })
        .collect()
}

/// The default scenario.
pub fn default_scenario() -> Scenario {
    let (file, text) = SHIPPED
        .iter()
        .find(|(f, _)| *f == DEFAULT_SCENARIO_FILE)
        .expect("the default scenario is shipped");
    parse_scenario(file, text).expect("the default scenario is valid (tested)")
}
