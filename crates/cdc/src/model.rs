//! The top of the TiCDC model: routing only. Every message, timer, node state change and
//! link change is handed to the handler of its mechanism; the state is [`Cdc`] (`cdc.rs`).

use faultline_sim::{Kernel, Level, NodeId, NodeState, SimDuration};
use faultline_tikv::{Cluster, OpEvent};

use crate::capture::kvclient::KvClient;
use crate::capture::processor::Processor;
use crate::cdc::Cdc;
use crate::endpoint::store_endpoint::{ScanRequest, Subscriber};
use crate::ids::CfIx;
use crate::msg::{CdcMsg, CdcTimer, RegionEventKind};
use crate::out::{Command, Cx, Out, Reach};
use crate::stack::Stack;
use crate::ts::Ts;
use crate::upstream::send_failure::RST_LATENCY;

impl Cdc {
    /// Arms the first timers and subscribes every table.
    pub fn init(&mut self, k: &mut Kernel<Stack>) {
        if self.enabled() {
            routed(k, |cx| self.start(&mut cx.out));
        }
    }

    /// A TiCDC message: its handler runs, then the endpoints' queued batches go out.
    pub fn on_message(
        &mut self,
        k: &mut Kernel<Stack>,
        tikv: &Cluster,
        from: NodeId,
        to: NodeId,
        msg: CdcMsg,
    ) {
        self.handle(k, |cdc, cx| cdc.message(cx, tikv, (from, to), msg));
    }

    /// A TiCDC timer: its handler runs, then the endpoints' queued batches go out.
    pub fn on_timer(
        &mut self,
        k: &mut Kernel<Stack>,
        tikv: &Cluster,
        node: NodeId,
        timer: CdcTimer,
    ) {
        self.handle(k, |cdc, cx| cdc.timer(cx, tikv, node, timer));
    }

    /// Outcomes of the TiKV model's tracked proposals since the last call: each is handled
    /// (`txn_apply.rs`), then the endpoints' queued batches go out.
    pub fn on_op_events(&mut self, k: &mut Kernel<Stack>, tikv: &Cluster, events: Vec<OpEvent>) {
        self.handle(k, |cdc, cx| {
            for e in events {
                cdc.on_op_event(cx, tikv, e);
            }
        });
    }

    /// A node was killed, restarted, paused or resumed.
    pub fn on_node_state(&mut self, k: &mut Kernel<Stack>, node: NodeId, state: NodeState) {
        if self.enabled() {
            self.handle(k, |cdc, cx| cdc.node_state(cx, node, state));
        }
    }

    /// Links changed: streams over cut links break after the gRPC keepalive timeout, held
    /// batches, held region requests and parked MySQL commits whose link is back go on.
    pub fn on_links_changed(&mut self, k: &mut Kernel<Stack>) {
        routed(k, |cx| {
            for s in 0..self.stores.len() as u32 {
                let after = self.cfg.grpc_keepalive.breaks_after();
                self.streams_may_break(cx, s, after);
            }
            self.client_connections_may_break(cx);
            self.flush_held_events(cx);
            self.flush_held_requests(cx);
            self.resume_parked_commits(cx);
        });
    }

    /// Runs handler `f` through [`routed`], then sends (or holds) the batches the stores' CDC
    /// endpoints queued during it, in the same outbox.
    fn handle(&mut self, k: &mut Kernel<Stack>, f: impl FnOnce(&mut Self, &mut Cx)) {
        routed(k, |cx| {
            f(self, cx);
            self.flush_endpoints(cx);
        });
    }

    fn start(&mut self, out: &mut Out) {
        if self.cfg.workload.txns_per_sec > 0 {
            let gap = self.workload.gap_us();
            out.set_timer(self.client, SimDuration(gap), CdcTimer::WorkloadTick);
        }
        for (i, s) in self.stores.clone().into_iter().enumerate() {
            let phase = SimDuration::from_millis(100 * i as u64 + 1);
            out.set_timer(
                s,
                SimDuration(self.cfg.min_ts_interval.0 + phase.0),
                CdcTimer::EndpointTick,
            );
        }
        self.sessions_init(out);
        for c in 0..self.captures.len() as u32 {
            self.start_capture(out, c);
        }
    }

    fn start_capture(&mut self, out: &mut Out, c: u32) {
        let node = self.captures[c as usize];
        out.set_timer(node, self.cfg.owner_tick, CdcTimer::ProcessorTick);
        // Every capture runs the owner timers; only the elected owner acts on them.
        out.set_timer(node, self.cfg.owner_tick, CdcTimer::OwnerTick);
        out.set_timer(node, self.cfg.redo_flush_interval, CdcTimer::RedoFlush);
        self.session_start(out, c);
        self.lifecycle_capture_started(c);
    }

