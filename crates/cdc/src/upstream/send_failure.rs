//! Send failures of the workload's client and where it sends next, after client-go's region
//! request sender and replica selector:
//! - a killed store's host resets the client's connection to it (`region_request.go`
//!   `onSendFail`: gRPC's "canceled by remote ... when tikv is killed and exiting"), for a
//!   request in flight at the kill and for every connect while it is down, in [`RST_LATENCY`]
//!   where the link lets the RST through;
//! - a paused store, or one behind a cut link, sends no RST: the connection breaks when its
//!   gRPC keepalive gives up (client-go `internal/client/conn_pool.go`, `GrpcKeepAliveTime`
//!   10 s and `GrpcKeepAliveTimeout` 3 s), which fails every request in flight on it; one sent
//!   after that waits out `ReadTimeoutShort` (30 s);
//! - after a send failure on a store the client cannot hear (a reset, a keepalive failure, or
//!   a timeout while the store is cut off or paused: client-go's `checkLiveness` health probe
//!   fails) the client marks the store
//!   unreachable (`store_cache.go`) and the resend goes to a follower (`replica_selector.go`
//!   `onSendFailure`, `nextForReplicaReadLeader`), which answers NotLeader and, being knocked
//!   on, wakes and campaigns; the follower is the next replica after the failed store in PD's
//!   peer list.

use std::collections::btree_map::Entry;

use faultline_sim::SimDuration;
use faultline_tikv::Cluster;

use crate::cdc::Cdc;
use crate::msg::CdcTimer;
use crate::out::{Cx, Reach};
use crate::upstream::client_backoff::BackoffKind;
use crate::upstream::txn_wire::TxnTimer;

/// Why a request's send failed (client-go `onSendFail`); each has its `failed_writes.*` metric.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SendFailure {
    /// No answer within `ReadTimeoutShort`.
    Timeout,
    /// The connection was reset: the store's process was killed.
    Reset,
    /// The connection's keepalive ping went unanswered.
    Keepalive,
}

/// How long a killed store's host takes to reset a connection to it: one short hop, the
/// RST that the host's kernel sends for a socket whose process is gone.
pub(crate) const RST_LATENCY: SimDuration = SimDuration::from_millis(1);

impl Cdc {
    /// Where a request for `region` cached as led on `store` goes: there, unless the client
    /// found that store out of reach, then to a follower (client-go's `ReplicaSelectLeaderStrategy`
    /// skips a leader whose store is not reachable, and the mixed strategy picks another
    /// replica). The store leaves the set once it can be reached again: client-go's health
    /// check asks it every second; simplified here to the moment of the next send.
    pub(crate) fn live_replica(
        &mut self,
        tikv: &Cluster,
        reach: Reach,
        region: u32,
        store: u32,
    ) -> u32 {
        if !self.workload.unreachable_stores.contains(&store) {
            return store;
        }
        let node = self.stores[store as usize];
        if reach.reachable(self.client, node) && reach.is_up(node) {
            self.workload.unreachable_stores.remove(&store);
            return store;
        }
        next_replica(tikv, region, store).unwrap_or(store)
    }

    /// Store `store`'s process was killed: every request in flight to it fails with a reset
    /// connection where the link lets the RST reach the client (client-go `onSendFail`).
    pub(crate) fn client_connections_reset(&mut self, cx: &mut Cx, store: u32) {
        if !cx.reach.link_up(self.stores[store as usize], self.client) {
            return;
        }
        for op in self.requests_in_flight_to(store) {
            let reset = CdcTimer::Txn(TxnTimer::ConnectionReset { op });
            cx.out.set_timer(self.client, RST_LATENCY, reset);
        }
    }

