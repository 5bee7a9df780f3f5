//! The TiCDC model: upstream workload and TiKV CDC endpoints, captures with their processors,
//! the owner, and downstream MySQL. Its handlers run inside the full [`Stack`] and read the
//! Raft model's leader view.

use faultline_sim::{Kernel, Level, Network, NodeId, NodeState, SimDuration, SimRng};
use faultline_tikv::Cluster;

use crate::config::CdcConfig;
use crate::endpoint::{Endpoint, Subscriber, Subscription};
use crate::keyspace::Keyspace;
use crate::kvclient::{KvAction, KvClient};
use crate::msg::{CdcMsg, CdcTimer, CfIx, RegionError, RegionEvent, RegionEventKind, RowChange};
use crate::mysql::Downstream;
use crate::owner::ChangefeedState;
use crate::processor::Processor;
use crate::stack::Stack;
use crate::ts::{Ts, Tso};
use crate::upstream::Upstream;
use crate::workload::{Txn, Workload};

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
    rng: SimRng,
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
        for cf in 0..self.cfg.changefeeds.len() as CfIx {
            self.start_processor(k, c, cf);
        }
        self.lifecycle_capture_started(c);
    }

    /// Starts the processor of changefeed `cf` on capture `c`. It starts empty: the owner's
    /// scheduler dispatches tables to it (`session.rs`), and a re-started processor is
    /// reported as holding none, so the owner re-adds them.
    pub(crate) fn start_processor(&mut self, _k: &mut Kernel<Stack>, _c: u32, _cf: CfIx) {}

    /// Handles a TiCDC message.
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
                let (Some(s), Some(c)) = (self.store_ix(to), self.capture_ix(from)) else {
                    return;
                };
                let sub = Subscriber {
                    capture: c,
                    cf,
                    stream,
                };
                let has_peer = tikv
                    .region_detail(region)
                    .is_some_and(|d| d.peers.iter().any(|p| p.store == s));
                if !has_peer {
                    // PD moved the replica away (or never placed one here).
                    let kind = RegionEventKind::Error(RegionError::RegionNotFound);
                    let ev = RegionEvent {
                        region,
                        request,
                        kind,
                    };
                    self.endpoints[s as usize].push(sub, ev);
                } else if tikv.region_leader_store(region) != Some(s) {
                    let leader = tikv.region_leader_store(region);
                    self.endpoints[s as usize].push(sub, not_leader(region, request, leader));
                } else {
                    let (a, b) = self.ks.region_keys(region);
                    let done = self.endpoints[s as usize].schedule_scan(k.now(), b - a);
                    let timer = CdcTimer::ScanDone {
                        capture: c,
                        cf,
                        stream,
                        region,
                        request,
                        checkpoint,
                    };
                    k.set_timer(to, done.since(k.now()), timer);
                }
            }
            CdcMsg::Events {
                cf,
                stream,
                events,
                seq,
            } => {
                let (Some(s), Some(c)) = (self.store_ix(from), self.capture_ix(to)) else {
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
                let mut out = Vec::new();
                self.processors[c as usize][cf as usize]
                    .kv
                    .on_events(s, stream, events, &mut out);
                self.apply_kv(k, c, cf, out);
            }
            CdcMsg::MysqlWrite {
                cf,
                table,
                batch,
                rows,
                up_to: _,
            } => {
                let Some(c) = self.capture_ix(from) else {
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
            CdcMsg::MysqlAck { cf, table, batch } => {
                let Some(c) = self.capture_ix(to) else { return };
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
            CdcMsg::TableStatus { cf, tables } => {
                for (t, cp, rs) in tables {
                    // Only the table's primary counts; watermarks never go back (scheduler v3
                    // keeps a replication set's checkpoint monotonic).
                    if self.status_from_primary(from, cf, t, cp) {
                        let e = self.feeds[cf as usize].tables.entry(t).or_insert((cp, rs));
                        *e = (e.0.max(cp), e.1.max(rs));
                    }
                }
            }
            CdcMsg::Session(m) => self.on_session_msg(k, from, to, m),
            CdcMsg::KafkaProduce {
                cf,
                partition,
                batch,
                messages,
            } => self.kafka_on_produce(k, to, cf, partition, batch, messages),
            CdcMsg::KafkaAck { cf, table, batch } => self.kafka_on_ack(k, to, cf, table, batch),
        }
        self.flush_endpoints(k);
    }

    /// Handles a TiCDC timer.
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
                let leader = tikv.region_leader_store(region);
                if leader != Some(s) {
                    self.endpoints[s as usize].push(sub, not_leader(region, request, leader));
                } else {
                    let rows = self.scan(region, checkpoint);
                    let ep = &mut self.endpoints[s as usize];
                    if !rows.is_empty() {
                        ep.push(
                            sub,
                            RegionEvent {
                                region,
                                request,
                                kind: RegionEventKind::Entries(rows),
                            },
                        );
                    }
                    ep.push(
                        sub,
                        RegionEvent {
                            region,
                            request,
                            kind: RegionEventKind::Initialized,
                        },
                    );
                    ep.subscribe(region, Subscription { to: sub, request });
                }
            }
            CdcTimer::RequestRegion { cf, region } => {
                let Some(c) = self.capture_ix(node) else {
                    return;
                };
                let leader = tikv.pd_region_leader_store(region);
                let stores = &self.stores;
                let reachable = |s: u32| k.reachable(node, stores[s as usize]);
                let mut out = Vec::new();
                self.processors[c as usize][cf as usize]
                    .kv
                    .request(region, leader, reachable, &mut out);
                self.apply_kv(k, c, cf, out);
            }
            CdcTimer::WorkerExit { cf, store, stream } => {
                let Some(c) = self.capture_ix(node) else {
                    return;
                };
                let mut out = Vec::new();
                self.processors[c as usize][cf as usize]
                    .kv
                    .on_worker_exit(store, stream, &mut out);
                k.log(
                    Some(node),
                    Level::Info,
                    "region worker exited",
                    format!("changefeed={} store={}", self.cf_id(cf), store + 1),
                );
                self.apply_kv(k, c, cf, out);
            }
            CdcTimer::RecvLoopExit { cf, store, stream } => {
                let Some(c) = self.capture_ix(node) else {
                    return;
                };
                let mut out = Vec::new();
                self.processors[c as usize][cf as usize]
                    .kv
                    .on_recv_exit(store, stream, &mut out);
                self.apply_kv(k, c, cf, out);
            }
            CdcTimer::StreamBroken { store } => {
                let Some(c) = self.capture_ix(node) else {
                    return;
                };
                let store_node = self.stores[store as usize];
                if k.reachable(node, store_node) && k.net.node(store_node).state == NodeState::Up {
                    return; // healed before the keepalive fired
                }
                for cf in 0..self.cfg.changefeeds.len() as CfIx {
                    let mut out = Vec::new();
                    self.processors[c as usize][cf as usize]
                        .kv
                        .on_stream_broken(store, &mut out);
                    if !out.is_empty() {
                        k.log(
                            Some(node),
                            Level::Warn,
                            "stream to store closed",
                            format!("store={} changefeed={}", store + 1, self.cf_id(cf)),
                        );
                    }
                    self.apply_kv(k, c, cf, out);
                }
            }
            CdcTimer::ProcessorTick => {
                let mut blocked = false;
                if let Some(c) = self.capture_ix(node) {
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
                if self.capture_ix(node).is_some_and(|c| self.is_owner(c)) {
                    self.redo_flush(k, node);
                }
                k.set_timer(node, self.cfg.redo_flush_interval, CdcTimer::RedoFlush);
            }
            CdcTimer::MysqlApplied {
                capture,
                cf,
                table,
                batch,
            } => {
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
        } else if let Some(c) = self.capture_ix(node) {
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
        self.flush_endpoints(k);
    }

    /// Links changed: streams over cut links break after the gRPC keepalive timeout.
    pub fn on_links_changed(&mut self, k: &mut Kernel<Stack>) {
        for s in 0..self.stores.len() as u32 {
            self.streams_may_break(k, s, self.cfg.grpc_keepalive_timeout);
        }
        self.flush_held_events(k);
        self.resume_parked_commits(k);
    }

    fn streams_may_break(&mut self, k: &mut Kernel<Stack>, store: u32, after: SimDuration) {
        for (c, procs) in self.processors.iter().enumerate() {
            let node = self.captures[c];
            let has_stream = procs.iter().any(|p| p.kv.streams().contains_key(&store));
            let store_node = self.stores[store as usize];
            let healthy =
                k.reachable(node, store_node) && k.net.node(store_node).state == NodeState::Up;
            if has_stream && !healthy {
                k.set_timer(node, after, CdcTimer::StreamBroken { store });
            }
        }
    }

    /// The workload's client lives on pd-1. When it dies, its open transactions never commit:
    /// their locks are rolled back (simplified: at once, where TiKV's lock resolver waits for
    /// the lock TTL), or resolved ts would stay pinned under them forever. When it restarts,
    /// its dropped timers are armed again.
    fn workload_client_state(&mut self, k: &mut Kernel<Stack>, state: NodeState) {
        match state {
            NodeState::Crashed => {
                for (_, txn) in std::mem::take(&mut self.workload.open) {
                    for (key, _) in &txn.writes {
                        self.upstream.unlock(self.ks.region_of(*key), txn.start_ts);
                    }
                    self.workload.aborted += 1;
                }
            }
            NodeState::Up if self.cfg.workload.txns_per_sec > 0 => {
                let gap = self.workload.gap_us();
                k.set_timer(self.pd, SimDuration(gap), CdcTimer::WorkloadTick);
            }
            _ => {}
        }
    }

    fn workload_tick(&mut self, k: &mut Kernel<Stack>, tikv: &Cluster) {
        if let Some(stop) = self.cfg.workload.stop_at {
            if k.now().0 >= stop.0 {
                return;
            }
        }
        let writes = self.workload.draw(&self.ks);
        if writes
            .iter()
            .all(|(key, _)| self.live_leader(k, tikv, self.ks.region_of(*key)).is_some())
        {
            let start_ts = self.tso.next(k.now());
            for (key, _) in &writes {
                self.upstream.lock(self.ks.region_of(*key), start_ts);
            }
            let id = self.workload.next_txn;
            self.workload.next_txn += 1;
            self.workload.open.insert(id, Txn { start_ts, writes });
            let delay = self.workload.commit_delay_us();
            k.set_timer(self.pd, SimDuration(delay), CdcTimer::TxnCommit { txn: id });
        } else {
            self.workload.aborted += 1;
        }
        let gap = self.workload.gap_us();
        k.set_timer(self.pd, SimDuration(gap), CdcTimer::WorkloadTick);
    }

    fn commit(&mut self, k: &mut Kernel<Stack>, tikv: &Cluster, id: u64) {
        let Some(txn) = self.workload.open.get(&id) else {
            return;
        };
        let leaders: Vec<Option<u32>> = txn
            .writes
            .iter()
            .map(|(key, _)| self.live_leader(k, tikv, self.ks.region_of(*key)))
            .collect();
        if leaders.iter().any(|l| l.is_none()) {
            // The lock stays until a leader is back: it holds resolved ts down, as in TiKV.
            self.workload.commit_retries += 1;
            k.set_timer(
                self.pd,
                SimDuration::from_secs(1),
                CdcTimer::TxnCommit { txn: id },
            );
            return;
        }
        let txn = self.workload.open.remove(&id).expect("present");
        let commit_ts = self.tso.next(k.now());
        for ((key, value), leader) in txn.writes.iter().zip(leaders) {
            let region = self.ks.region_of(*key);
            self.upstream.commit(*key, *value, commit_ts);
            self.upstream.unlock(region, txn.start_ts);
            let row = RowChange {
                key: *key,
                value: *value,
                start_ts: txn.start_ts,
                commit_ts,
            };
            let s = leader.expect("checked") as usize;
            let subs = self.endpoints[s]
                .subs
                .get(&region)
                .cloned()
                .unwrap_or_default();
            for sub in subs {
                self.endpoints[s].push(
                    sub.to,
                    RegionEvent {
                        region,
                        request: sub.request,
                        kind: RegionEventKind::Entries(vec![row]),
                    },
                );
            }
            let (node, timer) = tikv.action_timer(faultline_tikv::TikvAction::Write { region });
            k.set_timer(
                node,
                SimDuration::ZERO,
                crate::stack::StackTimer::Tikv(timer),
            );
        }
        self.workload.committed += 1;
    }

    fn live_leader(&self, k: &Kernel<Stack>, tikv: &Cluster, region: u32) -> Option<u32> {
        tikv.region_leader_store(region).filter(|s| {
            let n = self.stores[*s as usize];
            k.net.node(n).state == NodeState::Up && k.reachable(self.pd, n)
        })
    }

    fn endpoint_tick(&mut self, k: &mut Kernel<Stack>, tikv: &Cluster, s: u32) {
        let tso = self.tso.peek(k.now());
        let regions: Vec<u32> = self.endpoints[s as usize].subs.keys().copied().collect();
        for region in regions {
            let leader = tikv.region_leader_store(region);
            let subs = if leader == Some(s) {
                self.endpoints[s as usize].subs[&region].clone()
            } else {
                self.endpoints[s as usize]
                    .subs
                    .remove(&region)
                    .unwrap_or_default()
            };
            let resolved = self
                .upstream
                .oldest_lock(region)
                .map_or(tso, |l| l.min(tso));
            for sub in subs {
                let kind = if leader == Some(s) {
                    RegionEventKind::Resolved(resolved)
                } else {
                    RegionEventKind::Error(RegionError::NotLeader { leader })
                };
                self.endpoints[s as usize].push(
                    sub.to,
                    RegionEvent {
                        region,
                        request: sub.request,
                        kind,
                    },
                );
            }
        }
        let _ = k;
    }

    fn scan(&self, region: u32, after: Ts) -> Vec<RowChange> {
        let (a, b) = self.ks.region_keys(region);
        (a..b)
            .filter_map(|key| {
                let v = self.upstream.row(key);
                (v.commit_ts > after).then_some(RowChange {
                    key,
                    value: v.value,
                    start_ts: v.commit_ts,
                    commit_ts: v.commit_ts,
                })
            })
            .collect()
    }

    fn processor_tick(&mut self, k: &mut Kernel<Stack>, c: u32) {
        let node = self.captures[c as usize];
        let owner = self.owner_node_for(c);
        self.processor_table_progress(c);
        for cf in 0..self.cfg.changefeeds.len() {
            if self.processor_lifecycle(k, c, cf as CfIx) {
                self.life.processor_blocked[c as usize] = true;
                return;
            }
            if self.life.processors[c as usize][cf] != crate::lifecycle::ProcessorState::Running {
                continue;
            }
            let kafka = self.cfg.changefeeds[cf].sink.is_kafka();
            let mut kafka_batches = Vec::new();
            let barrier = self.feeds[cf].barrier(self.cfg.changefeeds[cf].redo);
            let mut status = Vec::new();
            let tables: Vec<u32> = self.processors[c as usize][cf]
                .tables
                .keys()
                .copied()
                .collect();
            for table in tables {
                let regions = self.ks.table_regions(table);
                // Only the primary writes; a secondary pulls without writing (scheduler v3).
                // A new batch waits while the MySQL connection is cut (the write would block).
                let writable = self.may_write(c, cf as CfIx, table) && self.mysql_reachable(k, c);
                let p = &mut self.processors[c as usize][cf];
                let resolved = p.table_resolved(regions);
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

    fn redo_flush(&mut self, k: &mut Kernel<Stack>, node: NodeId) {
        let now = k.now();
        for cf in 0..self.feeds.len() {
            if !self.cfg.changefeeds[cf].redo {
                continue;
            }
            let f = &mut self.feeds[cf];
            let meta = (f.checkpoint, f.resolved.max(f.redo_meta.1));
            if meta != f.redo_meta {
                f.redo_meta = meta;
                f.redo_changed_at = now;
            } else if now.since(f.redo_changed_at) >= self.cfg.redo_stuck_warning {
                let detail = format!(
                    "changefeed={} lastFlushTime={} meta={{CheckpointTs:{},ResolvedTs:{}}}",
                    self.cfg.changefeeds[cf].id,
                    faultline_sim::SimDuration(now.since(f.redo_changed_at).0),
                    meta.0 .0,
                    meta.1 .0
                );
                k.log(
                    Some(node),
                    Level::Warn,
                    "Redo meta has not changed for a long time, owner may be stuck",
                    detail,
                );
            }
        }
    }

    pub(crate) fn apply_kv(&mut self, k: &mut Kernel<Stack>, c: u32, cf: CfIx, out: Vec<KvAction>) {
        let node = self.captures[c as usize];
        for a in out {
            match a {
                KvAction::Register {
                    store,
                    stream,
                    region,
                    request,
                    checkpoint,
                } => {
                    k.send_ordered(
                        node,
                        self.stores[store as usize],
                        CdcMsg::Register {
                            cf,
                            stream,
                            region,
                            request,
                            checkpoint,
                        },
                    );
                }
                KvAction::Retry { region, backoff } => {
                    let after = if backoff {
                        self.cfg.region_retry_backoff
                    } else {
                        SimDuration::from_micros(self.rng.range(50, 500))
                    };
                    k.set_timer(node, after, CdcTimer::RequestRegion { cf, region });
                }
                KvAction::WorkerExit { store, stream } => {
                    // The worker goroutine notices and returns after a scheduling delay.
                    let after = SimDuration::from_micros(self.rng.range(10, 1_000));
                    k.set_timer(node, after, CdcTimer::WorkerExit { cf, store, stream });
                }
                KvAction::RecvLoopExit { store, stream } => {
                    // The receive loop notices the cancelled context only after the batch it is
                    // blocked on returns.
                    let after = SimDuration::from_micros(self.rng.range(5, 200));
                    k.set_timer(node, after, CdcTimer::RecvLoopExit { cf, store, stream });
                }
                KvAction::Rows(rows) => {
                    let p = &mut self.processors[c as usize][cf as usize];
                    for r in rows {
                        if let Some(sink) = p.tables.get_mut(&self.ks.table_of(r.key)) {
                            if r.commit_ts > sink.checkpoint {
                                sink.buffer.insert((r.commit_ts, r.key), r);
                            }
                        }
                    }
                }
                KvAction::Orphaned { region } => {
                    self.orphan_events += 1;
                    k.log(
                        Some(node),
                        Level::Warn,
                        "region handed to an exited region worker",
                        format!(
                            "region_id={region} changefeed={} (TiCDC logs nothing here; the region is in no worker and not pending, so nobody re-requests it)",
                            self.cf_id(cf)
                        ),
                    );
                }
            }
        }
    }

    fn flush_endpoints(&mut self, k: &mut Kernel<Stack>) {
        for s in 0..self.endpoints.len() {
            if self.endpoints[s].outbox.is_empty() {
                continue;
            }
            let outbox = std::mem::take(&mut self.endpoints[s].outbox);
            for (sub, events) in outbox {
                self.send_events(k, s as u32, sub, events);
            }
        }
    }

    /// Changefeed id by index.
    pub fn cf_id(&self, cf: CfIx) -> &str {
        &self.cfg.changefeeds[cf as usize].id
    }

    fn store_ix(&self, n: NodeId) -> Option<u32> {
        self.stores.iter().position(|s| *s == n).map(|i| i as u32)
    }

    fn capture_ix(&self, n: NodeId) -> Option<u32> {
        self.captures.iter().position(|s| *s == n).map(|i| i as u32)
    }
}

fn not_leader(region: u32, request: u64, leader: Option<u32>) -> RegionEvent {
    RegionEvent {
        region,
        request,
        kind: RegionEventKind::Error(RegionError::NotLeader { leader }),
    }
}
