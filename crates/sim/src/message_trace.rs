//! A bounded record of delivered messages, for the message log and the space-time (Lamport)
//! diagram. Off by default: labelling every message costs time at scale.

use std::collections::VecDeque;

use crate::network::NodeId;
use crate::time::SimTime;

/// One delivered message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MessageRecord {
    /// When it was sent.
    pub sent: SimTime,
    /// When it was handled.
    pub delivered: SimTime,
    /// Sender.
    pub from: NodeId,
    /// Receiver.
    pub to: NodeId,
    /// What it was (`Model::describe_msg`).
    pub label: String,
}

/// The most recent deliveries.
#[derive(Clone, Debug, Default)]
pub struct MessageTrace {
    capacity: usize,
    records: VecDeque<MessageRecord>,
}

impl MessageTrace {
    /// Starts recording, keeping at most `capacity` records (0 turns recording off).
    pub fn set_capacity(&mut self, capacity: usize) {
        self.capacity = capacity;
        while self.records.len() > capacity {
            self.records.pop_front();
        }
    }

    /// True while recording.
    pub fn enabled(&self) -> bool {
        self.capacity > 0
    }

    /// Adds a delivery, forgetting the oldest when full.
    pub fn record(
        &mut self,
        sent: SimTime,
        delivered: SimTime,
        from: NodeId,
        to: NodeId,
        label: String,
    ) {
        if self.records.len() == self.capacity {
            self.records.pop_front();
        }
        self.records.push_back(MessageRecord {
            sent,
            delivered,
            from,
            to,
            label,
        });
    }

    /// Recorded deliveries, oldest first.
    pub fn records(&self) -> impl DoubleEndedIterator<Item = &MessageRecord> + ExactSizeIterator {
        self.records.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn off_by_default_and_bounded() {
        let mut t = MessageTrace::default();
        assert!(!t.enabled());
        t.set_capacity(2);
        for i in 0..3 {
            t.record(
                SimTime(i),
                SimTime(i + 1),
                NodeId(0),
                NodeId(1),
                format!("m{i}"),
            );
        }
        let labels: Vec<&str> = t.records().map(|r| r.label.as_str()).collect();
        assert_eq!(labels, ["m1", "m2"]);
    }
}