    /// No answer to `op` within `ReadTimeoutShort`, or its connection broke: a send failure
    /// (client-go `onSendFail`): drop the hint and the cached region, back off `BoTiKVRPC`,
    /// and resend to a follower if the failed store does not answer a health probe.
    pub(crate) fn on_send_fail(&mut self, cx: &mut Cx, tikv: &Cluster, op: u64, why: SendFailure) {
        let Some((id, region)) = self.current_request(op) else {
            return;
        };
        let failed_store = self.workload.ops[&op].store;
        let req = self
            .workload
            .open
            .get_mut(&id)
            .and_then(|t| t.req_mut(region))
            .expect("current");
        req.op = 0;
        req.hint = None;
        let failed = &mut self.workload.failed;
        match why {
            SendFailure::Timeout => failed.timeout += 1,
            SendFailure::Reset => failed.connection_reset += 1,
            SendFailure::Keepalive => failed.keepalive += 1,
        }
        self.txn_backoff(&mut cx.out, id, region, BackoffKind::TikvRpc);
        if why == SendFailure::Reset || !self.client_hears(cx.reach, failed_store) {
            self.workload.unreachable_stores.insert(failed_store);
            let follower = next_replica(tikv, region, failed_store);
            if let Some(req) = self
                .workload
                .open
                .get_mut(&id)
                .and_then(|t| t.req_mut(region))
            {
                req.follower = follower;
            }
        }
    }

    /// The client's requests to `store` that still wait for their answer.
    fn requests_in_flight_to(&self, store: u32) -> Vec<u64> {
        (self.workload.ops.iter())
            .filter(|(op, r)| r.store == store && self.current_request(**op).is_some())
            .map(|(op, _)| *op)
            .collect()
    }

    /// Whether the client and `store` hear each other: both links up and the store's process
    /// running (client-go's health probe would be answered).
    fn client_hears(&self, reach: Reach, store: u32) -> bool {
        let node = self.stores[store as usize];
        reach.reachable(self.client, node)
            && reach.reachable(node, self.client)
            && reach.is_up(node)
    }

    /// Links or a store's state changed: each store the client stopped hearing starts its
    /// keepalive wait now, and a store heard again ends its wait. Nothing to do without a
    /// workload.
    pub(crate) fn client_connections_may_break(&mut self, cx: &mut Cx) {
        if self.cfg.workload.txns_per_sec == 0 {
            return;
        }
        let after = self.cfg.grpc_keepalive.breaks_after();
        for store in 0..self.stores.len() as u32 {
            if self.client_hears(cx.reach, store) {
                self.workload.silent_since.remove(&store);
            } else if let Entry::Vacant(wait) = self.workload.silent_since.entry(store) {
                wait.insert(cx.now);
                let timer = CdcTimer::Txn(TxnTimer::KeepaliveFailed { store });
                cx.out.set_timer(self.client, after, timer);
            }
        }
    }

    /// The keepalive wait on `store` ran out: the connection breaks, and every request in
    /// flight on it fails. A wait that an earlier silence armed does nothing if the store was
    /// heard in between (a later silence armed its own).
    pub(crate) fn client_keepalive_failed(&mut self, cx: &mut Cx, tikv: &Cluster, store: u32) {
        let after = self.cfg.grpc_keepalive.breaks_after();
        match self.workload.silent_since.get(&store) {
            Some(since) if since.0 + after.0 <= cx.now.0 => {}
            _ => return,
        }
        self.workload.silent_since.remove(&store);
        for op in self.requests_in_flight_to(store) {
            self.on_send_fail(cx, tikv, op, SendFailure::Keepalive);
        }
    }
}

/// The replica of `region` to try after `failed` could not be reached: the next one after it
/// in the region's peer list (PD's region info), wrapping around; `None` for a single-replica
/// region.
pub(crate) fn next_replica(tikv: &Cluster, region: u32, failed: u32) -> Option<u32> {
    let (stores, n) = tikv.region_stores(region);
    let replicas = &stores[..n];
    let at = replicas.iter().position(|s| *s == failed).unwrap_or(0);
    (1..replicas.len())
        .map(|i| replicas[(at + i) % replicas.len()])
        .find(|s| *s != failed)
}

#[cfg(test)]
#[path = "send_failure_tests.rs"]
mod tests;
