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
    /// Set by [`MessageTrace::record_from`]: every delivery after this time is recorded (or
    /// was, until the capacity forgot the oldest).
    since: Option<SimTime>,
}

impl MessageTrace {
    /// Starts recording, keeping at most `capacity` records (0 turns recording off and
    /// forgets the records). Who turns it on this way does not say since when the record is
    /// complete; see [`MessageTrace::record_from`].
    pub fn set_capacity(&mut self, capacity: usize) {
        if capacity == 0 || self.capacity == 0 {
            self.since = None;
        }
        self.capacity = capacity;
        while self.records.len() > capacity {
            self.records.pop_front();
        }
    }

    /// Turns recording on at `now` with room for `capacity` records, if it is off; a record
    /// already under way keeps its start.
    pub fn record_from(&mut self, capacity: usize, now: SimTime) {
        if self.capacity == 0 {
            self.set_capacity(capacity);
            self.since = Some(now);
        }
    }

    /// Whether the record holds the newest deliveries after `t` as recording from `t` would
    /// have kept them: it has recorded since `t` or earlier, or it is full (the capacity then
    /// kept only deliveries newer than any it is missing).
    pub fn covers_since(&self, t: SimTime) -> bool {
        self.enabled()
            && (self.since.is_some_and(|s| s <= t) || self.records.len() == self.capacity)
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

    #[test]
    fn a_record_covers_what_it_saw_from_its_start_or_when_full() {
        let mut t = MessageTrace::default();
        assert!(!t.covers_since(SimTime(0)), "off");
        t.record_from(2, SimTime(5));
        assert!(t.covers_since(SimTime(5)) && t.covers_since(SimTime(9)));
        assert!(
            !t.covers_since(SimTime(4)),
            "deliveries before 5 were not seen"
        );
        t.record_from(2, SimTime(7));
        assert!(
            t.covers_since(SimTime(5)),
            "a record under way keeps its start"
        );
        for i in 0..2 {
            t.record(
                SimTime(i),
                SimTime(6 + i),
                NodeId(0),
                NodeId(1),
                String::new(),
            );
        }
        assert!(
            t.covers_since(SimTime(0)),
            "full: the newest two, wherever it started"
        );
        t.set_capacity(0);
        t.set_capacity(3);
        assert!(
            !t.covers_since(SimTime(100)),
            "turned on without a start, and not full"
        );
    }
}
