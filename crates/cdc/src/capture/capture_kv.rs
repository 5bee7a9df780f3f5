//! Each capture's KV clients wired to the kernel: region requests, region worker and receive
//! loop exits, broken streams, and the actions a KV client asks for (send a request, arm a
//! timer, log). The KV client itself is the sans-I/O [`crate::capture::kvclient::KvClient`].

use faultline_sim::{Level, NodeId, SimDuration};
use faultline_tikv::Cluster;

use crate::capture::kvclient::{KvAction, KvClient};
use crate::cdc::Cdc;
use crate::ids::CfIx;
use crate::keyspace::RegionSpan;
use crate::msg::{CdcMsg, CdcTimer};
use crate::out::{Cx, Out};
use crate::ts::Ts;

impl Cdc {
    /// Gives one input to the KV client of changefeed `cf` on capture `c`; returns the actions
    /// it asks for, for [`Cdc::apply_kv`].
    pub(crate) fn kv_input(
        &mut self,
        c: u32,
        cf: CfIx,
        input: impl FnOnce(&mut KvClient, &mut Vec<KvAction>),
    ) -> Vec<KvAction> {
        let mut out = Vec::new();
        input(&mut self.processors[c as usize][cf as usize].kv, &mut out);
        out
    }

    /// The KV client of changefeed `cf` on capture node `node` (re)requests `region`.
    pub(crate) fn kv_request_region(
        &mut self,
        cx: &mut Cx,
        tikv: &Cluster,
        node: NodeId,
        cf: CfIx,
        region: u32,
    ) {
        let Some(c) = self.capture_index(node) else {
            return;
        };
        let leader = tikv.pd_region_leader_store(region);
        let stores = &self.stores;
        let reach = cx.reach;
        let reachable = |s: u32| reach.reachable(node, stores[s as usize]);
        let mut actions = Vec::new();
        self.processors[c as usize][cf as usize].kv.request(
            region,
            leader,
            reachable,
            &mut actions,
        );
        for action in actions {
            match register_msg(cf, &action) {
                Some((store, stream, msg)) => {
                    let ends = (node, self.stores[store as usize]);
                    let key = (c, cf, store, stream);
                    self.transport
                        .requests
                        .send(reach, &mut cx.out, ends, key, msg);
                }
                None => self.apply_kv(&mut cx.out, c, cf, vec![action]),
            }
        }
    }

    /// Sends the region requests held for a cut link whose stream is still open and whose
    /// link is up again; those of a stream gone meanwhile are dropped with it.
    pub(crate) fn flush_held_requests(&mut self, cx: &mut Cx) {
        let (captures, stores, processors) = (&self.captures, &self.stores, &self.processors);
        let route = |(c, cf, store, stream): (u32, CfIx, u32, u64)| {
            let kv = &processors.get(c as usize)?.get(cf as usize)?.kv;
            let open = kv
                .streams()
                .get(&store)
                .is_some_and(|s| s.generation == stream);
            open.then(|| (captures[c as usize], stores[store as usize]))
        };
        self.transport.requests.flush(cx.reach, &mut cx.out, route);
    }

    /// A region worker of the stream to `store` exited (tiflow#9595: when it evicts its regions).
    pub(crate) fn kv_worker_exit(
        &mut self,
        out: &mut Out,
        node: NodeId,
        cf: CfIx,
        store: u32,
        stream: u64,
    ) {
        let Some(c) = self.capture_index(node) else {
            return;
        };
        let actions = self.kv_input(c, cf, |kv, a| kv.on_worker_exit(store, stream, a));
        out.log(
            Some(node),
            Level::Info,
            "region worker exited",
            format!("changefeed={} store={}", self.cf_id(cf), store + 1),
        );
        self.apply_kv(out, c, cf, actions);
    }

    /// The receive loop of the stream to `store` exited.
    pub(crate) fn kv_recv_loop_exit(
        &mut self,
        out: &mut Out,
        node: NodeId,
        cf: CfIx,
        store: u32,
        stream: u64,
    ) {
        let Some(c) = self.capture_index(node) else {
            return;
        };
        let actions = self.kv_input(c, cf, |kv, a| kv.on_recv_exit(store, stream, a));
        self.apply_kv(out, c, cf, actions);
    }

