//! What each behaviour toggle models: the upstream bug it belongs to, the buggy and the fixed
//! behaviour in one sentence each. Shown in the inspector, the compare mode and the issue
//! report. A bug may need several toggles (tiflow#9344 has two); compare mode flips a bug's
//! toggles together, so its two sides always differ in what they claim to compare.

use faultline_scenario::{
    CaptureRemoveDelay, Dur, KvClientEvict, ProcessorCloseOnSessionLoss, Scenario, SinkClose,
    UnreachableBroadcast,
};

/// One modelled upstream bug.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BugInfo {
    /// Upstream issue, `owner/repo#n`.
    pub issue: &'static str,
    /// The symptom, a few words (compare list, report).
    pub symptom: &'static str,
    /// Set when this model does not reproduce the bug: why its buggy and fixed twins show the
    /// same symptom. Compare mode shows it for as long as compare is on; a test checks that the
    /// twins' verdicts and symptom series are equal at every second.
    pub not_reproduced: Option<&'static str>,
}

/// One key of `[toggles]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ToggleInfo {
    /// Key in `[toggles]`.
    pub key: &'static str,
    /// Index into [`BUGS`] of the bug this toggle is part of.
    pub bug: usize,
    /// Buggy behaviour, one sentence.
    pub buggy: &'static str,
    /// Fixed behaviour, one sentence.
    pub fixed: &'static str,
    /// Value names in scenario files: (buggy, fixed).
    pub values: (&'static str, &'static str),
    /// Further fixed values a scenario may pick instead of `values.1`, each with one sentence
    /// on how it differs (the inspector offers them; compare's fixed side keeps the pick).
    pub other_fixed: &'static [(&'static str, &'static str)],
}

/// Every modelled bug; compare mode's choices are indices into this list.
pub const BUGS: [BugInfo; 4] = [
    BugInfo {
        issue: "tikv/tikv#14547",
        symptom: "regions stay leaderless after a store fails",
        not_reproduced: Some("This model does not reproduce tikv#14547: both runs are the same run. The bug needs a message from the dead store handled after a survivor's StoreUnreachable broadcast, which puts a follower back to sleep; here none is (late_messages stays 0): the dead store's last messages arrive within the network delay, before its reset is noticed, so raftstore handles them ahead of the broadcast, at 1,000 regions and at 256,000. With nothing late, the fix never broadcasts again."),
    },
    BugInfo {
        issue: "pingcap/tiflow#9595",
        symptom: "a changefeed is stuck after a TiKV failure",
        not_reproduced: None,
    },
    BugInfo {
        issue: "pingcap/tiflow#9344",
        symptom: "double write after a capture's network loss",
        not_reproduced: None,
    },
    BugInfo {
        issue: "pingcap/tiflow#4241",
        symptom: "a dying Kafka sink blocks the owner",
        not_reproduced: None,
    },
];

