//! Downstream MySQL as the kernel sees it: a batch arrives and waits its write latency, is
//! applied (unless its connection closed since, or its COMMIT is held up by a cut), and its
//! acknowledgement moves the table sink's checkpoint. The database state is
//! [`crate::sink::mysql::Downstream`]; connections and held commits are in [`crate::sink::tcp`].

use faultline_sim::{NodeId, SimTime};

use crate::cdc::Cdc;
use crate::change::RowChange;
use crate::ids::CfIx;
use crate::out::Cx;
use crate::sink::mysql::Commit;

impl Cdc {
    /// A batch from capture node `from` reaches MySQL (node `to`): it is applied after the
    /// write latency on one of the capture's `worker-count` connections.
    pub(crate) fn mysql_on_write(
        &mut self,
        cx: &mut Cx,
        from: NodeId,
        to: NodeId,
        cf: CfIx,
        (table, batch): (u32, u64),
        rows: Vec<RowChange>,
    ) {
        let Some(c) = self.capture_index(from) else {
            return;
        };
        let conns = crate::sink::mysql::Connections {
            latency: self.cfg.mysql_write_latency,
            workers: self.cfg.mysql_worker_count,
        };
        let d = &mut self.downstream[cf as usize];
        d.on_write(
            (cx.now, conns),
            &mut cx.out,
            to,
            (c, cf, table, batch),
            rows,
        );
    }

    /// MySQL's acknowledgement of a batch reached its capture at `now`: the table sink's
    /// checkpoint moves up to it.
    pub(crate) fn mysql_on_ack(
        &mut self,
        now: SimTime,
        to: NodeId,
        cf: CfIx,
        table: u32,
        batch: u64,
    ) {
        let Some(c) = self.capture_index(to) else {
            return;
        };
        let sink = self.processors[c as usize][cf as usize]
            .tables
            .get_mut(&table);
        if let Some(rows) = sink.and_then(|sink| sink.on_ack(batch)) {
            self.watermarks[cf as usize].rows_per_sec.add(now, rows);
        }
    }

    /// A batch's write latency passed on MySQL (node `node`): it commits, rolls back or waits for its COMMIT.
    pub(crate) fn mysql_on_applied(
        &mut self,
        cx: &mut Cx,
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
        if self.mysql_commit_parked(cx, capture, cf, table, batch) {
            return;
        }
        let ends = (node, self.captures[capture as usize]);
        let key = (capture, cf, table, batch);
        let d = &mut self.downstream[cf as usize];
        if d.commit(cx.reach, &mut cx.out, ends, key) == Commit::AckHeld {
            self.transport.parked_acks.push(key);
        }
    }
}
