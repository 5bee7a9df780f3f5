//! TiKV's CDC endpoint as this model runs it on each store: region registrations (a
//! RegionNotFound error, or a ReadIndex at the local peer, then a NotLeader error or an
//! incremental scan), the scan's result and the outbox of events per subscriber. The
//! endpoint's own state is [`crate::endpoint::store_endpoint`].
//!
//! Registration follows TiKV 7.1: `components/cdc/src/initializer.rs`,
//! `Initializer::initialize`, sends the region's peer a `capture_change` whose callback starts
//! the incremental scan, and `components/raftstore/src/store/fsm/peer.rs`,
//! `PeerFsmDelegate::on_capture_change`, makes it a ReadIndex: the scan is scheduled only once
//! the read is confirmed by a quorum (`faultline_tikv::raft::read_index`). An error in the
//! read's answer fails the registration (`Initializer::on_change_cmd_response`). Handlers
//! here see TiKV immutably, so reads wait in `ReadRequests` (`store_endpoint.rs`) until the Stack
//! hands them to TiKV after the handler (`Stack::run_read_requests`).

use faultline_tikv::{Cluster, OpEvent, OpOutcome};

use crate::cdc::Cdc;
use crate::change::{RegionError, RegionEvent, RegionEventKind, RowChange};
use crate::endpoint::store_endpoint::{Endpoint, ReadRequest, ScanRequest, Subscription};
use crate::msg::CdcTimer;
use crate::out::Cx;
use crate::ts::Ts;

impl Cdc {
    /// A capture registers a region on store `s`: RegionNotFound if the store has no replica,
    /// else a ReadIndex at its peer.
    pub(crate) fn endpoint_on_register(&mut self, tikv: &Cluster, s: u32, req: ScanRequest) {
        let has_peer = tikv
            .region_detail(req.region)
            .is_some_and(|d| d.peers.iter().any(|p| p.store == s));
        if !has_peer {
            // PD moved the replica away (or never placed one here).
            let kind = RegionEventKind::Error(RegionError::RegionNotFound);
            let ev = RegionEvent {
                region: req.region,
                request: req.request,
                kind,
            };
            self.endpoints[s as usize].push(req.sub, ev);
            return;
        }
        if stale_epoch(tikv, &req) {
            self.endpoints[s as usize].push(req.sub, epoch_not_match(req.region, req.request));
            return;
        }
        let reads = &mut self.read_requests;
        reads.last_op += 1;
        let op = reads.last_op;
        reads.waiting.insert(op, (s, req));
        let region = req.region;
        reads.outbox.push(ReadRequest {
            store: s,
            region,
            op,
        });
    }

    /// ReadIndex requests to hand to TiKV, in the order they were asked.
    pub fn take_read_requests(&mut self) -> Vec<ReadRequest> {
        std::mem::take(&mut self.read_requests.outbox)
    }

    /// True when ReadIndex requests wait to be handed to TiKV.
    pub fn has_read_requests(&self) -> bool {
        !self.read_requests.outbox.is_empty()
    }

    /// TiKV answered a registration's ReadIndex: start the incremental scan, or fail the
    /// registration with NotLeader (TiKV answers `StaleCommand` to a read its leader dropped
    /// on stepping down; the model reports every failed read as NotLeader, with the region's
    /// current leader as hint, as it did before reads were modelled).
    /// The scan's timer goes to `cx.out`; a failure waits in the endpoint's outbox.
    pub(crate) fn endpoint_read_answered(&mut self, cx: &mut Cx, tikv: &Cluster, e: OpEvent) {
        let now = cx.now;
        let Some((s, req)) = self.read_requests.waiting.remove(&e.op) else {
            return;
        };
        if e.outcome == OpOutcome::ReadReady {
            let (a, b) = self.ks.region_keys(req.region);
            let done = self.endpoints[s as usize].schedule_scan(now, b - a);
            let timer = CdcTimer::ScanDone {
                capture: req.sub.capture,
                cf: req.sub.cf,
                stream: req.sub.stream,
                region: req.region,
                request: req.request,
                checkpoint: req.checkpoint,
                version: req.version,
            };
            cx.out
                .set_timer(self.stores[s as usize], done.since(now), timer);
        } else {
            let leader = tikv.region_leader_store(req.region);
            let ev = not_leader(req.region, req.request, leader);
            self.endpoints[s as usize].push(req.sub, ev);
        }
    }

