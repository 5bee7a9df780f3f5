//! A Kafka consumer that rebuilds rows into its own downstream, like TiCDC's `kafka-consumer`
//! test tool: rows wait per partition until every partition's resolved ts passes them, then
//! they are applied in commit-ts order. Rows at or below a partition's resolved ts are
//! duplicates re-sent after a changefeed restart (at-least-once) and are dropped.
//!
//! Simplification: the consumer reads a message the moment a broker appends it (no consumer
//! group, no lag, not a node of its own).

use crate::keyspace::{Key, Keyspace};
use crate::sink::kafka::codec::{decode, Decoded, KafkaMessage};
use crate::sink::mysql::Downstream;
use crate::ts::Ts;
use crate::upstream::ground_truth::RowVersion;

/// Per-partition read state.
#[derive(Clone, Debug, Default)]
struct Cursor {
    resolved: Ts,
    pending: Vec<(Ts, Key, u64)>,
}

/// One topic's consumer.
#[derive(Clone, Debug)]
pub struct Consumer {
    /// Rows as the consumer has written them downstream.
    pub rows: Downstream,
    /// Everything at or below this is applied: min over partitions of the resolved ts.
    pub watermark: Ts,
    /// Messages read.
    pub consumed: u64,
    /// Duplicate rows dropped (commit ts at or below their partition's resolved ts).
    pub duplicates: u64,
    /// Messages that did not decode.
    pub decode_errors: u64,
    partitions: Vec<Cursor>,
}

impl Consumer {
    /// A consumer of a topic with `partitions` partitions, starting from the initial data.
    pub fn new(keys: u32, partitions: u32) -> Self {
        Consumer {
            rows: Downstream::new(keys),
            watermark: Ts::ZERO,
            consumed: 0,
            duplicates: 0,
            decode_errors: 0,
            partitions: vec![Cursor::default(); partitions.max(1) as usize],
        }
    }

    /// Reads one message of `partition`.
    pub fn on_message(&mut self, ks: &Keyspace, partition: u32, msg: &KafkaMessage) {
        self.consumed += 1;
        let Some(cur) = self.partitions.get_mut(partition as usize) else {
            return;
        };
        match decode(ks, msg) {
            Err(_) => self.decode_errors += 1,
            Ok(Decoded::Row {
                key,
                value,
                commit_ts,
            }) => {
                if commit_ts <= cur.resolved {
                    self.duplicates += 1;
                } else {
                    cur.pending.push((commit_ts, key, value));
                }
            }
            Ok(Decoded::Resolved(ts)) => {
                cur.resolved = cur.resolved.max(ts);
                self.flush();
            }
        }
    }

    fn flush(&mut self) {
        let global = self
            .partitions
            .iter()
            .map(|c| c.resolved)
            .min()
            .unwrap_or(Ts::ZERO);
        if global <= self.watermark {
            return;
        }
        let mut ready = Vec::new();
        for c in &mut self.partitions {
            let (now, later): (Vec<_>, Vec<_>) =
                c.pending.drain(..).partition(|(ts, _, _)| *ts <= global);
            c.pending = later;
            ready.extend(now);
        }
        ready.sort_unstable();
        for (commit_ts, key, value) in ready {
            self.rows.rows[key as usize] = RowVersion { value, commit_ts };
        }
        self.watermark = global;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::KafkaProtocol;
    use crate::msg::RowChange;
    use crate::sink::kafka::codec::{encode_resolved, encode_row};

    #[test]
    fn rows_wait_for_every_partition_and_duplicates_are_dropped() {
        let ks = Keyspace::new(2, 10, 2);
        let p = KafkaProtocol::OpenProtocol;
        let mut c = Consumer::new(ks.keys(), 2);
        let row = |key, ts| RowChange {
            key,
            value: ts,
            start_ts: Ts(ts - 1),
            commit_ts: Ts(ts),
        };
        c.on_message(&ks, 0, &encode_row(p, &ks, &row(3, 10)));
        c.on_message(&ks, 0, &encode_resolved(p, Ts(10)));
        assert_eq!(c.rows.rows[3].value, 0, "partition 1 has not resolved yet");
        c.on_message(&ks, 1, &encode_resolved(p, Ts(12)));
        assert_eq!(c.rows.rows[3].value, 10);
        assert_eq!(c.watermark, Ts(10));
        c.on_message(&ks, 0, &encode_row(p, &ks, &row(3, 10)));
        assert_eq!(c.duplicates, 1);
    }
}
