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

#[cfg(test)]
mod close_tests;
pub mod codec;
pub mod consumer;

use std::collections::BTreeMap;

use faultline_sim::{Kernel, Level, Network, NodeId, NodeState, SimDuration, SimTime};

use crate::cdc::Cdc;
use crate::config::{KafkaConfig, KafkaProtocol, SinkClose, SinkType};
use crate::msg::{CdcMsg, CdcTimer, CfIx, RowChange};
use crate::stack::Stack;
use crate::ts::Ts;

use codec::{encode_resolved, encode_row, KafkaMessage};
use consumer::Consumer;

/// The `side` of a close job run by the owner (other values are capture indexes).
pub const OWNER_SIDE: u32 = u32::MAX;

/// Clients of a producer in the order `Close` shuts them (TiCDC 5.x/6.0).
pub const CLIENTS: [&str; 4] = [
    "sarama client",
    "async client",
    "sync client",
    "admin client",
];

/// What a send or an initialisation fails with when no broker answers.
pub const NO_BROKERS: &str =
    "[CDC:ErrKafkaNewSaramaProducer]kafka: client has run out of available brokers to talk to (Is your cluster reachable?)";

/// One partition of a topic.
#[derive(Clone, Debug)]
pub struct Partition {
    /// Broker indexes holding a replica, preferred leader first.
    pub replicas: Vec<u32>,
    /// Messages appended (the log end offset).
    pub offset: u64,
    /// The last message appended, for the UI.
    pub last: Option<KafkaMessage>,
}

/// A changefeed's topic.
#[derive(Clone, Debug)]
pub struct Topic {
    /// Topic name (the changefeed id).
    pub name: String,
    /// Encoding.
    pub protocol: KafkaProtocol,
    /// Partitions.
    pub partitions: Vec<Partition>,
    /// The consumer reading it.
    pub consumer: Consumer,
}

/// A producer close in progress: `client` is closing since `client_started`.
#[derive(Clone, Debug)]
pub struct CloseJob {
    /// When the close began.
    pub started: SimTime,
    /// Index into [`CLIENTS`] of the client closing now.
    pub client: u32,
    /// When that client's close began.
    pub client_started: SimTime,
    /// The caller waits for it (sync close).
    pub blocking: bool,
}

/// The Kafka cluster and the producers' close jobs.
#[derive(Clone, Debug, Default)]
pub struct KafkaCluster {
    /// Broker nodes `kafka-1..N`.
    pub brokers: Vec<NodeId>,
    /// Topic per changefeed (`None` for MySQL changefeeds).
    pub topics: Vec<Option<Topic>>,
    /// Close jobs by (changefeed, side).
    pub closing: BTreeMap<(CfIx, u32), CloseJob>,
    /// Per broker: its process is alive (not killed).
    pub alive: Vec<bool>,
}

impl KafkaCluster {
    /// Adds the broker nodes and one topic per Kafka changefeed.
    pub fn new(
        cfg: &KafkaConfig,
        sinks: &[SinkType],
        keys: u32,
        net: &mut Network,
        names: &[String],
    ) -> Self {
        let brokers: Vec<NodeId> = (1..=cfg.brokers)
            .map(|i| net.add_node(&format!("kafka-{i}"), "kafka"))
            .collect();
        let n = cfg.brokers.max(1);
        let rf = n.min(3);
        let topics = sinks
            .iter()
            .zip(names)
            .map(|(sink, name)| match sink {
                SinkType::Kafka(protocol) if !brokers.is_empty() => Some(Topic {
                    name: name.clone(),
                    protocol: *protocol,
                    partitions: (0..cfg.partitions.max(1))
                        .map(|p| Partition {
                            replicas: (0..rf).map(|r| (p + r) % n).collect(),
                            offset: 0,
                            last: None,
                        })
                        .collect(),
                    consumer: Consumer::new(keys, cfg.partitions),
                }),
                _ => None,
            })
            .collect();
        KafkaCluster {
            alive: vec![true; brokers.len()],
            brokers,
            topics,
            closing: BTreeMap::new(),
        }
    }

