//! The TiCDC model's state: upstream workload and TiKV CDC endpoints, captures with their
//! processors, the owner, and downstream MySQL or Kafka. It names only state types; the
//! handlers (`impl Cdc` in the file of each mechanism) run inside the full
//! [`Stack`](crate::stack::Stack), and `model.rs` routes every input to them.

use faultline_sim::{Network, NodeId, SimRng};

use crate::capture::capture_session::CaptureSession;
use crate::capture::kvclient::KvClient;
use crate::capture::processor::Processor;
use crate::config::CdcConfig;
use crate::endpoint::store_endpoint::Endpoint;
use crate::etcd::Etcd;
use crate::ids::CfIx;
use crate::keyspace::Keyspace;
use crate::owner::lifecycle::Lifecycle;
use crate::owner::scheduler::Scheduler;
use crate::owner::watermarks::FeedWatermarks;
use crate::sink::kafka::cluster::KafkaCluster;
use crate::sink::mysql::Downstream;
use crate::sink::tcp::Transport;
use crate::ts::{Ts, Tso};
use crate::upstream::ground_truth::Upstream;
use crate::upstream::pd_client_state::PdClients;
use crate::upstream::workload::Workload;

/// The TiCDC model state.
#[derive(Clone, Debug)]
pub struct Cdc {
    /// Configuration.
    pub cfg: CdcConfig,
    /// Row and region layout.
    pub ks: Keyspace,
    /// PD (TSO, region heartbeats' view, etcd).
    pub pd: NodeId,
    /// The workload's client (`client-1`, TiDB's role): it reaches PD and TiKV over links.
    pub client: NodeId,
    /// TiKV store nodes.
    pub stores: Vec<NodeId>,
    /// Capture nodes `cdc-1..`.
    pub captures: Vec<NodeId>,
    /// Downstream MySQL node.
    pub mysql: Option<NodeId>,
    /// Upstream rows and locks.
    pub upstream: Upstream,
    /// PD's timestamp oracle (served at `pd-1`, see `pd_client.rs`).
    pub tso: Tso,
    /// The PD clients: the workload client's TSO and region cache, each store's TSO.
    pub pd_clients: PdClients,
    /// The workload.
    pub workload: Workload,
    /// CDC endpoint per store.
    pub endpoints: Vec<Endpoint>,
    /// Processors: `[capture][changefeed]`.
    pub processors: Vec<Vec<Processor>>,
    /// The owner's watermarks per changefeed (checkpoint, resolved ts, rows per second);
    /// each changefeed's lifecycle (state, sink, errors) is `life.feeds`.
    pub watermarks: Vec<FeedWatermarks>,
    /// Downstream database per changefeed.
    pub downstream: Vec<Downstream>,
    /// Start ts of every changefeed.
    pub start_ts: Ts,
    /// Regions ever handed to an exited worker.
    pub orphan_events: u64,
    /// EpochNotMatch errors the KV clients got on their subscriptions (a subscribed region
    /// split): the `epoch_not_match` metric.
    pub epoch_not_match: u64,
    /// `ResolveLock` requests the captures' lock resolvers sent (`capture/lock_resolver.rs`):
    /// the `resolve_lock_requests` metric.
    pub resolve_lock_requests: u64,
    /// Kafka brokers, topics, consumers and producer closes.
    pub kafka: KafkaCluster,
    /// Lifecycle of the owner loop, changefeeds, sinks and processors.
    pub life: Lifecycle,
    /// etcd inside PD: leases, capture keys, the owner key.
    pub etcd: Etcd,
    /// Each capture's session and its processor-side table states.
    pub sessions: Vec<CaptureSession>,
    /// The owner's scheduler v3 state (owner memory: rebuilt by a new owner).
    pub sched: Scheduler,
    /// Changefeeds paused by an operator (admin state kept in etcd).
    pub paused: Vec<bool>,
    /// TCP behaviour of the TiKV -> capture event streams.
    pub transport: Transport,
    /// Jitter of goroutine scheduling in the KV client (its own seeded stream).
    pub(crate) rng: SimRng,
    /// ReadIndex requests the endpoints asked for, waiting for the Stack to hand them to TiKV.
    pub(crate) read_requests: crate::endpoint::store_endpoint::ReadRequests,
}

