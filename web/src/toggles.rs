//! What each behaviour toggle models: the upstream issue, the buggy and the fixed behaviour
//! in one sentence each. Shown in the inspector, the compare mode and the issue report.

use faultline_scenario::{KvClientEvict, Scenario, UnreachableBroadcast};

/// One modelled bug.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ToggleInfo {
    /// Key in `[toggles]`.
    pub key: &'static str,
    /// Upstream issue, `owner/repo#n`.
    pub issue: &'static str,
    /// Buggy behaviour, one sentence.
    pub buggy: &'static str,
    /// Fixed behaviour, one sentence.
    pub fixed: &'static str,
    /// Value names in scenario files: (buggy, fixed).
    pub values: (&'static str, &'static str),
}

/// Every toggle, in `[toggles]` order.
pub const TOGGLES: [ToggleInfo; 2] = [
    ToggleInfo {
        key: "tikv.unreachable_broadcast",
        issue: "tikv/tikv#14547",
        buggy: "StoreUnreachable is broadcast once per disconnect, so a late MsgAppend from the dead leader puts hibernated followers back to sleep and the region stays leaderless for minutes.",
        fixed: "The broadcast repeats after the backoff while the dead store's messages keep arriving (tikv#14574), so the followers wake and elect a leader within an election timeout.",
        values: ("once_per_disconnect", "repeat_if_new_messages"),
    },
    ToggleInfo {
        key: "cdc.kv_client_evict",
        issue: "pingcap/tiflow#9595",
        buggy: "The KV client evicts a closing stream's regions when its region worker exits, so a region handed over late is orphaned and the changefeed's checkpoint stops (lag climbs 1 s/s).",
        fixed: "Regions are evicted only after both stream loops joined, pending ones included (tiflow#9597), so every region is re-requested and the checkpoint moves on.",
        values: ("on_worker_exit", "after_join"),
    },
];

/// Whether toggle `i` is set to its buggy side in `s`.
pub fn is_buggy(s: &Scenario, i: usize) -> bool {
    match i {
        0 => s.toggles.tikv_unreachable_broadcast == UnreachableBroadcast::OncePerDisconnect,
        _ => s.toggles.cdc_kv_client_evict == KvClientEvict::OnWorkerExit,
    }
}

/// Sets toggle `i` to buggy or fixed.
pub fn set_buggy(s: &mut Scenario, i: usize, buggy: bool) {
    match i {
        0 => {
            s.toggles.tikv_unreachable_broadcast = if buggy {
                UnreachableBroadcast::OncePerDisconnect
            } else {
                UnreachableBroadcast::RepeatIfNewMessages
            }
        }
        _ => {
            s.toggles.cdc_kv_client_evict = if buggy {
                KvClientEvict::OnWorkerExit
            } else {
                KvClientEvict::AfterJoin
            }
        }
    }
}

/// The toggle a scenario is "about": the first one set to buggy, else the one whose issue the
/// scenario names, else the first. Compare mode flips this one by default.
pub fn primary_toggle(s: &Scenario) -> usize {
    if let Some(i) = (0..TOGGLES.len()).find(|&i| is_buggy(s, i)) {
        return i;
    }
    let issue = s.issue.as_deref().unwrap_or("");
    TOGGLES
        .iter()
        .position(|t| {
            !issue.is_empty() && t.issue.ends_with(issue.rsplit('/').next().unwrap_or(issue))
        })
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
mod tests {
    use super::*;
    use faultline_scenario::default_scenario;

    #[test]
    fn issue_links() {
        assert_eq!(
            issue_url("tikv/tikv#14547").as_deref(),
            Some("https://github.com/tikv/tikv/issues/14547")
        );
        assert_eq!(
            issue_url("tiflow#9595").as_deref(),
            Some("https://github.com/pingcap/tiflow/issues/9595")
        );
        assert_eq!(issue_url("nonsense"), None);
    }

    #[test]
    fn flip_round_trips() {
        let mut s = default_scenario();
        for i in 0..TOGGLES.len() {
            let b = is_buggy(&s, i);
            set_buggy(&mut s, i, !b);
            assert_eq!(is_buggy(&s, i), !b);
        }
    }
}
