//! A processor's tick on one capture: per table, the sink writes what the puller has resolved
//! up to the barrier (the changefeed's resolved ts as the owner's heartbeat last brought it,
//! and with redo what the redo log made durable) to MySQL or Kafka, and the table watermarks
//! go to the owner.

use faultline_sim::Kernel;

use crate::cdc::Cdc;
use crate::ids::CfIx;
use crate::msg::CdcMsg;
use crate::stack::Stack;

impl Cdc {
    /// A processor tick on capture `c`: table states progress, then each changefeed's
    /// lifecycle runs and, while its processor runs, its sinks.
    pub(crate) fn processor_tick(&mut self, k: &mut Kernel<Stack>, c: u32) {
        self.processor_table_progress(c);
        for cf in 0..self.cfg.changefeeds.len() {
            if self.processor_lifecycle(k, c, cf as CfIx) {
                self.life.processor_blocked[c as usize] = true;
                return;
            }
            if self.life.processors[c as usize][cf] == crate::lifecycle::ProcessorState::Running {
                self.sink_tick(k, c, cf);
            }
        }
    }

    /// One running processor's sinks: each primary table writes what is resolved up to the
    /// barrier (one batch in flight at a time), and every table's watermarks go to the owner.
    /// The watermarks sent are the puller's, not capped by the barrier: the owner computes
    /// the changefeed's resolved ts from them, which in turn moves the barrier.
    fn sink_tick(&mut self, k: &mut Kernel<Stack>, c: u32, cf: usize) {
        let node = self.captures[c as usize];
        let owner = self.owner_node_for(c);
        let kafka = self.cfg.changefeeds[cf].sink.is_kafka();
        let mut kafka_batches = Vec::new();
        let redo_barrier = self.watermarks[cf].barrier(self.cfg.changefeeds[cf].redo);
        let barrier = self.processors[c as usize][cf].barrier.min(redo_barrier);
        let mut status = Vec::new();
        self.processors[c as usize][cf].refresh_frontiers(&self.ks);
        let tables: Vec<u32> = self.processors[c as usize][cf]
            .tables
            .keys()
            .copied()
            .collect();
        for table in tables {
            // Only the primary writes; a secondary pulls without writing (scheduler v3).
            // A new batch waits while the MySQL connection is cut (the write would block).
            let writable = self.may_write(c, cf as CfIx, table) && self.mysql_reachable(k, c);
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
                    kafka_batches.push((table, batch, rows));
                } else if let Some(mysql) = self.mysql {
                    sink.in_flight = Some((batch, upto, rows.len() as u64));
                    sink.in_flight_rows = rows.clone();
                    p.next_batch += 1;
                    k.send_ordered(
                        node,
                        mysql,
                        CdcMsg::MysqlWrite {
                            cf: cf as CfIx,
                            table,
                            batch,
                            rows,
                            up_to: upto,
                        },
                    );
                }
            }
            let sink = &p.tables[&table];
            status.push((table, sink.checkpoint, resolved));
        }
        for (table, batch, rows) in kafka_batches {
            self.kafka_produce(k, c, cf as CfIx, table, batch, rows);
        }
        if !status.is_empty() {
            k.send_ordered(
                node,
                owner,
                CdcMsg::TableStatus {
                    cf: cf as CfIx,
                    tables: status,
                },
            );
        }
    }
}