impl Cdc {
    /// Builds the model, adding `cdc-1..cdc-N` and `mysql-1` to the network (none if there are
    /// no captures).
    pub fn new(
        cfg: &CdcConfig,
        regions: u32,
        net: &mut Network,
        pd: NodeId,
        stores: Vec<NodeId>,
        seed: u64,
    ) -> Self {
        let ks = Keyspace::new(
            cfg.workload.tables.max(1),
            cfg.workload.rows_per_table.max(1),
            regions,
        );
        let captures: Vec<NodeId> = (1..=cfg.captures)
            .map(|i| net.add_node(&format!("cdc-{i}"), "cdc"))
            .collect();
        let mysql = (cfg.captures > 0).then(|| net.add_node("mysql-1", "mysql"));
        // The workload client runs only with TiCDC (see `init`); without captures it is
        // never added, so a TiKV-only topology keeps its nodes.
        let store_count = stores.len();
        let client = if cfg.captures > 0 {
            net.add_node("client-1", "client")
        } else {
            pd
        };
        let sinks: Vec<_> = cfg.changefeeds.iter().map(|c| c.sink).collect();
        let ids: Vec<String> = cfg.changefeeds.iter().map(|c| c.id.clone()).collect();
        let kafka = KafkaCluster::new(&cfg.kafka, &sinks, ks.keys(), net, &ids);
        let life = Lifecycle::new(captures.len(), cfg.changefeeds.len(), seed);
        let processors = (0..captures.len())
            .map(|_| {
                cfg.changefeeds
                    .iter()
                    .map(|_| Processor::new(KvClient::new(cfg.kv_client_evict)))
                    .collect()
            })
            .collect();
        Cdc {
            upstream: Upstream::new(ks.keys(), regions),
            workload: Workload::new(cfg.workload.clone(), SimRng::stream(seed, "cdc.workload")),
            endpoints: vec![Endpoint::default(); stores.len()],
            watermarks: vec![FeedWatermarks::default(); cfg.changefeeds.len()],
            downstream: vec![Downstream::new(ks.keys()); cfg.changefeeds.len()],
            processors,
            cfg: cfg.clone(),
            ks,
            pd,
            stores,
            captures,
            mysql,
            tso: Tso::default(),
            pd_clients: PdClients::new(store_count),
            client,
            start_ts: Ts::at(faultline_sim::SimTime::ZERO, 0),
            orphan_events: 0,
            epoch_not_match: 0,
            resolve_lock_requests: 0,
            kafka,
            life,
            etcd: Etcd::default(),
            sessions: vec![Default::default(); cfg.captures as usize],
            sched: Scheduler::default(),
            paused: vec![false; cfg.changefeeds.len()],
            transport: Default::default(),
            rng: SimRng::stream(seed, "cdc.goroutines"),
            read_requests: Default::default(),
        }
    }

    /// True when TiCDC is part of the run.
    pub fn enabled(&self) -> bool {
        !self.captures.is_empty()
    }

    /// The capture (0-based) the owner's scheduler has as the table's primary, if any.
    pub fn table_primary(&self, cf: CfIx, table: u32) -> Option<u32> {
        self.sched.primary(cf, table).map(|(c, _)| c)
    }

    /// The capture holding `table` in the first changefeed, 0 when none does (kept for the
    /// views written against the static assignment; prefer [`Cdc::table_primary`]).
    pub fn table_capture(&self, table: u32) -> u32 {
        self.table_primary(0, table).unwrap_or(0)
    }

    /// Tables a changefeed replicates.
    pub fn cf_tables(&self, cf: CfIx) -> std::ops::Range<u32> {
        let limit = self.cfg.changefeeds[cf as usize]
            .tables
            .unwrap_or(self.ks.tables);
        0..limit.min(self.ks.tables)
    }

    /// MySQL was killed: what it held in memory and every connection's batch in flight are lost.
    pub(crate) fn mysql_crashed(&mut self) {
        for d in &mut self.downstream {
            d.queued.clear();
        }
        self.transport.parked.clear();
        self.transport.parked_acks.clear();
        // Every connection to the dead MySQL breaks: the batches in flight fail and are
        // written again once MySQL is back (the sink retries from the table checkpoint).
        // Without this a batch lost with MySQL stayed in flight forever and its table's
        // checkpoint never moved again.
        for procs in &mut self.processors {
            for p in procs.iter_mut() {
                for sink in p.tables.values_mut() {
                    if !sink.in_flight_rows.is_empty() {
                        sink.fail_in_flight();
                    }
                }
            }
        }
    }

    /// Changefeed id by index.
    pub fn cf_id(&self, cf: CfIx) -> &str {
        &self.cfg.changefeeds[cf as usize].id
    }

    pub(crate) fn store_ix(&self, n: NodeId) -> Option<u32> {
        self.stores.iter().position(|s| *s == n).map(|i| i as u32)
    }
}
