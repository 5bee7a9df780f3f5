//! The PD clients over the network: the workload client's TSO and region cache loads, and
//! each TiKV store's TSO for resolved ts. Every request is a message to `pd-1` and every
//! answer a message back, with the upstream timeouts, so a partition from PD means what it
//! means upstream: no timestamp, no region load.
//! - The workload client (`client-1`, TiDB's role) takes its start ts and commit ts from
//!   PD through [`TsoClient`](crate::upstream::tso_client::TsoClient) batching (tikv/pd `client/tso_dispatcher.go`); a start ts
//!   that fails is a transaction that never begins; a commit ts that fails is asked for
//!   again (client-go `txnkv/transaction/2pc.go` `execute` -> `GetTimestampWithRetry`).
//! - Each store's resolved-ts advancer asks PD for a min ts every `min-ts-interval` and
//!   advances nothing without one (tikv `components/resolved_ts/src/advance.rs`
//!   `advance_ts_for_regions`: "Ignore get tso errors since we will retry every
//!   `advance_ts_interval`").
//! - A region-cache miss loads the region from PD (client-go `region_cache.go`
//!   `loadRegion` -> `GetRegion`; a PD error backs off `BoPDRPC`).
//!
//! Simplification: a commit ts is retried without client-go's `TsoMaxBackoff` (15 s) limit,
//! as commits retry until they succeed elsewhere in the model.

use faultline_sim::{NodeId, SimDuration, SimTime};
use faultline_tikv::Cluster;

use crate::cdc::Cdc;
use crate::msg::{CdcMsg, CdcTimer};
use crate::out::{Cx, Out};
use crate::ts::Ts;
use crate::upstream::client_backoff::BackoffKind;
use crate::upstream::pd_client_state::TsWant;
use crate::upstream::pd_wire::{PdMsg, PdTimer};
use crate::upstream::region_cache::RegionCache;
use crate::upstream::tso_client::{TsoBatch, PD_CLIENT_TIMEOUT_MS, TIKV_PD_TIMEOUT_MS};

impl Cdc {
    /// The workload client asks PD for a timestamp for `want`.
    pub(crate) fn client_want_ts(&mut self, out: &mut Out, want: TsWant) {
        if let Some(b) = self.pd_clients.workload.want(want) {
            self.send_tso_batch(out, self.client, b, PD_CLIENT_TIMEOUT_MS);
        }
    }

    /// Store `s`'s resolved-ts advancer asks PD for a min ts (one request at a time).
    pub(crate) fn store_want_ts(&mut self, out: &mut Out, s: u32) {
        let c = &mut self.pd_clients.stores[s as usize];
        if c.has_queued() {
            return;
        }
        if let Some(b) = c.want(()) {
            self.send_tso_batch(out, self.stores[s as usize], b, TIKV_PD_TIMEOUT_MS);
        }
    }

    fn send_tso_batch(&self, out: &mut Out, from: NodeId, b: TsoBatch, timeout_ms: u64) {
        let msg = PdMsg::TsoRequest {
            batch: b.batch,
            count: b.count,
        };
        out.send(from, self.pd, CdcMsg::Pd(msg));
        let t = CdcTimer::Pd(PdTimer::TsoTimeout { batch: b.batch });
        out.set_timer(from, SimDuration::from_millis(timeout_ms), t);
    }

    /// The workload client looks `region` up for transaction `txn`: the cached leader, or
    /// `None` after starting (or joining) a load from PD; the load's answer resumes `txn`.
    pub(crate) fn client_region_leader(
        &mut self,
        out: &mut Out,
        txn: u64,
        region: u32,
    ) -> Option<u32> {
        let cache: &mut RegionCache = &mut self.pd_clients.region_cache;
        if let Some(store) = cache.leader(region) {
            return Some(store);
        }
        if let Some(load) = cache.miss(region, txn) {
            out.send(
                self.client,
                self.pd,
                CdcMsg::Pd(PdMsg::GetRegion { region }),
            );
            let t = CdcTimer::Pd(PdTimer::GetRegionTimeout { region, load });
            out.set_timer(
                self.client,
                SimDuration::from_millis(PD_CLIENT_TIMEOUT_MS),
                t,
            );
        }
        None
    }

    /// PD's answer at `now` to a request: a TSO batch of `count` timestamps from its allocator,
    /// or the leader store of a region as PD's region heartbeats last told it (which can be
    /// stale, as client-go's region cache learns from `NotLeader`); `None` for an answer.
    pub(crate) fn pd_answer(&mut self, tikv: &Cluster, now: SimTime, m: &PdMsg) -> Option<PdMsg> {
        match *m {
            PdMsg::TsoRequest { batch, count } => Some(PdMsg::TsoResponse {
                batch,
                first: self.tso.next_batch(now, count),
                count,
            }),
            PdMsg::GetRegion { region } => Some(PdMsg::GetRegionResponse {
                region,
                leader: tikv.pd_region_leader_store(region),
            }),
            _ => None,
        }
    }

