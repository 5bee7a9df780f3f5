//! Downstream MySQL: applies each batch after a write latency on one of the writing capture's
//! connections for the changefeed, last write wins (as `REPLACE INTO` does), then
//! acknowledges. The messages that reach it are wired in `mysql_sink.rs`.
//!
//! Connections as upstream: each capture's MySQL sink for a changefeed opens `worker-count`
//! (16) connections and runs one worker per connection (tiflow `pkg/sink/mysql/config.go`,
//! `DefaultWorkerCount`; `cdc/sink/dmlsink/txn/txn_dml_sink.go`, `newSink`); its conflict
//! detector hands a txn to any worker unless it conflicts with one in flight. A table sink
//! here has one batch in flight at a time, so a capture's batches never conflict and one
//! goes to the connection free first. Simplified: all of a capture's connections share one
//! ordered stream to MySQL (`tcp.rs`), and a batch is one write latency whatever its size.

use std::collections::BTreeMap;

use faultline_sim::{NodeId, SimDuration, SimTime};

use crate::change::RowChange;
use crate::msg::{CdcMsg, CdcTimer};
use crate::out::{Out, Reach};
use crate::sink::tcp::ParkedCommit;
use crate::upstream::ground_truth::RowVersion;

/// What became of a batch whose write latency passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Commit {
    /// Applied; its acknowledgement is on the way to the capture.
    Acked,
    /// Applied; its acknowledgement waits for the cut way back to the capture.
    AckHeld,
    /// Not queued (rolled back or lost with MySQL): nothing to apply.
    Gone,
}

/// How a batch is written: the write latency, on one of `workers` connections per capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Connections {
    /// Write latency per batch.
    pub latency: SimDuration,
    /// Connections per capture (`worker-count`).
    pub workers: u32,
}

/// One changefeed's downstream database.
#[derive(Clone, Debug)]
pub struct Downstream {
    /// Rows as MySQL has them.
    pub rows: Vec<RowVersion>,
    /// When each of a capture's connections is free again, by capture.
    pub busy_until: BTreeMap<u32, Vec<SimTime>>,
    /// Batches received, not yet applied: (capture, table, batch) -> rows.
    pub queued: BTreeMap<(u32, u32, u64), Vec<RowChange>>,
}

impl Downstream {
    /// A downstream holding the same initial data as upstream.
    pub fn new(keys: u32) -> Self {
        Downstream {
            rows: vec![RowVersion::default(); keys as usize],
            busy_until: BTreeMap::new(),
            queued: BTreeMap::new(),
        }
    }

    /// A batch of capture `c` reaches MySQL node `mysql`: it is queued and applied after the
    /// write latency on the capture's connection free first (the lowest on a tie), after the
    /// batches before it there (the `MysqlApplied` timer written to `out`).
    pub fn on_write(
        &mut self,
        (now, conns): (SimTime, Connections),
        out: &mut Out,
        mysql: NodeId,
        (capture, cf, table, batch): ParkedCommit,
        rows: Vec<RowChange>,
    ) {
        let lanes = self
            .busy_until
            .entry(capture)
            .or_insert_with(|| vec![SimTime::ZERO; conns.workers.max(1) as usize]);
        let (lane, free) = lanes
            .iter()
            .copied()
            .enumerate()
            .min_by_key(|(i, t)| (*t, *i))
            .expect("at least one connection");
        let at = free.max(now).plus(conns.latency);
        lanes[lane] = at;
        self.queued.insert((capture, table, batch), rows);
        let timer = CdcTimer::MysqlApplied {
            capture,
            cf,
            table,
            batch,
        };
        out.set_timer(mysql, at.since(now), timer);
    }

    /// A queued batch commits: its rows are applied, and the OK packet goes back from `mysql`
    /// to `capture_node` over the ordered connection. While that way back is cut the OK
    /// packet waits in MySQL's socket (TCP retransmits it after the heal): dropping it would
    /// leave the batch in flight forever and freeze the table's checkpoint.
    pub fn commit(
        &mut self,
        reach: Reach,
        out: &mut Out,
        (mysql, capture_node): (NodeId, NodeId),
        (capture, cf, table, batch): ParkedCommit,
    ) -> Commit {
        let Some(rows) = self.queued.remove(&(capture, table, batch)) else {
            return Commit::Gone;
        };
        for r in rows {
            self.rows[r.key as usize] = RowVersion {
                value: r.value,
                commit_ts: r.commit_ts,
            };
        }
        if !reach.link_up(mysql, capture_node) {
            return Commit::AckHeld;
        }
        out.send_ordered(mysql, capture_node, CdcMsg::MysqlAck { cf, table, batch });
        Commit::Acked
    }
}

#[cfg(test)]
mod tests {
    use faultline_sim::Network;

    use super::*;
    use crate::out::Command;
    use crate::ts::Ts;

    const LATENCY: SimDuration = SimDuration::from_millis(5);

