//! The event log: notable things the model reports, in the real systems' wording.
//!
//! The log keeps the most recent entries (bounded, so a long run cannot exhaust memory) and an
//! exact count per message for the whole run, which expectations check.

use std::collections::{BTreeMap, VecDeque};

use crate::network::NodeId;
use crate::time::SimTime;

/// Severity, as in TiKV and TiCDC logs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Routine.
    Info,
    /// Something is off.
    Warn,
    /// Something failed.
    Error,
}

impl Level {
    /// Upper-case name as the real logs print it.
    pub fn name(self) -> &'static str {
        match self {
            Level::Info => "INFO",
            Level::Warn => "WARN",
            Level::Error => "ERROR",
        }
    }
}

/// One log line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogEntry {
    /// When.
    pub at: SimTime,
    /// Which node logged it (`None` for the simulator itself, e.g. an injected fault).
    pub node: Option<NodeId>,
    /// Severity.
    pub level: Level,
    /// Fixed message text (the real log's wording); expectations match on it.
    pub message: &'static str,
    /// Fields such as `region_id=12 store=3`.
    pub detail: String,
}

/// Most recent entries plus whole-run counts.
#[derive(Clone, Debug)]
pub struct EventLog {
    entries: VecDeque<LogEntry>,
    capacity: usize,
    dropped: u64,
    counts: BTreeMap<&'static str, u64>,
}

impl EventLog {
    /// A log that keeps at most `capacity` entries.
    pub fn new(capacity: usize) -> Self {
        EventLog {
            entries: VecDeque::new(),
            capacity: capacity.max(1),
            dropped: 0,
            counts: BTreeMap::new(),
        }
    }

    /// Appends an entry, forgetting the oldest when full.
    pub fn push(&mut self, entry: LogEntry) {
        *self.counts.entry(entry.message).or_insert(0) += 1;
        if self.entries.len() == self.capacity {
            self.entries.pop_front();
            self.dropped += 1;
        }
        self.entries.push_back(entry);
    }

    /// Kept entries, oldest first.
    pub fn entries(&self) -> impl DoubleEndedIterator<Item = &LogEntry> + ExactSizeIterator {
        self.entries.iter()
    }

    /// Entries pushed over the whole run, kept or forgotten.
    pub fn total(&self) -> u64 {
        self.entries.len() as u64 + self.dropped
    }

    /// Entries forgotten because the log was full.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// How many times over the whole run a message containing `text` was logged.
    pub fn count_containing(&self, text: &str) -> u64 {
        self.counts
            .iter()
            .filter(|(m, _)| m.contains(text))
            .map(|(_, c)| *c)
            .sum()
    }

    /// Whole-run counts per message, in message order.
    pub fn counts(&self) -> &BTreeMap<&'static str, u64> {
        &self.counts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_but_counts_everything() {
        let mut log = EventLog::new(2);
        for i in 0..5 {
            log.push(LogEntry {
                at: SimTime(i),
                node: None,
                level: Level::Info,
                message: "tick",
                detail: String::new(),
            });
        }
        assert_eq!(log.entries().len(), 2);
        assert_eq!(log.dropped(), 3);
        assert_eq!(log.count_containing("tick"), 5);
        assert_eq!(log.count_containing("nope"), 0);
    }
}