    /// The leader of a partition: its first replica whose broker process is alive.
    pub fn leader(&self, cf: CfIx, partition: u32) -> Option<u32> {
        let topic = self.topics.get(cf as usize)?.as_ref()?;
        let p = topic.partitions.get(partition as usize)?;
        p.replicas.iter().copied().find(|b| self.alive[*b as usize])
    }

    /// Tracks broker processes being killed and restarted.
    pub fn on_node_state(&mut self, node: NodeId, state: NodeState) {
        if let Some(b) = self.brokers.iter().position(|n| *n == node) {
            match state {
                NodeState::Crashed => self.alive[b] = false,
                NodeState::Up => self.alive[b] = true,
                NodeState::Paused => {}
            }
        }
    }

    /// True when `node` can reach some live broker (metadata can be fetched).
    pub fn any_broker_reachable(&self, k: &Kernel<Stack>, node: NodeId) -> bool {
        self.brokers
            .iter()
            .any(|b| k.net.node(*b).state == NodeState::Up && k.reachable(node, *b))
    }

    /// Partitions whose leader is gone.
    pub fn offline_partitions(&self) -> usize {
        let mut n = 0;
        for (cf, t) in self.topics.iter().enumerate() {
            if let Some(t) = t {
                n += (0..t.partitions.len() as u32)
                    .filter(|p| self.leader(cf as CfIx, *p).is_none())
                    .count();
            }
        }
        n
    }
}

impl Cdc {
    fn topic_partitions(&self, cf: CfIx) -> u32 {
        self.kafka.topics[cf as usize]
            .as_ref()
            .map_or(1, |t| t.partitions.len() as u32)
    }

