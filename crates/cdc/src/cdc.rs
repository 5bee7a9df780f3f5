//! The TiCDC model: upstream workload and TiKV CDC endpoints, captures with their processors,
//! the owner, and downstream MySQL. Its handlers run inside the full [`Stack`] and read the
//! Raft model's leader view.

use faultline_sim::{Kernel, Level, Network, NodeId, NodeState, SimDuration, SimRng};
use faultline_tikv::Cluster;

use crate::config::CdcConfig;
use crate::endpoint::{Endpoint, Subscriber};
use crate::endpoint_host::ScanRequest;
use crate::keyspace::Keyspace;
use crate::kvclient::KvClient;
use crate::msg::{CdcMsg, CdcTimer, CfIx, RegionEventKind};
use crate::mysql::Downstream;
use crate::owner::ChangefeedState;
use crate::processor::Processor;
use crate::stack::Stack;
use crate::ts::{Ts, Tso};
use crate::upstream::Upstream;
use crate::workload::Workload;

/// How long a killed TiKV takes to reset its connections (the capture sees the RST).
const RST_LATENCY: SimDuration = SimDuration::from_millis(1);

/// The TiCDC model state.
#[derive(Clone, Debug)]
pub struct Cdc {
    /// Configuration.
    pub cfg: CdcConfig,
    /// Row and region layout.
    pub ks: Keyspace,
    /// PD (TSO, workload client).
    pub pd: NodeId,
    /// TiKV store nodes.
    pub stores: Vec<NodeId>,
    /// Capture nodes `cdc-1..`.
    pub captures: Vec<NodeId>,
    /// Downstream MySQL node.
    pub mysql: Option<NodeId>,
    /// Upstream rows and locks.
    pub upstream: Upstream,
    /// PD's timestamp oracle.
    pub tso: Tso,
    /// The workload.
    pub workload: Workload,
    /// CDC endpoint per store.
    pub endpoints: Vec<Endpoint>,
    /// Processors: `[capture][changefeed]`.
    pub processors: Vec<Vec<Processor>>,
    /// The owner's changefeed states.
    pub feeds: Vec<ChangefeedState>,
    /// Downstream database per changefeed.
    pub downstream: Vec<Downstream>,
    /// Start ts of every changefeed.
    pub start_ts: Ts,
    /// Regions ever handed to an exited worker.
    pub orphan_events: u64,
    /// Kafka brokers, topics, consumers and producer closes.
    pub kafka: crate::kafka::KafkaCluster,
    /// Lifecycle of the owner loop, changefeeds, sinks and processors.
    pub life: crate::owner_loop::Lifecycle,
    /// etcd inside PD: leases, capture keys, the owner key.
    pub etcd: crate::etcd::Etcd,
    /// Each capture's session and its processor-side table states.
    pub sessions: Vec<crate::session::CaptureSession>,
    /// The owner's scheduler v3 state (owner memory: rebuilt by a new owner).
    pub sched: crate::scheduler::Scheduler,
    /// Changefeeds paused by an operator (admin state kept in etcd).
    pub paused: Vec<bool>,
    /// TCP behaviour of the TiKV -> capture event streams.
    pub transport: crate::transport::Transport,
    /// Jitter of goroutine scheduling in the KV client (its own seeded stream).
    pub(crate) rng: SimRng,
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
        let ks = Keyspace {
            tables: cfg.workload.tables.max(1),
            rows_per_table: cfg.workload.rows_per_table.max(1),
            regions,
        };
        let captures: Vec<NodeId> = (1..=cfg.captures)
            .map(|i| net.add_node(&format!("cdc-{i}"), "cdc"))
            .collect();
        let mysql = (cfg.captures > 0).then(|| net.add_node("mysql-1", "mysql"));
        let sinks: Vec<_> = cfg.changefeeds.iter().map(|c| c.sink).collect();
        let ids: Vec<String> = cfg.changefeeds.iter().map(|c| c.id.clone()).collect();
        let kafka = crate::kafka::KafkaCluster::new(&cfg.kafka, &sinks, ks.keys(), net, &ids);
        let life = crate::owner_loop::Lifecycle::new(captures.len(), cfg.changefeeds.len(), seed);
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
            feeds: vec![ChangefeedState::default(); cfg.changefeeds.len()],
            downstream: vec![Downstream::new(ks.keys()); cfg.changefeeds.len()],
            processors,
            cfg: cfg.clone(),
            ks,
            pd,
            stores,
            captures,
            mysql,
            tso: Tso::default(),
            start_ts: Ts::at(faultline_sim::SimTime::ZERO, 0),
            orphan_events: 0,
            kafka,
            life,
            etcd: crate::etcd::Etcd::default(),
            sessions: vec![Default::default(); cfg.captures as usize],
            sched: crate::scheduler::Scheduler::default(),
            paused: vec![false; cfg.changefeeds.len()],
            transport: Default::default(),
            rng: SimRng::stream(seed, "cdc.goroutines"),
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