    /// Routes a PD request (at `pd-1`) or a PD answer (at its asker).
    pub(crate) fn on_pd_msg(
        &mut self,
        cx: &mut Cx,
        tikv: &Cluster,
        (from, to): (NodeId, NodeId),
        m: PdMsg,
    ) {
        match m {
            PdMsg::TsoRequest { .. } | PdMsg::GetRegion { .. } if to == self.pd => {
                if let Some(answer) = self.pd_answer(tikv, cx.now, &m) {
                    cx.out.send(self.pd, from, CdcMsg::Pd(answer));
                }
            }
            PdMsg::TsoResponse { batch, first, .. } => {
                self.on_tso_response(cx, tikv, to, batch, first)
            }
            PdMsg::GetRegionResponse { region, leader } if to == self.client => {
                let waiters = self.pd_clients.region_cache.loaded(region, leader);
                for txn in waiters {
                    self.region_loaded(cx, tikv, txn, region, leader.is_some());
                }
            }
            _ => {}
        }
    }

    fn on_tso_response(&mut self, cx: &mut Cx, tikv: &Cluster, to: NodeId, batch: u64, first: Ts) {
        if to == self.client {
            let (got, next) = self.pd_clients.workload.on_response(batch, first);
            if let Some(b) = next {
                self.send_tso_batch(&mut cx.out, self.client, b, PD_CLIENT_TIMEOUT_MS);
            }
            for (want, ts) in got {
                match want {
                    TsWant::Start => self.begin_txn(cx, tikv, ts),
                    TsWant::Commit(txn) => self.commit_at(cx, tikv, txn, ts),
                }
            }
        } else if let Some(s) = self.store_ix(to) {
            let (got, next) = self.pd_clients.stores[s as usize].on_response(batch, first);
            if let Some(b) = next {
                self.send_tso_batch(&mut cx.out, to, b, TIKV_PD_TIMEOUT_MS);
            }
            if let Some((_, ts)) = got.last() {
                self.endpoint_advance(&mut cx.out, tikv, s, *ts);
            }
        }
    }

    /// Routes a PD client's timer.
    pub(crate) fn on_pd_timer(&mut self, out: &mut Out, node: NodeId, t: PdTimer) {
        match t {
            PdTimer::TsoTimeout { batch } if node == self.client => {
                let (failed, next) = self.pd_clients.workload.on_timeout(batch);
                if let Some(b) = next {
                    self.send_tso_batch(out, self.client, b, PD_CLIENT_TIMEOUT_MS);
                }
                for want in failed {
                    match want {
                        TsWant::Start => self.pd_clients.start_ts_failed += 1,
                        TsWant::Commit(txn) => self.client_want_ts(out, TsWant::Commit(txn)),
                    }
                }
            }
            PdTimer::TsoTimeout { batch } => {
                if let Some(s) = self.store_ix(node) {
                    // Nothing advances this round; the next `min-ts-interval` tick asks again.
                    let (_, next) = self.pd_clients.stores[s as usize].on_timeout(batch);
                    if let Some(b) = next {
                        self.send_tso_batch(out, node, b, TIKV_PD_TIMEOUT_MS);
                    }
                }
            }
            PdTimer::GetRegionTimeout { region, load } => {
                let waiters = self.pd_clients.region_cache.load_timed_out(region, load);
                for txn in waiters {
                    self.txn_backoff(out, txn, region, BackoffKind::PdRpc);
                }
            }
        }
    }

    /// A region load for `txn` was answered: send its request, or back off when PD knows no
    /// leader (`BoRegionMiss`).
    fn region_loaded(&mut self, cx: &mut Cx, tikv: &Cluster, txn: u64, region: u32, found: bool) {
        let waiting = self
            .workload
            .open
            .get_mut(&txn)
            .and_then(|t| t.req_mut(region))
            .is_some_and(|r| r.op == u64::MAX && !r.done);
        if !waiting {
            return;
        }
        if found {
            self.send_txn_request(cx, tikv, txn, region);
        } else {
            self.txn_backoff(&mut cx.out, txn, region, BackoffKind::RegionMiss);
        }
    }

    /// The workload client died or restarted: its PD requests and region cache are gone.
    pub(crate) fn client_pd_reset(&mut self) {
        self.pd_clients.workload.clear();
        self.pd_clients.region_cache.clear();
    }
}

impl Cdc {
    /// Series of the PD clients, in sampling order.
    pub(crate) fn pd_client_metric_names(&self) -> Vec<String> {
        [
            "tso_requests_failed",
            "txns_start_ts_failed",
            "region_cache_misses",
            "region_cache_loads",
        ]
        .map(String::from)
        .to_vec()
    }

    /// One sample of [`Cdc::pd_client_metric_names`].
    pub(crate) fn sample_pd_client_metrics(&self, out: &mut Vec<f64>) {
        let p = &self.pd_clients;
        out.push(p.tso_requests_failed() as f64);
        out.push(p.start_ts_failed as f64);
        out.push(p.region_cache.misses as f64);
        out.push(p.region_cache.loads as f64);
    }
}

#[cfg(test)]
#[path = "pd_client_tests.rs"]
mod tests;