/// Every toggle, in `[toggles]` order.
pub const TOGGLES: [ToggleInfo; 5] = [
    ToggleInfo {
        key: "tikv.unreachable_broadcast",
        bug: 0,
        buggy: "The raft client reports the store unreachable only when the connection aborts, so StoreUnreachable is broadcast once per disconnect; a follower that a late MsgAppend from the dead leader put back to sleep then wakes only if its queued answer is reported Unreachable.",
        fixed: "The raft client reports the store unreachable after every failed reconnect attempt, and the store broadcasts again after the backoff when messages from it kept arriving (tikv#14574), so such a follower wakes even if its answer was lost.",
        values: ("once_per_disconnect", "repeat_if_new_messages"),
        other_fixed: &[(
            "every_failed_attempt",
            "Before tikv#13677 (v6.3 and older), the behaviour the bug regressed from: the raft client reports the store unreachable after every failed reconnect attempt and the store broadcasts again after each 10 s backoff, whether or not messages from it arrived.",
        )],
    },
    ToggleInfo {
        key: "cdc.kv_client_evict",
        bug: 1,
        buggy: "The KV client evicts a closing stream's regions when its region worker exits, so a region handed over late is orphaned and the changefeed's checkpoint stops (lag climbs 1 s/s).",
        fixed: "Regions are evicted only after both stream loops joined, pending ones included (tiflow#9597), so every region is re-requested and the checkpoint moves on.",
        values: ("on_worker_exit", "after_join"),
        other_fixed: &[],
    },
    ToggleInfo {
        key: "cdc.sink_close",
        bug: 3,
        buggy: "The owner closes a failed changefeed's Kafka producer inside its tick, waiting 10 s per client while no broker answers, so every other changefeed's checkpoint stalls.",
        fixed: "As shipped (tiflow#5186): the producer closes in the background and the sink counts as closed at once, with no closing state, so a retry may start a second producer while the first still closes; the owner keeps ticking.",
        values: ("sync", "async"),
        other_fixed: &[(
            "async_closing_state",
            "The design of tiflow#4249, never merged: the close runs in the background too, but the sink and processor stay closing until it is done and the changefeed is not restarted meanwhile.",
        )],
    },
    ToggleInfo {
        key: "cdc.processor_close_on_session_loss",
        bug: 2,
        buggy: "A capture whose etcd session ended closes its processors only after every capture goroutine exits (the owner resign times out after 5 s), so its old sinks still write.",
        fixed: "The processors close as soon as the session is done (tiflow#9396).",
        values: ("deferred", "immediate"),
        other_fixed: &[],
    },
    ToggleInfo {
        key: "cdc.capture_remove_delay",
        bug: 2,
        buggy: "The owner removes a capture whose key vanished at once (0s) and re-adds its tables elsewhere while the old processors may still write.",
        fixed: "The owner waits max(TTL/2, 5 s) before removing the capture, so its processors have closed first.",
        values: ("0s", "5s"),
        other_fixed: &[],
    },
];

/// Whether toggle `t` (index into [`TOGGLES`]) is on its buggy side in `s`. The remove delay
/// is a duration: any delay shorter than the fixed side's 5 s counts as buggy.
pub fn toggle_is_buggy(s: &Scenario, t: usize) -> bool {
    let g = &s.toggles;
    match t {
        0 => g.tikv_unreachable_broadcast == UnreachableBroadcast::OncePerDisconnect,
        1 => g.cdc_kv_client_evict == KvClientEvict::OnWorkerExit,
        2 => g.cdc_sink_close == SinkClose::Sync,
        3 => g.cdc_processor_close_on_session_loss == ProcessorCloseOnSessionLoss::Deferred,
        _ => g.cdc_capture_remove_delay.0 < CaptureRemoveDelay::default().0,
    }
}

/// Sets toggle `t` to its buggy or its fixed value.
pub fn set_toggle_buggy(s: &mut Scenario, t: usize, buggy: bool) {
    let g = &mut s.toggles;
    match t {
        0 => {
            g.tikv_unreachable_broadcast = if buggy {
                UnreachableBroadcast::OncePerDisconnect
            } else {
                UnreachableBroadcast::RepeatIfNewMessages
            }
        }
        1 => {
            g.cdc_kv_client_evict = if buggy {
                KvClientEvict::OnWorkerExit
            } else {
                KvClientEvict::AfterJoin
            }
        }
        2 => {
            g.cdc_sink_close = if buggy {
                SinkClose::Sync
            } else {
                SinkClose::Async
            }
        }
        3 => {
            g.cdc_processor_close_on_session_loss = if buggy {
                ProcessorCloseOnSessionLoss::Deferred
            } else {
                ProcessorCloseOnSessionLoss::Immediate
            }
        }
        _ => {
            g.cdc_capture_remove_delay = if buggy {
                CaptureRemoveDelay(Dur(0))
            } else {
                CaptureRemoveDelay::default()
            }
        }
    }
}