    /// Routes a TiCDC message to its handler.
    // Long because it matches every message, one short arm each: a routing table reads
    // better whole than split.
    #[allow(clippy::too_many_lines)]
    fn message(&mut self, cx: &mut Cx, tikv: &Cluster, (from, to): (NodeId, NodeId), msg: CdcMsg) {
        let now = cx.now;
        match msg {
            CdcMsg::Register {
                cf,
                stream,
                region,
                request,
                checkpoint,
                version,
            } => {
                let (Some(s), Some(c)) = (self.store_ix(to), self.capture_index(from)) else {
                    return;
                };
                let req = scan_request((c, cf, stream), (region, version), request, checkpoint);
                self.endpoint_on_register(tikv, s, req);
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
                if !self.stream_in_order(&mut cx.out, c, cf, s, stream, seq) {
                    return;
                }
                for e in &events {
                    if let RegionEventKind::Error(err) = &e.kind {
                        let detail =
                            format!("region_id={} store={} error={err:?}", e.region, s + 1);
                        cx.out.log(Some(to), Level::Info, "region failed", detail);
                    }
                }
                let actions = self.kv_input(c, cf, |kv, a| kv.on_events(s, stream, events, a));
                self.apply_kv(&mut cx.out, c, cf, actions);
            }
            CdcMsg::MysqlWrite {
                cf,
                table,
                batch,
                rows,
                up_to: _,
            } => self.mysql_on_write(cx, from, to, cf, (table, batch), rows),
            CdcMsg::MysqlAck { cf, table, batch } => self.mysql_on_ack(now, to, cf, table, batch),
            CdcMsg::TableStatus { cf, tables } => self.owner_on_table_status(from, cf, tables),
            CdcMsg::Session(m) => self.on_session_msg(cx, from, to, m),
            CdcMsg::KafkaProduce {
                cf,
                partition,
                batch,
                messages,
            } => self.kafka_on_produce(&mut cx.out, to, cf, partition, batch, messages),
            CdcMsg::KafkaAck { cf, table, batch } => self.kafka_on_ack(now, to, cf, table, batch),
            CdcMsg::ResolveLock {
                region,
                max_version,
            } => {
                if let Some(s) = self.store_ix(to) {
                    self.resolve_region_locks((now, tikv), s, region, max_version);
                }
            }
            CdcMsg::Txn(m) => self.on_txn_msg(cx, tikv, (from, to), m),
            CdcMsg::Pd(m) => self.on_pd_msg(cx, tikv, (from, to), m),
        }
    }

    /// Routes a TiCDC timer to its handler.
    // Long because it matches every timer, one short arm each: a routing table reads better
    // whole than split.
    #[allow(clippy::too_many_lines)]
    fn timer(&mut self, cx: &mut Cx, tikv: &Cluster, node: NodeId, timer: CdcTimer) {
        match timer {
            CdcTimer::WorkloadTick => self.workload_tick(cx),
            CdcTimer::TxnCommit { txn } => self.commit(&mut cx.out, txn),
            CdcTimer::EndpointTick => {
                // A store not joined yet, or removed, runs no TiKV and so no endpoint; the
                // timer keeps going for the day it joins.
                let running = |s: u32| tikv.store_state(s).is_some_and(|st| st.in_cluster());
                if let Some(s) = self.store_ix(node).filter(|s| running(*s)) {
                    self.endpoint_tick(&mut cx.out, tikv, s);
                }
                cx.out
                    .set_timer(node, self.cfg.min_ts_interval, CdcTimer::EndpointTick);
            }
            CdcTimer::ScanDone {
                capture,
                cf,
                stream,
                region,
                request,
                checkpoint,
                version,
            } => {
                let Some(s) = self.store_ix(node) else { return };
                let req = scan_request(
                    (capture, cf, stream),
                    (region, version),
                    request,
                    checkpoint,
                );
                self.endpoint_scan_done(tikv, s, req);
            }
            CdcTimer::RequestRegion { cf, region } => {
                self.kv_request_region(cx, tikv, node, cf, region)
            }
            CdcTimer::WorkerExit { cf, store, stream } => {
                self.kv_worker_exit(&mut cx.out, node, cf, store, stream)
            }
            CdcTimer::RecvLoopExit { cf, store, stream } => {
                self.kv_recv_loop_exit(&mut cx.out, node, cf, store, stream)
            }
            CdcTimer::StreamBroken { store } => self.kv_stream_broken(cx, node, store),
            CdcTimer::ProcessorTick => self.on_processor_tick(cx, node),
            CdcTimer::OwnerTick => self.on_owner_tick(cx, node),
            CdcTimer::Session(t) => self.on_session_timer(cx, node, t),
            CdcTimer::KafkaSendTimeout { cf, table, batch } => {
                self.kafka_on_send_timeout(&mut cx.out, node, cf, table, batch)
            }
            CdcTimer::KafkaClientClosed {
                cf,
                side,
                job,
                client,
            } => self.on_client_closed(cx, node, cf, side, (job, client)),
            CdcTimer::RedoFlush => {
                if self.capture_index(node).is_some_and(|c| self.is_owner(c)) {
                    self.redo_flush(cx, node);
                }
                cx.out
                    .set_timer(node, self.cfg.redo_flush_interval, CdcTimer::RedoFlush);
            }
            CdcTimer::MysqlApplied {
                capture,
                cf,
                table,
                batch,
            } => self.mysql_on_applied(cx, node, capture, cf, (table, batch)),
            CdcTimer::Txn(t) => self.on_txn_timer(cx, tikv, t),
            CdcTimer::Pd(t) => self.on_pd_timer(&mut cx.out, node, t),
        }
    }