    /// Arms the first timers and subscribes every table.
    pub fn init(&mut self, k: &mut Kernel<Stack>) {
        if !self.enabled() {
            return;
        }
        if self.cfg.workload.txns_per_sec > 0 {
            let gap = self.workload.gap_us();
            k.set_timer(self.pd, SimDuration(gap), CdcTimer::WorkloadTick);
        }
        for (i, s) in self.stores.clone().into_iter().enumerate() {
            let phase = SimDuration::from_millis(100 * i as u64 + 1);
            k.set_timer(
                s,
                SimDuration(self.cfg.min_ts_interval.0 + phase.0),
                CdcTimer::EndpointTick,
            );
        }
        self.sessions_init(k);
        for c in 0..self.captures.len() as u32 {
            self.start_capture(k, c);
        }
    }

    fn start_capture(&mut self, k: &mut Kernel<Stack>, c: u32) {
        let node = self.captures[c as usize];
        k.set_timer(node, self.cfg.owner_tick, CdcTimer::ProcessorTick);
        // Every capture runs the owner timers; only the elected owner acts on them.
        k.set_timer(node, self.cfg.owner_tick, CdcTimer::OwnerTick);
        k.set_timer(node, self.cfg.redo_flush_interval, CdcTimer::RedoFlush);
        self.session_start(k, c);
        self.lifecycle_capture_started(c);
    }

    /// Handles a TiCDC message: routing only; each message has its handler.
    // Long because it matches every message, one short arm each: a routing table reads
    // better whole than split.
    pub fn on_message(
        &mut self,
        k: &mut Kernel<Stack>,
        tikv: &Cluster,
        from: NodeId,
        to: NodeId,
        msg: CdcMsg,
    ) {
        match msg {
            CdcMsg::Register {
                cf,
                stream,
                region,
                request,
                checkpoint,
            } => {
                let (Some(s), Some(c)) = (self.store_ix(to), self.capture_index(from)) else {
                    return;
                };
                let sub = Subscriber {
                    capture: c,
                    cf,
                    stream,
                };
                let req = ScanRequest {
                    sub,
                    region,
                    request,
                    checkpoint,
                };
                self.endpoint_on_register(k, tikv, to, s, req);
            }
            CdcMsg::Events {
                cf,
                stream,
                events,
                seq,
            } => {
                let (Some(s), Some(c)) = (self.store_ix(from), self.capture_index(to)) else {
                    return;
                };
                if !self.stream_in_order(k, c, cf, s, stream, seq) {
                    return;
                }
                for e in &events {
                    if let RegionEventKind::Error(err) = &e.kind {
                        let detail =
                            format!("region_id={} store={} error={err:?}", e.region, s + 1);
                        k.log(Some(to), Level::Info, "region failed", detail);
                    }
                }
                let out = self.kv_input(c, cf, |kv, out| kv.on_events(s, stream, events, out));
                self.apply_kv(k, c, cf, out);
            }
            CdcMsg::MysqlWrite {
                cf,
                table,
                batch,
                rows,
                up_to: _,
            } => self.mysql_on_write(k, from, to, cf, (table, batch), rows),
            CdcMsg::MysqlAck { cf, table, batch } => self.mysql_on_ack(k, to, cf, table, batch),
            CdcMsg::TableStatus { cf, tables } => self.owner_on_table_status(from, cf, tables),
            CdcMsg::Session(m) => self.on_session_msg(k, from, to, m),
            CdcMsg::KafkaProduce {
                cf,
                partition,
                batch,
                messages,
            } => self.kafka_on_produce(k, to, cf, partition, batch, messages),
            CdcMsg::KafkaAck { cf, table, batch } => self.kafka_on_ack(k, to, cf, table, batch),
            CdcMsg::Txn(m) => self.on_txn_msg(k, tikv, from, to, m),
        }
        self.flush_endpoints(k);
    }

