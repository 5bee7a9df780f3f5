//! The Kafka cluster's state: brokers, one topic per Kafka changefeed with its partitions and
//! consumer, and the producers' close jobs. What moves it is in `kafka/mod.rs`.

use std::collections::BTreeMap;

use faultline_sim::{Network, NodeId, NodeState, SimTime};

use crate::config::{KafkaConfig, KafkaProtocol, SinkType};
use crate::ids::CfIx;
use crate::out::Reach;
use crate::sink::kafka::codec::KafkaMessage;
use crate::sink::kafka::consumer::Consumer;

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
    /// The node running the close (its clients die with that process).
    pub node: NodeId,
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
    /// Close jobs by (changefeed, side, job id). The job id tells apart two closes of the
    /// same changefeed on the same side: with the shipped async close (tiflow#5186) a retried
    /// changefeed may fail and close its second producer while the first is still closing.
    pub closing: BTreeMap<(CfIx, u32, u64), CloseJob>,
    /// The id of the next close job.
    pub next_close_job: u64,
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
            next_close_job: 1,
        }
    }

    /// Producers of changefeed `cf` still closing, on any side.
    pub fn closing_producers(&self, cf: CfIx) -> usize {
        self.closing.keys().filter(|(c, _, _)| *c == cf).count()
    }

    /// Producers of changefeed `cf` still closing on one side ([`OWNER_SIDE`] or a capture).
    pub fn closing_producers_on(&self, cf: CfIx, side: u32) -> usize {
        self.closing
            .keys()
            .filter(|(c, s, _)| *c == cf && *s == side)
            .count()
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
    pub fn any_broker_reachable(&self, reach: Reach, node: NodeId) -> bool {
        self.brokers
            .iter()
            .any(|b| reach.is_up(*b) && reach.reachable(node, *b))
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

#[cfg(test)]
mod tests {
    use faultline_sim::SimDuration;

    use super::*;

    /// Three brokers, one Kafka changefeed with three partitions.
    fn cluster() -> (KafkaCluster, Network) {
        let mut net = Network::new((SimDuration::from_micros(500), SimDuration::from_millis(1)));
        let cfg = KafkaConfig {
            brokers: 3,
            partitions: 3,
            ..KafkaConfig::default()
        };
        let sinks = [SinkType::Kafka(KafkaProtocol::OpenProtocol)];
        let k = KafkaCluster::new(&cfg, &sinks, 8, &mut net, &["cf".to_string()]);
        (k, net)
    }

    #[test]
    fn a_partition_is_led_by_its_first_live_replica_and_offline_when_none_lives() {
        let (mut k, _) = cluster();
        assert_eq!([k.leader(0, 0), k.leader(0, 1)], [Some(0), Some(1)]);
        k.on_node_state(k.brokers[0], NodeState::Crashed);
        assert_eq!(k.leader(0, 0), Some(1), "the next replica takes over");
        assert_eq!(k.offline_partitions(), 0);
        k.on_node_state(k.brokers[1], NodeState::Crashed);
        k.on_node_state(k.brokers[2], NodeState::Crashed);
        assert_eq!(k.offline_partitions(), 3);
        k.on_node_state(k.brokers[2], NodeState::Up);
        assert_eq!(k.leader(0, 0), Some(2));
        k.on_node_state(k.brokers[2], NodeState::Paused);
        assert_eq!(
            k.leader(0, 0),
            Some(2),
            "a paused broker stays leader (no controller)"
        );
    }

    #[test]
    fn a_producer_needs_a_live_broker_it_can_reach() {
        let (k, mut net) = cluster();
        let capture = net.add_node("cdc-1", "cdc");
        assert!(k.any_broker_reachable(Reach::new(&net), capture));
        for b in &k.brokers {
            net.update_link(capture, *b, |l| l.up = false);
        }
        assert!(!k.any_broker_reachable(Reach::new(&net), capture));
        net.update_link(capture, k.brokers[1], |l| l.up = true);
        assert!(k.any_broker_reachable(Reach::new(&net), capture));
        net.node_mut(k.brokers[1]).state = NodeState::Crashed;
        assert!(!k.any_broker_reachable(Reach::new(&net), capture));
    }
}
