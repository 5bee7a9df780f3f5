//! Kafka: brokers `kafka-1..N`, one topic per Kafka changefeed with partitions led by brokers,
//! TiCDC's producer (table sinks send row batches to partition leaders and wait for acks; the
//! owner's sink broadcasts the changefeed checkpoint as resolved events), the producer's
//! close (its clients one after another, each blocking while no broker answers), and a
//! consumer per topic that rebuilds rows for the consistency check.
//!
//! Simplifications: a partition's replicas are the next `min(3, N)` brokers; the leader is
//! the first replica whose process is alive (no controller, no ISR, no unclean election, no
//! data loss: acks = all with instant replication). A partitioned leader stays leader. A broker
//! appends and acknowledges on receipt. Rows go to partition `table % partitions` (TiCDC's
//! `table` dispatcher hashes the table name).

pub mod close;
#[cfg(test)]
mod close_tests;
pub mod cluster;
pub mod codec;
pub mod consumer;
#[cfg(test)]
mod produce_tests;

use faultline_sim::{Level, NodeId, SimTime};

use crate::cdc::Cdc;
use crate::msg::{CdcMsg, CdcTimer, CfIx, RowChange};
use crate::out::{Cx, Out};
use crate::ts::Ts;

pub use close::fmt_secs;
use close::Closer;
pub use cluster::{CloseJob, KafkaCluster, Partition, Topic, CLIENTS, NO_BROKERS, OWNER_SIDE};
use codec::{encode_resolved, encode_row, KafkaMessage};

impl Cdc {
    fn topic_partitions(&self, cf: CfIx) -> u32 {
        self.kafka.topics[cf as usize]
            .as_ref()
            .map_or(1, |t| t.partitions.len() as u32)
    }

    /// A table sink sends a batch to its partition's leader and waits up to the producer
    /// timeout for the ack (with no leader alive it only waits).
    pub(crate) fn kafka_produce(
        &mut self,
        out: &mut Out,
        c: u32,
        cf: CfIx,
        table: u32,
        batch: u64,
        rows: Vec<RowChange>,
    ) {
        let node = self.captures[c as usize];
        let Some(topic) = self.kafka.topics[cf as usize].as_ref() else {
            return;
        };
        let protocol = topic.protocol;
        let partition = table % self.topic_partitions(cf);
        let messages: Vec<KafkaMessage> = rows
            .iter()
            .map(|r| encode_row(protocol, &self.ks, r))
            .collect();
        if let Some(leader) = self.kafka.leader(cf, partition) {
            let to = self.kafka.brokers[leader as usize];
            out.send_ordered(
                node,
                to,
                CdcMsg::KafkaProduce {
                    cf,
                    partition,
                    batch: Some((c, table, batch)),
                    messages,
                },
            );
        }
        out.set_timer(
            node,
            self.cfg.kafka.timeout,
            CdcTimer::KafkaSendTimeout { cf, table, batch },
        );
    }

    /// The owner's sink writes the changefeed checkpoint to every partition (TiCDC's
    /// `emitCheckpointTs`), so consumers know what is complete.
    pub(crate) fn kafka_emit_checkpoint(&mut self, out: &mut Out, node: NodeId, cf: CfIx, ts: Ts) {
        let Some(topic) = self.kafka.topics[cf as usize].as_ref() else {
            return;
        };
        let protocol = topic.protocol;
        for partition in 0..self.topic_partitions(cf) {
            if let Some(leader) = self.kafka.leader(cf, partition) {
                let to = self.kafka.brokers[leader as usize];
                out.send_ordered(
                    node,
                    to,
                    CdcMsg::KafkaProduce {
                        cf,
                        partition,
                        batch: None,
                        messages: vec![encode_resolved(protocol, ts)],
                    },
                );
            }
        }
    }