    /// A table sink sends a batch to its partition's leader and waits up to the producer
    /// timeout for the ack.
    pub(crate) fn kafka_produce(
        &mut self,
        k: &mut Kernel<Stack>,
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
            k.send_ordered(
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
        k.set_timer(
            node,
            self.cfg.kafka.timeout,
            CdcTimer::KafkaSendTimeout { cf, table, batch },
        );
    }

    /// The owner's sink writes the changefeed checkpoint to every partition (TiCDC's
    /// `emitCheckpointTs`), so consumers know what is complete.
    pub(crate) fn kafka_emit_checkpoint(
        &mut self,
        k: &mut Kernel<Stack>,
        node: NodeId,
        cf: CfIx,
        ts: Ts,
    ) {
        let Some(topic) = self.kafka.topics[cf as usize].as_ref() else {
            return;
        };
        let protocol = topic.protocol;
        for partition in 0..self.topic_partitions(cf) {
            if let Some(leader) = self.kafka.leader(cf, partition) {
                let to = self.kafka.brokers[leader as usize];
                k.send_ordered(
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
        k: &mut Kernel<Stack>,
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
            k.send_ordered(
                broker,
                self.captures[c as usize],
                CdcMsg::KafkaAck { cf, table, batch },
            );
        }
    }

    /// The producer's ack reached the table sink: its checkpoint moves up.
    pub(crate) fn kafka_on_ack(
        &mut self,
        k: &mut Kernel<Stack>,
        to: NodeId,
        cf: CfIx,
        table: u32,
        batch: u64,
    ) {
        let Some(c) = self.captures.iter().position(|n| *n == to) else {
            return;
        };
        let now_sec = k.now().0 / 1_000_000;
        let Some(sink) = self.processors[c][cf as usize].tables.get_mut(&table) else {
            return;
        };
        if let Some((b, up_to, rows)) = sink.in_flight {
            if b == batch {
                sink.checkpoint = sink.checkpoint.max(up_to);
                sink.in_flight = None;
                *self.feeds[cf as usize]
                    .rows_by_sec
                    .entry(now_sec)
                    .or_insert(0) += rows;
            }
        }
    }

    /// No ack within the producer timeout: the processor reports the error to the owner
    /// (through etcd in TiCDC; here directly).
    pub(crate) fn kafka_on_send_timeout(
        &mut self,
        k: &mut Kernel<Stack>,
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
            k.log(Some(node), Level::Error, "processor meets an error", detail);
        }
    }

    /// Starts closing a Kafka producer on `node`. `side` is [`OWNER_SIDE`] or a capture.
    /// Returns true when the caller must wait for it (sync close).
    pub(crate) fn kafka_start_close(
        &mut self,
        k: &mut Kernel<Stack>,
        node: NodeId,
        cf: CfIx,
        side: u32,
    ) -> bool {
        let blocking = self.cfg.sink_close == SinkClose::Sync;
        let now = k.now();
        self.kafka.closing.insert(
            (cf, side),
            CloseJob {
                started: now,
                client: 0,
                client_started: now,
                blocking,
            },
        );
        k.log(
            Some(node),
            Level::Info,
            "stop the kafka producer",
            format!(
                "changefeed={} role={} mode={}",
                self.cf_id(cf),
                role(side),
                if blocking { "sync" } else { "async" }
            ),
        );
        self.kafka_close_next_client(k, node, cf, side);
        blocking
    }

    fn kafka_close_next_client(
        &mut self,
        k: &mut Kernel<Stack>,
        node: NodeId,
        cf: CfIx,
        side: u32,
    ) {
        let after = if self.kafka.any_broker_reachable(k, node) {
            self.cfg.kafka.close_latency
        } else {
            // Sarama waits for its dial / read / write timeouts before giving up.
            self.cfg.kafka.timeout
        };
        let Some(job) = self.kafka.closing.get_mut(&(cf, side)) else {
            return;
        };
        job.client_started = k.now();
        let client = job.client;
        k.set_timer(
            node,
            after,
            CdcTimer::KafkaClientClosed { cf, side, client },
        );
    }

    /// One client finished closing; close the next or finish. Returns the finished job.
    pub(crate) fn kafka_on_client_closed(
        &mut self,
        k: &mut Kernel<Stack>,
        node: NodeId,
        cf: CfIx,
        side: u32,
        client: u32,
    ) -> Option<CloseJob> {
        let job = self.kafka.closing.get_mut(&(cf, side))?;
        if job.client != client {
            return None;
        }
        let took = k.now().since(job.client_started);
        let name = CLIENTS[client as usize % CLIENTS.len()];
        let timed_out = took >= self.cfg.kafka.timeout;
        let detail = format!(
            "changefeed={} role={} client={name} duration={}",
            self.cfg.changefeeds[cf as usize].id,
            role(side),
            fmt_secs(took)
        );
        if timed_out {
            k.log(
                Some(node),
                Level::Error,
                "close kafka client with error",
                detail,
            );
        } else {
            k.log(Some(node), Level::Info, "kafka client closed", detail);
        }
        job.client += 1;
        if job.client < self.cfg.kafka.clients {
            self.kafka_close_next_client(k, node, cf, side);
            return None;
        }
        let job = self.kafka.closing.remove(&(cf, side))?;
        let detail = format!(
            "changefeed={} role={} duration={}",
            self.cfg.changefeeds[cf as usize].id,
            role(side),
            fmt_secs(k.now().since(job.started))
        );
        k.log(Some(node), Level::Info, "kafka producer closed", detail);
        Some(job)
    }
}

fn role(side: u32) -> &'static str {
    if side == OWNER_SIDE {
        "owner"
    } else {
        "processor"
    }
}

/// Seconds with millisecond precision, as TiCDC's zap durations print.
pub fn fmt_secs(d: SimDuration) -> String {
    format!("{:.3}s", d.as_secs_f64())
}