    /// Handles a TiCDC timer: routing only; each timer has its handler.
    // Long because it matches every timer, one short arm each: a routing table reads better
    // whole than split.
    pub fn on_timer(
        &mut self,
        k: &mut Kernel<Stack>,
        tikv: &Cluster,
        node: NodeId,
        timer: CdcTimer,
    ) {
        match timer {
            CdcTimer::WorkloadTick => self.workload_tick(k, tikv),
            CdcTimer::TxnCommit { txn } => self.commit(k, tikv, txn),
            CdcTimer::EndpointTick => {
                if let Some(s) = self.store_ix(node) {
                    self.endpoint_tick(k, tikv, s);
                }
                k.set_timer(node, self.cfg.min_ts_interval, CdcTimer::EndpointTick);
            }
            CdcTimer::ScanDone {
                capture,
                cf,
                stream,
                region,
                request,
                checkpoint,
            } => {
                let Some(s) = self.store_ix(node) else { return };
                let sub = Subscriber {
                    capture,
                    cf,
                    stream,
                };
                let req = ScanRequest {
                    sub,
                    region,
                    request,
                    checkpoint,
                };
                self.endpoint_scan_done(tikv, s, req);
            }
            CdcTimer::RequestRegion { cf, region } => {
                self.kv_request_region(k, tikv, node, cf, region)
            }
            CdcTimer::WorkerExit { cf, store, stream } => {
                self.kv_worker_exit(k, node, cf, store, stream)
            }
            CdcTimer::RecvLoopExit { cf, store, stream } => {
                self.kv_recv_loop_exit(k, node, cf, store, stream)
            }
            CdcTimer::StreamBroken { store } => self.kv_stream_broken(k, node, store),
            CdcTimer::ProcessorTick => {
                let mut blocked = false;
                if let Some(c) = self.capture_index(node) {
                    self.processor_tick(k, c);
                    // A sync producer close re-arms the tick when it finishes.
                    blocked = self.life.processor_blocked[c as usize];
                }
                if !blocked {
                    k.set_timer(node, self.cfg.owner_tick, CdcTimer::ProcessorTick);
                }
            }
            CdcTimer::OwnerTick => {
                if self.owner_role_tick(k, node) {
                    self.owner_tick(k, node)
                } else {
                    k.set_timer(node, self.cfg.owner_tick, CdcTimer::OwnerTick);
                }
            }
            CdcTimer::Session(t) => self.on_session_timer(k, node, t),
            CdcTimer::KafkaSendTimeout { cf, table, batch } => {
                self.kafka_on_send_timeout(k, node, cf, table, batch)
            }
            CdcTimer::KafkaClientClosed { cf, side, client } => {
                self.on_client_closed(k, node, cf, side, client)
            }
            CdcTimer::RedoFlush => {
                if self.capture_index(node).is_some_and(|c| self.is_owner(c)) {
                    self.redo_flush(k, node);
                }
                k.set_timer(node, self.cfg.redo_flush_interval, CdcTimer::RedoFlush);
            }
            CdcTimer::MysqlApplied {
                capture,
                cf,
                table,
                batch,
            } => self.mysql_on_applied(k, node, capture, cf, (table, batch)),
            CdcTimer::Txn(t) => self.on_txn_timer(k, tikv, t),
        }
        self.flush_endpoints(k);
    }