    /// Store `s` was killed: its registrations' reads died with it.
    pub(crate) fn endpoint_reads_lost(&mut self, s: u32) {
        self.read_requests
            .waiting
            .retain(|_, (store, _)| *store != s);
        self.read_requests.outbox.retain(|r| r.store != s);
    }

    /// The incremental scan of a registered region on store `s` finished.
    pub(crate) fn endpoint_scan_done(&mut self, tikv: &Cluster, s: u32, req: ScanRequest) {
        let (sub, region, request, checkpoint) = (req.sub, req.region, req.request, req.checkpoint);
        if tikv.local_leader_term(s, region).is_none() {
            let leader = tikv.region_leader_store(region);
            self.endpoints[s as usize].push(sub, not_leader(region, request, leader));
        } else if stale_epoch(tikv, &req) {
            // The region split while it was scanned (TiKV `components/cdc/src/endpoint.rs`
            // `finish_scan_locks` checks each downstream's epoch before it goes live).
            self.endpoints[s as usize].push(sub, epoch_not_match(region, request));
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

    /// Every version committed in `region` after `after`, per key oldest first: TiKV's
    /// incremental scan (`components/cdc/src/initializer.rs`, `build_delta_scanner`).
    fn scan(&self, region: u32, after: Ts) -> Vec<RowChange> {
        let (a, b) = self.ks.region_keys(region);
        (a..b)
            .flat_map(|key| {
                (self.upstream.versions_after(key, after)).map(move |v| RowChange {
                    key,
                    value: v.value,
                    start_ts: v.commit_ts,
                    commit_ts: v.commit_ts,
                })
            })
            .collect()
    }

    /// Sends (or holds) every batch the stores' CDC endpoints queued during this event.
    pub(crate) fn flush_endpoints(&mut self, cx: &mut Cx) {
        for s in 0..self.endpoints.len() {
            if self.endpoints[s].outbox.is_empty() {
                continue;
            }
            let outbox = std::mem::take(&mut self.endpoints[s].outbox);
            for (sub, events) in outbox {
                self.send_events(cx, s as u32, sub, events);
            }
        }
    }
}

/// True when the registration asked with an older epoch version than the region has now:
/// TiKV answers EpochNotMatch (`Delegate::subscribe` -> `check_epoch_on_ready`, or the
/// ReadIndex's `pre_propose_raft_command` -> `check_req_region_epoch`, version only). A
/// region merged away is gone: TiKV answers RegionNotFound, on which tiflow divides the span
/// as it does on EpochNotMatch (`cdc/kv/client.go` `handleError`), so it counts here too.
fn stale_epoch(tikv: &Cluster, req: &ScanRequest) -> bool {
    tikv.region_merged_into(req.region).is_some()
        || tikv
            .region_epoch(req.region)
            .is_some_and(|e| e.version != req.version)
}

fn epoch_not_match(region: u32, request: u64) -> RegionEvent {
    RegionEvent {
        region,
        request,
        kind: RegionEventKind::Error(RegionError::EpochNotMatch),
    }
}

/// Region `region`'s epoch changed under its subscriptions (it split, or one of PrepareMerge,
/// CommitMerge and RollbackMerge applied): every endpoint ends them with EpochNotMatch (TiKV
/// `components/cdc/src/delegate.rs`, `Delegate::on_batch` -> `sink_admin` on the applied
/// admin command, then `Delegate::stop`); regions a split made have none until TiCDC
/// registers them.
pub(crate) fn end_epoch_subscriptions(endpoints: &mut [Endpoint], region: u32) {
    for ep in endpoints {
        for sub in ep.subs.remove(&region).unwrap_or_default() {
            ep.push(sub.to, epoch_not_match(region, sub.request));
        }
    }
}

fn not_leader(region: u32, request: u64, leader: Option<u32>) -> RegionEvent {
    RegionEvent {
        region,
        request,
        kind: RegionEventKind::Error(RegionError::NotLeader { leader }),
    }
}

#[cfg(test)]
#[path = "endpoint_host_tests.rs"]
mod tests;