    /// Routes a node's state change (killed, restarted, paused, resumed) to its handler.
    fn node_state(&mut self, cx: &mut Cx, node: NodeId, state: NodeState) {
        self.kafka.on_node_state(node, state);
        if let Some(s) = self.store_ix(node) {
            self.client_connections_may_break(cx);
            match state {
                NodeState::Crashed => {
                    self.endpoints[s as usize].reset();
                    self.endpoint_reads_lost(s);
                    self.pd_clients.stores[s as usize].clear();
                    self.transport_store_reset(s);
                    self.streams_may_break(cx, s, RST_LATENCY);
                    self.client_connections_reset(cx, s);
                }
                NodeState::Paused => {
                    let after = self.cfg.grpc_keepalive.breaks_after();
                    self.streams_may_break(cx, s, after);
                }
                NodeState::Up => {
                    // Timers of a crashed node are dropped; re-arm after a restart.
                    cx.out
                        .set_timer(node, self.cfg.min_ts_interval, CdcTimer::EndpointTick);
                }
            }
        } else if let Some(c) = self.capture_index(node) {
            self.capture_state_changed(cx, c, state);
        } else if node == self.pd {
            // A resume after a pause releases the held timers; only a restart re-arms them.
            let restarted = state == NodeState::Up && self.etcd.crashed;
            self.etcd.crashed = state == NodeState::Crashed;
            if restarted {
                self.etcd_restarted(cx);
            }
        } else if node == self.client {
            // A resume after a pause releases the held timers; only a restart re-arms them.
            let restarted = state == NodeState::Up && self.pd_clients.client_crashed;
            self.pd_clients.client_crashed = state == NodeState::Crashed;
            if state == NodeState::Crashed || restarted {
                self.workload_client_state(cx, state);
            }
        } else if Some(node) == self.mysql && state == NodeState::Crashed {
            self.mysql_crashed();
        }
    }

    /// A capture process was killed, or restarted after a kill (a pause changes nothing here).
    fn capture_state_changed(&mut self, cx: &mut Cx, c: u32, state: NodeState) {
        let node = self.captures[c as usize];
        match state {
            NodeState::Crashed => {
                let epoch = cx.reach.incarnation(node);
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
                self.start_capture(&mut cx.out, c);
            }
            _ => {}
        }
    }
}

/// The endpoint's request to scan `region` for subscriber `(capture, cf, stream)`.
fn scan_request(
    (capture, cf, stream): (u32, CfIx, u64),
    (region, version): (u32, u64),
    request: u64,
    checkpoint: Ts,
) -> ScanRequest {
    let sub = Subscriber {
        capture,
        cf,
        stream,
    };
    ScanRequest {
        sub,
        region,
        version,
        request,
        checkpoint,
    }
}

/// Runs a handler `f` with a context at the kernel's time (the network as [`Reach`], a fresh
/// outbox), then routes what it wrote; returns what `f` returned.
pub(crate) fn routed<R>(k: &mut Kernel<Stack>, f: impl FnOnce(&mut Cx) -> R) -> R {
    let (r, mut out) = {
        let mut cx = Cx::new(k.now(), Reach::new(&k.net));
        let r = f(&mut cx);
        (r, cx.out)
    };
    route(k, &mut out);
    r
}

/// Hands a component's commands to the kernel in the order they were written, leaving `out`
/// empty: the one place where TiCDC's outboxes meet the kernel.
pub(crate) fn route(k: &mut Kernel<Stack>, out: &mut Out) {
    for command in out.take() {
        match command {
            Command::Send { from, to, msg } => k.send(from, to, msg),
            Command::Propose {
                from,
                to,
                region,
                op,
                version,
            } => {
                let msg = faultline_tikv::Msg::Propose {
                    region,
                    op,
                    version,
                };
                k.send(from, to, msg)
            }
            Command::SendOrdered { from, to, msg } => k.send_ordered(from, to, msg),
            Command::SetTimer { node, after, timer } => k.set_timer(node, after, timer),
            Command::Log {
                node,
                level,
                message,
                detail,
            } => k.log(node, level, message, detail),
        }
    }
}
