//! The fault script's verbs as a scenario file and a share link store them: one name each,
//! in a fixed order (a link stores the index). What each verb means is its file in `verbs/`.

use serde::Serialize;

use crate::unit_enum::unit_enum_deserialize;

/// Fault verbs, named as Chaos Mesh users know them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultAction {
    /// Kill the process (pod-kill).
    Kill,
    /// Start a killed process.
    Restart,
    /// Stall the process (pod-failure).
    Pause,
    /// Un-stall.
    Resume,
    /// Cut the network (network-partition).
    Partition,
    /// Restore links to healthy.
    Heal,
    /// Drop packets (network-loss).
    Loss,
    /// Add latency (network-delay).
    Delay,
    /// Operator: pause a changefeed (`target` is the changefeed id; `duration` resumes it).
    PauseChangefeed,
    /// Operator: resume a changefeed (`target` is the changefeed id).
    ResumeChangefeed,
    /// Operator: scale in: drain the capture's tables, then it leaves (`duration` adds it
    /// back). At `0s` the capture starts outside the cluster instead.
    RemoveCapture,
    /// Operator: scale out: the capture joins.
    AddCapture,
    /// Operator (pd-ctl): PD's evict-leader scheduler moves every leader off the TiKV store
    /// and lets none back, as a rolling restart does before restarting it (`duration`
    /// removes the scheduler).
    EvictLeader,
    /// Operator (pd-ctl `operator add transfer-leader`): PD moves a region's leader, or every
    /// leader of the `from` store, to the target TiKV store.
    TransferLeader,
    /// Scale out TiKV: a store of `tikv-(stores+1)..tikv-max_stores` joins and PD moves
    /// replicas and leaders onto it.
    AddStore,
    /// Scale in TiKV (pd-ctl `store delete`): the store goes Offline, PD moves its replicas
    /// off, then it is Tombstone.
    RemoveStore,
    /// Operator (pd-ctl `operator add split-region`, sent to `pd-1`): the region's leader
    /// splits it into `parts` regions through Raft.
    Split,
    /// Operator (pd-ctl `operator add merge-region`, sent to `pd-1`): the region merges into
    /// the region after it in key order (or before it, for the last), through PrepareMerge
    /// and CommitMerge.
    Merge,
}

unit_enum_deserialize!(FaultAction {
    Kill = "kill",
    Restart = "restart",
    Pause = "pause",
    Resume = "resume",
    Partition = "partition",
    Heal = "heal",
    Loss = "loss",
    Delay = "delay",
    PauseChangefeed = "pause_changefeed",
    ResumeChangefeed = "resume_changefeed",
    RemoveCapture = "remove_capture",
    AddCapture = "add_capture",
    EvictLeader = "evict_leader",
    TransferLeader = "transfer_leader",
    AddStore = "add_store",
    RemoveStore = "remove_store",
    Split = "split",
    Merge = "merge",
});

impl FaultAction {
    /// Every action, for error messages and the UI palette.
    pub const ALL: [FaultAction; 18] = [
        FaultAction::Kill,
        FaultAction::Restart,
        FaultAction::Pause,
        FaultAction::Resume,
        FaultAction::Partition,
        FaultAction::Heal,
        FaultAction::Loss,
        FaultAction::Delay,
        FaultAction::PauseChangefeed,
        FaultAction::ResumeChangefeed,
        FaultAction::RemoveCapture,
        FaultAction::AddCapture,
        FaultAction::EvictLeader,
        FaultAction::TransferLeader,
        FaultAction::AddStore,
        FaultAction::RemoveStore,
        FaultAction::Split,
        FaultAction::Merge,
    ];
}
