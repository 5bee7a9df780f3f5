//! One step of the fault script as a scenario file and a share link spell it: one flat set of
//! fields for every verb (each verb's file in `verbs/` says which of them it takes).

use serde::{Deserialize, Serialize};

use crate::dur::Dur;
use crate::fault_action::FaultAction;

/// One step of the fault script.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FaultSpec {
    /// When, from the start of the run.
    pub at: Dur,
    /// What.
    pub action: FaultAction,
    /// Node name, comma-separated names, or a prefix glob such as `tikv-*`.
    pub target: String,
    /// For `partition`, `loss`, `delay`: the other side (default: every other node).
    #[serde(default)]
    pub peers: Option<String>,
    /// For `partition`, `loss`, `delay`: only from target to peers, not back.
    #[serde(default)]
    pub one_way: bool,
    /// For `loss`: percent of packets dropped (1..=100).
    #[serde(default)]
    pub loss_percent: Option<u32>,
    /// For `delay`: added one-way latency.
    #[serde(default)]
    pub delay: Option<Dur>,
    /// Undo the fault after this long (restart, resume or heal).
    #[serde(default)]
    pub duration: Option<Dur>,
    /// For `transfer_leader`: move every leader of this TiKV store to the target.
    #[serde(default)]
    pub from: Option<String>,
    /// For `transfer_leader`: move only this region's leader to the target; for `split`: the
    /// region to split; for `merge`: the region that merges into its neighbour (the region's
    /// index, as the region map and the log number it).
    #[serde(default)]
    pub region: Option<u32>,
    /// For `split`: how many regions the region becomes (default 2).
    #[serde(default)]
    pub parts: Option<u32>,
    /// For `split`, instead of `region`: every region holding part of this table (`t0`,
    /// `t1`, ...), or with `row` the region holding that row.
    #[serde(default)]
    pub table: Option<String>,
    /// For `split` with `table`: cut the region holding this row at its key, in two.
    #[serde(default)]
    pub row: Option<u32>,
}