    /// A broker receives a produce request: the partition leader appends and acknowledges;
    /// anyone else answers NotLeaderForPartition, which the producer only sees as a timeout.
    pub(crate) fn kafka_on_produce(
        &mut self,
        out: &mut Out,
        broker: NodeId,
        cf: CfIx,
        partition: u32,
        batch: Option<(u32, u32, u64)>,
        messages: Vec<KafkaMessage>,
    ) {
        let Some(b) = self.kafka.brokers.iter().position(|n| *n == broker) else {
            return;
        };
        if self.kafka.leader(cf, partition) != Some(b as u32) {
            return;
        }
        let ks = self.ks.clone();
        let Some(topic) = self.kafka.topics[cf as usize].as_mut() else {
            return;
        };
        let p = &mut topic.partitions[partition as usize];
        for m in &messages {
            topic.consumer.on_message(&ks, partition, m);
        }
        p.offset += messages.len() as u64;
        p.last = messages.last().cloned();
        if let Some((c, table, batch)) = batch {
            out.send_ordered(
                broker,
                self.captures[c as usize],
                CdcMsg::KafkaAck { cf, table, batch },
            );
        }
    }

    /// The producer's ack reached the table sink at `now`: its checkpoint moves up (an ack of
    /// an earlier batch, after a timeout, is ignored).
    pub(crate) fn kafka_on_ack(
        &mut self,
        now: SimTime,
        to: NodeId,
        cf: CfIx,
        table: u32,
        batch: u64,
    ) {
        let Some(c) = self.captures.iter().position(|n| *n == to) else {
            return;
        };
        let Some(sink) = self.processors[c][cf as usize].tables.get_mut(&table) else {
            return;
        };
        if let Some((b, up_to, rows)) = sink.in_flight {
            if b == batch {
                sink.checkpoint = sink.checkpoint.max(up_to);
                sink.in_flight = None;
                self.watermarks[cf as usize].rows_per_sec.add(now, rows);
            }
        }
    }

    /// No ack within the producer timeout: the processor reports the error to the owner
    /// (through etcd in TiCDC; here directly).
    pub(crate) fn kafka_on_send_timeout(
        &mut self,
        out: &mut Out,
        node: NodeId,
        cf: CfIx,
        table: u32,
        batch: u64,
    ) {
        let Some(c) = self.captures.iter().position(|n| *n == node) else {
            return;
        };
        let stuck = self.processors[c][cf as usize]
            .tables
            .get(&table)
            .and_then(|s| s.in_flight)
            .is_some_and(|(b, _, _)| b == batch);
        let life = &mut self.life.feeds[cf as usize];
        if stuck && life.pending_error.is_none() {
            life.pending_error = Some(NO_BROKERS.to_string());
            let detail = format!(
                "changefeed={} error={NO_BROKERS}",
                self.cfg.changefeeds[cf as usize].id
            );
            out.log(Some(node), Level::Error, "processor meets an error", detail);
        }
    }

    /// Starts closing a Kafka producer on `node`. `side` is [`OWNER_SIDE`] or a capture.
    /// Returns true when the caller must wait for it (sync close).
    pub(crate) fn kafka_start_close(
        &mut self,
        cx: &mut Cx,
        node: NodeId,
        cf: CfIx,
        side: u32,
    ) -> bool {
        let blocking = self.cfg.sink_close.blocks();
        let who = Closer::new(node, (cf, &self.cfg.changefeeds[cf as usize].id), side);
        self.kafka.start_close(&self.cfg.kafka, cx, who, blocking);
        blocking
    }

    /// One client finished closing; close the next or finish. Returns the finished job.
    pub(crate) fn kafka_on_client_closed(
        &mut self,
        cx: &mut Cx,
        node: NodeId,
        cf: CfIx,
        side: u32,
        (job, client): (u64, u32),
    ) -> Option<CloseJob> {
        let who = Closer::new(node, (cf, &self.cfg.changefeeds[cf as usize].id), side);
        self.kafka
            .on_client_closed(&self.cfg.kafka, cx, who, (job, client))
    }
}