    /// The gRPC keepalive of the streams to `store` fired: unless the link healed meanwhile, every changefeed's stream to it breaks.
    pub(crate) fn kv_stream_broken(&mut self, cx: &mut Cx, node: NodeId, store: u32) {
        let Some(c) = self.capture_index(node) else {
            return;
        };
        let store_node = self.stores[store as usize];
        if cx.reach.reachable(node, store_node) && cx.reach.is_up(store_node) {
            return; // healed before the keepalive fired
        }
        for cf in 0..self.cfg.changefeeds.len() as CfIx {
            let actions = self.kv_input(c, cf, |kv, a| kv.on_stream_broken(store, a));
            if !actions.is_empty() {
                cx.out.log(
                    Some(node),
                    Level::Warn,
                    "stream to store closed",
                    format!("store={} changefeed={}", store + 1, self.cf_id(cf)),
                );
            }
            self.apply_kv(&mut cx.out, c, cf, actions);
        }
    }

    /// Store `store` died, paused or was cut from some captures: every capture with a stream
    /// to it that it can no longer reach arms the stream's break after `after` (a reset's
    /// latency, or gRPC's keepalive timeout).
    pub(crate) fn streams_may_break(&mut self, cx: &mut Cx, store: u32, after: SimDuration) {
        for (c, procs) in self.processors.iter().enumerate() {
            let node = self.captures[c];
            let has_stream = procs.iter().any(|p| p.kv.streams().contains_key(&store));
            let store_node = self.stores[store as usize];
            let healthy = cx.reach.reachable(node, store_node) && cx.reach.is_up(store_node);
            if has_stream && !healthy {
                cx.out
                    .set_timer(node, after, CdcTimer::StreamBroken { store });
            }
        }
    }

    /// A subscribed region split: capture `c`'s KV client of changefeed `cf` subscribes,
    /// from `from`, each region now holding part of `span` (the regions PD reports for it),
    /// unless it already tracks one from no later than `from`.
    fn redivide(&mut self, out: &mut Out, (c, cf): (u32, CfIx), span: RegionSpan, from: Ts) {
        self.epoch_not_match += 1;
        let mut actions = Vec::new();
        let p = &mut self.processors[c as usize][cf as usize];
        for region in self.ks.regions_in(span.start, span.end) {
            let ahead = (p.kv.regions().get(&region)).is_none_or(|t| t.resolved > from);
            if ahead {
                p.kv.track(region, self.ks.span(region), from, &mut actions);
            }
        }
        self.apply_kv(out, c, cf, actions);
    }

    /// Carries out the actions capture `c`'s KV client of changefeed `cf` asked for: requests
    /// and timers go to `out`, rows to the table sinks' buffers.
    pub(crate) fn apply_kv(&mut self, out: &mut Out, c: u32, cf: CfIx, actions: Vec<KvAction>) {
        let node = self.captures[c as usize];
        for a in actions {
            match a {
                KvAction::Register { .. } => {
                    // Only a request timer registers, and `kv_request_region` sends those
                    // itself (holding them for a cut link); sent as is if any other does.
                    if let Some((store, _, msg)) = register_msg(cf, &a) {
                        out.send_ordered(node, self.stores[store as usize], msg);
                    }
                }
                KvAction::Retry { region, backoff } => {
                    let after = if backoff {
                        self.cfg.region_retry_backoff
                    } else {
                        SimDuration::from_micros(self.rng.range(50, 500))
                    };
                    out.set_timer(node, after, CdcTimer::RequestRegion { cf, region });
                }
                KvAction::WorkerExit { store, stream } => {
                    // The worker goroutine notices and returns after a scheduling delay.
                    let after = SimDuration::from_micros(self.rng.range(10, 1_000));
                    out.set_timer(node, after, CdcTimer::WorkerExit { cf, store, stream });
                }
                KvAction::RecvLoopExit { store, stream } => {
                    // The receive loop notices the cancelled context only after the batch it is
                    // blocked on returns.
                    let after = SimDuration::from_micros(self.rng.range(5, 200));
                    out.set_timer(node, after, CdcTimer::RecvLoopExit { cf, store, stream });
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
                KvAction::Redivide { span, from } => self.redivide(out, (c, cf), span, from),
                KvAction::Orphaned { region } => {
                    self.orphan_events += 1;
                    out.log(
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
}

#[cfg(test)]
#[path = "capture_kv_tests.rs"]
mod tests;

/// A KV client's `Register` action as the request it sends: (store, stream, message).
fn register_msg(cf: CfIx, action: &KvAction) -> Option<(u32, u64, CdcMsg)> {
    let KvAction::Register {
        store,
        stream,
        region,
        request,
        checkpoint,
        version,
    } = *action
    else {
        return None;
    };
    let msg = CdcMsg::Register {
        cf,
        stream,
        region,
        request,
        checkpoint,
        version,
    };
    Some((store, stream, msg))
}
