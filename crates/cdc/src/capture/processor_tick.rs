//! A processor's tick on one capture: per table, the sink writes what the puller has resolved
//! up to the barrier (the changefeed's resolved ts as the owner's heartbeat last brought it,
//! and with redo what the redo log made durable) to MySQL or Kafka, and the table watermarks
//! go to the owner.

use faultline_sim::NodeId;

use crate::cdc::Cdc;
use crate::change::RowChange;
use crate::ids::CfIx;
use crate::msg::{CdcMsg, CdcTimer};
use crate::out::Cx;
use crate::ts::Ts;

impl Cdc {
    /// The `ProcessorTick` timer of capture node `node`: a tick, then the next one armed,
    /// unless a sync producer close now blocks the processor manager (its end re-arms it).
    pub(crate) fn on_processor_tick(&mut self, cx: &mut Cx, node: NodeId) {
        let mut blocked = false;
        if let Some(c) = self.capture_index(node) {
            self.processor_tick(cx, c);
            blocked = self.life.managers[c as usize].blocked;
        }
        if !blocked {
            cx.out
                .set_timer(node, self.cfg.owner_tick, CdcTimer::ProcessorTick);
        }
    }

    /// A processor tick on capture `c` at `now`: table states progress, then each
    /// changefeed's lifecycle runs and, while its processor runs, its sinks.
    pub(crate) fn processor_tick(&mut self, cx: &mut Cx, c: u32) {
        self.processor_table_progress(c);
        for cf in 0..self.cfg.changefeeds.len() {
            if self.processor_lifecycle(cx, c, cf as CfIx) {
                self.life.managers[c as usize].blocked = true;
                return;
            }
            if self.life.managers[c as usize].states[cf]
                == crate::owner::lifecycle::ProcessorState::Running
            {
                self.sink_tick(cx, c, cf);
                self.resolve_stale_locks(cx, c, cf);
            }
        }
    }

    /// One running processor's sinks: each primary table writes what is resolved up to the
    /// barrier (one batch in flight at a time), and every table's watermarks go to the owner.
    /// The watermarks sent are the puller's, not capped by the barrier: the owner computes
    /// the changefeed's resolved ts from them, which in turn moves the barrier.
    fn sink_tick(&mut self, cx: &mut Cx, c: u32, cf: usize) {
        let owner = self.owner_node_for(c);
        let written = self.write_tables(cx, c, cf);
        let out = &mut cx.out;
        for (table, batch, rows) in written.kafka {
            self.kafka_produce(out, c, cf as CfIx, table, batch, rows);
        }
        if !written.status.is_empty() {
            let status = CdcMsg::TableStatus {
                cf: cf as CfIx,
                tables: written.status,
            };
            out.send_ordered(self.captures[c as usize], owner, status);
        }
    }

    /// The write half of [`Cdc::sink_tick`]: each primary table without a batch in flight
    /// takes its rows up to the barrier; a MySQL batch goes to `out`, a Kafka one is returned
    /// for the producer. A table with nothing new moves its checkpoint up to the barrier.
    pub(crate) fn write_tables(&mut self, cx: &mut Cx, c: u32, cf: usize) -> Written {
        let (reach, out) = (cx.reach, &mut cx.out);
        let node = self.captures[c as usize];
        let kafka = self.cfg.changefeeds[cf].sink.is_kafka();
        let mut written = Written::default();
        let redo_barrier = self.watermarks[cf].barrier(self.cfg.changefeeds[cf].redo);
        let barrier = self.processors[c as usize][cf].barrier.min(redo_barrier);
        self.processors[c as usize][cf].refresh_frontiers(&self.ks);
        let tables: Vec<u32> = self.processors[c as usize][cf]
            .tables
            .keys()
            .copied()
            .collect();
        for table in tables {
            // Only the primary writes; a secondary pulls without writing (scheduler v3).
            // A new batch waits while the MySQL connection is cut (the write would block).
            let writable = self.may_write(c, cf as CfIx, table) && self.mysql_reachable(reach, c);
            let p = &mut self.processors[c as usize][cf];
            let resolved = p.frontier(&self.ks, table).resolved;
            let upto = resolved.min(barrier);
            let batch = p.next_batch;
            let sink = p.tables.get_mut(&table).expect("listed");
            if sink.in_flight.is_none() && writable {
                let rows = sink.take_until(upto);
                if rows.is_empty() {
                    sink.checkpoint = sink.checkpoint.max(upto);
                } else if kafka {
                    sink.in_flight = Some((batch, upto, rows.len() as u64));
                    p.next_batch += 1;
                    written.kafka.push((table, batch, rows));
                } else if let Some(mysql) = self.mysql {
                    sink.in_flight = Some((batch, upto, rows.len() as u64));
                    sink.in_flight_rows = rows.clone();
                    p.next_batch += 1;
                    let write = CdcMsg::MysqlWrite {
                        cf: cf as CfIx,
                        table,
                        batch,
                        rows,
                        up_to: upto,
                    };
                    out.send_ordered(node, mysql, write);
                }
            }
            written
                .status
                .push((table, p.tables[&table].checkpoint, resolved));
        }
        written
    }
}

/// What [`Cdc::write_tables`] leaves for the caller: the Kafka batches to produce and every
/// table's watermarks for the owner.
#[derive(Debug, Default)]
pub(crate) struct Written {
    /// `(table, batch, rows)` per Kafka batch.
    pub(crate) kafka: Vec<(u32, u64, Vec<RowChange>)>,
    /// `(table, checkpoint, resolved)` per table, the puller's resolved ts uncapped.
    pub(crate) status: Vec<(u32, Ts, Ts)>,
}

#[cfg(test)]
#[path = "processor_tick_tests.rs"]
mod tests;