    /// A node was killed, restarted, paused or resumed.
    pub fn on_node_state(&mut self, k: &mut Kernel<Stack>, node: NodeId, state: NodeState) {
        if !self.enabled() {
            return;
        }
        self.kafka.on_node_state(node, state);
        if let Some(s) = self.store_ix(node) {
            match state {
                NodeState::Crashed => {
                    self.endpoints[s as usize].reset();
                    self.transport_store_reset(s);
                    self.streams_may_break(k, s, RST_LATENCY);
                }
                NodeState::Paused => self.streams_may_break(k, s, self.cfg.grpc_keepalive_timeout),
                NodeState::Up => {
                    // Timers of a crashed node are dropped; re-arm after a restart.
                    k.set_timer(node, self.cfg.min_ts_interval, CdcTimer::EndpointTick);
                }
            }
        } else if let Some(c) = self.capture_index(node) {
            self.capture_state_changed(k, c, state);
        } else if node == self.pd {
            // A resume after a pause releases the held timers; only a restart re-arms them.
            let restarted = state == NodeState::Up && self.etcd.crashed;
            self.etcd.crashed = state == NodeState::Crashed;
            if restarted {
                self.etcd_restarted(k);
            }
            if state != NodeState::Up || restarted {
                self.workload_client_state(k, state);
            }
        } else if Some(node) == self.mysql && state == NodeState::Crashed {
            self.mysql_crashed();
        }
        self.flush_endpoints(k);
    }

    /// A capture process was killed, or restarted after a kill (a pause changes nothing here).
    fn capture_state_changed(&mut self, k: &mut Kernel<Stack>, c: u32, state: NodeState) {
        let node = self.captures[c as usize];
        match state {
            NodeState::Crashed => {
                let epoch = k.net.node(node).incarnation;
                self.close_mysql_connections(c);
                for p in &mut self.processors[c as usize] {
                    let next_batch = p.next_batch;
                    *p = Processor::new(KvClient::with_epoch(self.cfg.kv_client_evict, epoch));
                    p.next_batch = next_batch;
                }
                for ep in &mut self.endpoints {
                    ep.drop_capture(c);
                }
                self.lifecycle_capture_lost(c);
                self.session_crashed(c);
                self.rollback_parked(c);
            }
            // A restart after a kill (not a resume after a pause): timers and session anew.
            NodeState::Up if self.sessions[c as usize].crashed => {
                self.sessions[c as usize].crashed = false;
                self.start_capture(k, c);
            }
            _ => {}
        }
    }

    /// MySQL was killed: what it held in memory and every connection's batch in flight are lost.
    fn mysql_crashed(&mut self) {
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

    /// Links changed: streams over cut links break after the gRPC keepalive timeout.
    pub fn on_links_changed(&mut self, k: &mut Kernel<Stack>) {
        for s in 0..self.stores.len() as u32 {
            self.streams_may_break(k, s, self.cfg.grpc_keepalive_timeout);
        }
        self.flush_held_events(k);
        self.resume_parked_commits(k);
    }

    /// Changefeed id by index.
    pub fn cf_id(&self, cf: CfIx) -> &str {
        &self.cfg.changefeeds[cf as usize].id
    }

    fn store_ix(&self, n: NodeId) -> Option<u32> {
        self.stores.iter().position(|s| *s == n).map(|i| i as u32)
    }
}
