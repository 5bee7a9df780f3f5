//! Downstream MySQL as the kernel sees it: a batch arrives and waits its write latency, is
//! applied (unless its connection closed since, or its COMMIT is held up by a cut), and its
//! acknowledgement moves the table sink's checkpoint. The database state is
//! [`crate::mysql::Downstream`]; connections and held commits are in [`crate::transport`].

use faultline_sim::{Kernel, NodeId};

use crate::cdc::Cdc;
use crate::change::RowChange;
use crate::ids::CfIx;
use crate::msg::{CdcMsg, CdcTimer};
use crate::stack::Stack;

impl Cdc {
    /// A batch from capture node `from` reaches MySQL (node `to`): it is applied after the write latency, one at a time per changefeed.
    pub(crate) fn mysql_on_write(
        &mut self,
        k: &mut Kernel<Stack>,
        from: NodeId,
        to: NodeId,
        cf: CfIx,
        (table, batch): (u32, u64),
        rows: Vec<RowChange>,
    ) {
        let Some(c) = self.capture_index(from) else {
            return;
        };
        let d = &mut self.downstream[cf as usize];
        let at = d.busy_until.max(k.now()).plus(self.cfg.mysql_write_latency);
        d.busy_until = at;
        d.queued.insert((c, table, batch), rows);
        k.set_timer(
            to,
            at.since(k.now()),
            CdcTimer::MysqlApplied {
                capture: c,
                cf,
                table,
                batch,
            },
        );
    }

    /// MySQL acknowledged a batch: the table sink's checkpoint moves up to it.
    pub(crate) fn mysql_on_ack(
        &mut self,
        k: &mut Kernel<Stack>,
        to: NodeId,
        cf: CfIx,
        table: u32,
        batch: u64,
    ) {
        let Some(c) = self.capture_index(to) else {
            return;
        };
        let now_sec = k.now().0 / 1_000_000;
        let sink = self.processors[c as usize][cf as usize]
            .tables
            .get_mut(&table);
        if let Some(sink) = sink {
            if let Some((b, up_to, rows)) = sink.in_flight {
                if b == batch {
                    sink.checkpoint = sink.checkpoint.max(up_to);
                    sink.in_flight = None;
                    sink.in_flight_rows.clear();
                    *self.feeds[cf as usize]
                        .rows_by_sec
                        .entry(now_sec)
                        .or_insert(0) += rows;
                }
            }
        }
    }

    /// A batch's write latency passed on MySQL (node `node`): it commits, rolls back or waits for its COMMIT.
    pub(crate) fn mysql_on_applied(
        &mut self,
        k: &mut Kernel<Stack>,
        node: NodeId,
        capture: u32,
        cf: CfIx,
        (table, batch): (u32, u64),
    ) {
        // A transaction of a connection its capture has closed since never commits:
        // MySQL rolls it back when it sees the connection end.
        if self.mysql_conn_closed(capture, cf, batch) {
            self.downstream[cf as usize]
                .queued
                .remove(&(capture, table, batch));
            return;
        }
        // The transaction commits only once its COMMIT arrives (`transport.rs`).
        if self.mysql_commit_parked(k, capture, cf, table, batch) {
            return;
        }
        let d = &mut self.downstream[cf as usize];
        if let Some(rows) = d.queued.remove(&(capture, table, batch)) {
            for r in rows {
                d.rows[r.key as usize] = crate::upstream::RowVersion {
                    value: r.value,
                    commit_ts: r.commit_ts,
                };
            }
            // The OK packet waits in MySQL's socket while the way back is cut (TCP
            // retransmits it after the heal); dropping it left the batch in flight
            // forever and froze the table's checkpoint.
            let to_capture = self.captures[capture as usize];
            if k.net.link(node, to_capture).up {
                k.send_ordered(node, to_capture, CdcMsg::MysqlAck { cf, table, batch });
            } else {
                self.transport.parked_acks.push((capture, cf, table, batch));
            }
        }
    }
}