/// The value toggle `t` has in `s`, as the scenario file writes it.
pub fn toggle_value(s: &Scenario, t: usize) -> String {
    match t {
        0 if s.toggles.tikv_unreachable_broadcast == UnreachableBroadcast::EveryFailedAttempt => {
            "every_failed_attempt".to_string()
        }
        2 if s.toggles.cdc_sink_close == SinkClose::AsyncClosingState => {
            "async_closing_state".to_string()
        }
        4 => s.toggles.cdc_capture_remove_delay.0.to_string(),
        _ if toggle_is_buggy(s, t) => TOGGLES[t].values.0.to_string(),
        _ => TOGGLES[t].values.1.to_string(),
    }
}

/// Sets toggle `t` to the fixed value named `value` (`values.1` or one of `other_fixed`);
/// false, changing nothing, when `t` has no fixed value of that name.
pub fn set_toggle_fixed_as(s: &mut Scenario, t: usize, value: &str) -> bool {
    match (t, value) {
        (0, "every_failed_attempt") => {
            s.toggles.tikv_unreachable_broadcast = UnreachableBroadcast::EveryFailedAttempt
        }
        (2, "async") => s.toggles.cdc_sink_close = SinkClose::Async,
        (2, "async_closing_state") => s.toggles.cdc_sink_close = SinkClose::AsyncClosingState,
        _ if value == TOGGLES[t].values.1 => set_toggle_buggy(s, t, false),
        _ => return false,
    }
    true
}

/// The toggles of bug `bug`, as indices into [`TOGGLES`].
pub fn toggles_of(bug: usize) -> impl Iterator<Item = usize> {
    (0..TOGGLES.len()).filter(move |&t| TOGGLES[t].bug == bug)
}

/// Whether bug `bug` is present in `s`: any of its toggles is on the buggy side.
pub fn is_buggy(s: &Scenario, bug: usize) -> bool {
    toggles_of(bug).any(|t| toggle_is_buggy(s, t))
}

/// Sets every toggle of bug `bug` to buggy or fixed.
pub fn set_buggy(s: &mut Scenario, bug: usize, buggy: bool) {
    for t in toggles_of(bug) {
        set_toggle_buggy(s, t, buggy);
    }
}

/// The compare twin of `s` for bug `bug`: a buggy side becomes wholly fixed, a fixed one wholly
/// buggy, so the twin always differs from `s` in that bug's toggles.
pub fn flipped(s: &Scenario, bug: usize) -> Scenario {
    let mut twin = s.clone();
    set_buggy(&mut twin, bug, !is_buggy(s, bug));
    twin
}

/// The bug a scenario is "about": the one its `issue` names, else the first one set to buggy,
/// else the first. Compare mode flips this one by default.
pub fn primary_toggle(s: &Scenario) -> usize {
    let issue = s.issue.as_deref().unwrap_or("");
    let number = issue.rsplit('#').next().unwrap_or("");
    let named = (!number.is_empty())
        .then(|| {
            BUGS.iter()
                .position(|b| b.issue.ends_with(&format!("#{number}")))
        })
        .flatten();
    named
        .or_else(|| (0..BUGS.len()).find(|&b| is_buggy(s, b)))
        .unwrap_or(0)
}

/// `owner/repo#n` (or `repo#n` for the two repos we model) as an issue URL.
pub fn issue_url(issue: &str) -> Option<String> {
    let (repo, n) = issue.split_once('#')?;
    if n.is_empty() || !n.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let repo = match repo {
        "tikv" => "tikv/tikv",
        "tiflow" => "pingcap/tiflow",
        r if r.contains('/') => r,
        _ => return None,
    };
    Some(format!("https://github.com/{repo}/issues/{n}"))
}

#[cfg(test)]
#[path = "toggles_tests.rs"]
mod tests;