    fn row(key: u32, value: u64) -> RowChange {
        RowChange {
            key,
            value,
            start_ts: Ts(1),
            commit_ts: Ts(value + 1),
        }
    }

    fn net() -> (Network, NodeId, NodeId) {
        let mut net = Network::new((SimDuration::from_micros(500), SimDuration::from_millis(2)));
        let mysql = net.add_node("mysql-1", "mysql");
        let capture = net.add_node("cdc-1", "cdc");
        (net, mysql, capture)
    }

    /// The `MysqlApplied` timers in `out`, as (delay, batch).
    fn applied_timers(out: &Out, mysql: NodeId) -> Vec<(SimDuration, u64)> {
        out.commands()
            .iter()
            .map(|c| match c {
                Command::SetTimer {
                    node,
                    after,
                    timer: CdcTimer::MysqlApplied { batch, .. },
                } if *node == mysql => (*after, *batch),
                other => panic!("only MysqlApplied timers of MySQL, got {other:?}"),
            })
            .collect()
    }

    /// Writes batches `(capture, table, batch)` at one instant on `workers` connections.
    fn write_all(workers: u32, batches: &[(u32, u32, u64)]) -> (Downstream, Out, NodeId) {
        let (_, mysql, _) = net();
        let mut d = Downstream::new(4);
        let mut out = Out::default();
        let conns = Connections {
            latency: LATENCY,
            workers,
        };
        for (i, (capture, table, batch)) in batches.iter().enumerate() {
            let rows = vec![row(i as u32 % 4, 1)];
            let parked = (*capture, 0, *table, *batch);
            d.on_write((SimTime(1_000_000), conns), &mut out, mysql, parked, rows);
        }
        (d, out, mysql)
    }

    #[test]
    fn batches_on_one_connection_are_applied_one_after_another() {
        let (d, out, mysql) = write_all(1, &[(0, 1, 7), (0, 2, 8)]);
        let twice = SimDuration(2 * LATENCY.0);
        assert_eq!(applied_timers(&out, mysql), vec![(LATENCY, 7), (twice, 8)]);
        assert_eq!(d.queued.len(), 2, "nothing is applied before its latency");
        assert_eq!(d.rows[0], RowVersion::default());
    }

    #[test]
    fn a_captures_batches_run_on_its_connections_at_once_and_each_capture_has_its_own() {
        // Capture 0 has two connections: two batches at once, the third after the first.
        // Capture 1's batch does not wait for capture 0's.
        let (_, out, mysql) = write_all(2, &[(0, 1, 7), (0, 2, 8), (0, 3, 9), (1, 1, 4)]);
        let twice = SimDuration(2 * LATENCY.0);
        let want = vec![(LATENCY, 7), (LATENCY, 8), (twice, 9), (LATENCY, 4)];
        assert_eq!(applied_timers(&out, mysql), want);
    }

    #[test]
    fn a_commit_applies_the_rows_and_acks_unless_the_way_back_is_cut() {
        // (way back to the capture up, batch queued, outcome, ack sent)
        let cases = [
            (true, true, Commit::Acked, true),
            (false, true, Commit::AckHeld, false),
            (true, false, Commit::Gone, false),
        ];
        for (way_back_up, queued, want, acked) in cases {
            let (mut net, mysql, capture) = net();
            net.update_link(mysql, capture, |l| l.up = way_back_up);
            let mut d = Downstream::new(4);
            if queued {
                d.queued.insert((0, 3, 9), vec![row(2, 5)]);
            }
            let mut out = Out::default();
            let got = d.commit(Reach::new(&net), &mut out, (mysql, capture), (0, 0, 3, 9));
            assert_eq!(got, want, "way back up: {way_back_up}, queued: {queued}");
            let ack = Command::SendOrdered {
                from: mysql,
                to: capture,
                msg: CdcMsg::MysqlAck {
                    cf: 0,
                    table: 3,
                    batch: 9,
                },
            };
            let want_out: Vec<Command> = if acked { vec![ack] } else { vec![] };
            assert_eq!(out.commands(), want_out.as_slice());
            let applied = d.rows[2].value == 5;
            assert_eq!(
                applied, queued,
                "a queued batch is applied whatever the way back"
            );
            assert!(d.queued.is_empty());
        }
    }

    #[test]
    fn only_the_ack_of_the_batch_in_flight_moves_the_table_checkpoint() {
        let mut sink = crate::capture::processor::TableSink::new(Ts(10));
        sink.in_flight = Some((4, Ts(50), 3));
        sink.in_flight_rows = vec![row(0, 1)];
        assert_eq!(sink.on_ack(3), None, "a stale ack of an earlier batch");
        assert_eq!(sink.checkpoint, Ts(10));
        assert_eq!(sink.on_ack(4), Some(3));
        assert_eq!(sink.checkpoint, Ts(50));
        assert!(sink.in_flight.is_none() && sink.in_flight_rows.is_empty());
        assert_eq!(sink.on_ack(4), None, "acked once");
    }
}
