//! The event log (the systems' own wording, from the kernel's log) and the recorded messages,
//! with the filters the log view offers.

use faultline_scenario::Run;
use faultline_sim::NodeId;
use serde::{Deserialize, Serialize};

/// One log line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogRow {
    /// When, in simulated microseconds.
    pub at_us: u64,
    /// Node name; empty for the simulator itself (injected faults).
    pub node: String,
    /// Node kind (`tikv`, `pd`, `cdc`, `mysql`); `sim` for the simulator.
    pub kind: String,
    /// `INFO`, `WARN` or `ERROR`.
    pub level: String,
    /// The message, in the real log's wording.
    pub message: String,
    /// Fields such as `region_id=12`.
    pub detail: String,
}

/// The log at the cursor.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogVm {
    /// Kept entries, oldest first.
    pub rows: Vec<LogRow>,
    /// Older entries the bounded log forgot.
    pub dropped: u64,
    /// Every node name, for the node filter.
    pub nodes: Vec<String>,
    /// Every node kind, for the kind filter.
    pub kinds: Vec<String>,
}

/// What the log view shows; empty fields do not filter.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogFilter {
    /// Only this node.
    pub node: String,
    /// Only nodes of this kind.
    pub kind: String,
    /// Only this level or worse (`WARN` shows warnings and errors).
    pub min_level: String,
    /// Case-insensitive text in the message or detail.
    pub text: String,
}

fn level_rank(name: &str) -> u8 {
    match name {
        "WARN" => 1,
        "ERROR" => 2,
        _ => 0,
    }
}

impl LogFilter {
    /// True if `row` passes every set filter.
    pub fn matches(&self, row: &LogRow) -> bool {
        (self.node.is_empty() || row.node == self.node)
            && (self.kind.is_empty() || row.kind == self.kind)
            && level_rank(&row.level) >= level_rank(&self.min_level)
            && (self.text.is_empty()
                || contains_ci(&row.message, &self.text)
                || contains_ci(&row.detail, &self.text))
    }
}

fn contains_ci(hay: &str, needle: &str) -> bool {
    hay.to_lowercase().contains(&needle.to_lowercase())
}

fn node_names(run: &Run, id: Option<NodeId>) -> (String, String) {
    match id.and_then(|id| run.world.kernel.net.nodes().get(id.0 as usize)) {
        Some(n) => (n.name.clone(), n.kind.clone()),
        None => (String::new(), "sim".to_string()),
    }
}

/// The log entries kept so far (the run is at the cursor, so nothing later exists).
pub fn log_vm(run: &Run) -> LogVm {
    let log = &run.world.kernel.log;
    let rows = log
        .entries()
        .map(|e| {
            let (node, kind) = node_names(run, e.node);
            LogRow {
                at_us: e.at.as_micros(),
                node,
                kind,
                level: e.level.name().to_string(),
                message: e.message.to_string(),
                detail: e.detail.clone(),
            }
        })
        .collect();
    let nodes = run.world.kernel.net.nodes();
    let mut kinds: Vec<String> = nodes.iter().map(|n| n.kind.clone()).collect();
    kinds.push("sim".to_string());
    kinds.sort();
    kinds.dedup();
    LogVm {
        rows,
        dropped: log.dropped(),
        nodes: nodes.iter().map(|n| n.name.clone()).collect(),
        kinds,
    }
}

/// One delivered message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MessageRow {
    /// Sent, in simulated microseconds.
    pub sent_us: u64,
    /// Handled by the receiver.
    pub delivered_us: u64,
    /// Sender name.
    pub from: String,
    /// Receiver name.
    pub to: String,
    /// What it was.
    pub label: String,
}

/// The recorded messages at the cursor.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MessagesVm {
    /// False when recording is off (`kernel.messages.set_capacity(n)` turns it on).
    pub enabled: bool,
    /// Deliveries, oldest first.
    pub rows: Vec<MessageRow>,
}

/// The recorded deliveries of the last `window_us` before the cursor. The record may hold
/// older ones (how far back depends on how the cursor got there: playing records all along,
/// a seek only from its lead-in); the window makes the rows a function of the cursor alone.
pub fn messages_vm(run: &Run, window_us: u64) -> MessagesVm {
    let trace = &run.world.kernel.messages;
    let name = |id: NodeId| node_names(run, Some(id)).0;
    let now = run.now().as_micros();
    MessagesVm {
        enabled: trace.enabled(),
        rows: trace
            .records()
            .filter(|m| m.delivered.as_micros().saturating_add(window_us) > now)
            .map(|m| MessageRow {
                sent_us: m.sent.as_micros(),
                delivered_us: m.delivered.as_micros(),
                from: name(m.from),
                to: name(m.to),
                label: m.label.clone(),
            })
            .collect(),
    }
}

/// The same filter applied to messages: node matches either end, text the label.
pub fn message_matches(f: &LogFilter, m: &MessageRow) -> bool {
    (f.node.is_empty() || m.from == f.node || m.to == f.node)
        && (f.text.is_empty() || contains_ci(&m.label, &f.text))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(node: &str, kind: &str, level: &str, message: &str) -> LogRow {
        LogRow {
            at_us: 0,
            node: node.into(),
            kind: kind.into(),
            level: level.into(),
            message: message.into(),
            detail: "region_id=7".into(),
        }
    }

    #[test]
    fn filters_combine() {
        let r = row(
            "tikv-2",
            "tikv",
            "WARN",
            "leader missing longer than abnormal",
        );
        assert!(LogFilter::default().matches(&r));
        let f = |node: &str, kind: &str, lvl: &str, text: &str| LogFilter {
            node: node.into(),
            kind: kind.into(),
            min_level: lvl.into(),
            text: text.into(),
        };
        assert!(f("tikv-2", "tikv", "WARN", "LEADER MISSING").matches(&r));
        assert!(
            f("", "", "", "region_id=7").matches(&r),
            "detail is searched"
        );
        assert!(!f("tikv-1", "", "", "").matches(&r));
        assert!(!f("", "cdc", "", "").matches(&r));
        assert!(!f("", "", "ERROR", "").matches(&r));
    }
}
