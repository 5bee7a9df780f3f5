//! Send failures of the workload's client and where it sends next, after client-go's region
//! request sender and replica selector:
//! - a killed store's host resets the client's connection to it (`region_request.go`
//!   `onSendFail`: gRPC's "canceled by remote ... when tikv is killed and exiting"), for a
//!   request in flight at the kill and for every connect while it is down, in [`RST_LATENCY`]
//!   where the link lets the RST through; a paused or cut store sends none, so those requests
//!   wait out `ReadTimeoutShort`;
//! - after a send failure on a store the client cannot reach (a reset, or a timeout while the
//!   link is cut: client-go's `checkLiveness` probe fails) the client marks the store
//!   unreachable (`store_cache.go`) and the resend goes to a follower (`replica_selector.go`
//!   `onSendFailure`, `nextForReplicaReadLeader`), which answers NotLeader and, being knocked
//!   on, wakes and campaigns; the follower is the next replica after the failed store in PD's
//!   peer list.

use faultline_sim::SimDuration;
use faultline_tikv::Cluster;

use crate::cdc::Cdc;
use crate::msg::CdcTimer;
use crate::out::{Out, Reach};
use crate::upstream::client_backoff::BackoffKind;
use crate::upstream::txn_wire::TxnTimer;

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
    pub(crate) fn client_connections_reset(&mut self, out: &mut Out, reach: Reach, store: u32) {
        if !reach.link_up(self.stores[store as usize], self.client) {
            return;
        }
        let in_flight: Vec<u64> = (self.workload.ops.iter())
            .filter(|(op, r)| r.store == store && self.current_request(**op).is_some())
            .map(|(op, _)| *op)
            .collect();
        for op in in_flight {
            let reset = CdcTimer::Txn(TxnTimer::ConnectionReset { op });
            out.set_timer(self.client, RST_LATENCY, reset);
        }
    }

    /// No answer to `op` within `ReadTimeoutShort`, or its connection was reset: a send
    /// failure (client-go `onSendFail`): drop the hint and the cached region, back off
    /// `BoTiKVRPC`, and resend to a follower if the failed store is out of reach.
    pub(crate) fn on_send_fail(
        &mut self,
        out: &mut Out,
        (tikv, reach): (&Cluster, Reach),
        op: u64,
        reset: bool,
    ) {
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
        if reset {
            self.workload.failed.connection_reset += 1;
        } else {
            self.workload.failed.timeout += 1;
        }
        self.txn_backoff(out, id, region, BackoffKind::TikvRpc);
        let store_node = self.stores[failed_store as usize];
        if reset || !reach.reachable(self.client, store_node) {
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
