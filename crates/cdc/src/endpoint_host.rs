//! TiKV's CDC endpoint as this model runs it on each store: region registrations (a NotLeader
//! or RegionNotFound error, or an incremental scan), the scan's result and the outbox of events per subscriber. The endpoint's own state is [`crate::endpoint`].

use faultline_sim::Kernel;
use faultline_tikv::Cluster;

use crate::cdc::Cdc;
use crate::change::{RegionError, RegionEvent, RegionEventKind, RowChange};
use crate::endpoint::{Subscriber, Subscription};
use crate::msg::CdcTimer;
use crate::stack::Stack;
use crate::ts::Ts;

/// One region request a store is serving: who asked, for which region, under which request id,
/// and the ts after which the incremental scan returns changes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ScanRequest {
    pub(crate) sub: Subscriber,
    pub(crate) region: u32,
    pub(crate) request: u64,
    pub(crate) checkpoint: Ts,
}

impl Cdc {
    /// A capture registers a region on store `s` (node `to`).
    pub(crate) fn endpoint_on_register(
        &mut self,
        k: &mut Kernel<Stack>,
        tikv: &Cluster,
        to: faultline_sim::NodeId,
        s: u32,
        req: ScanRequest,
    ) {
        let (sub, region, request, checkpoint) = (req.sub, req.region, req.request, req.checkpoint);
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
        } else if tikv.local_leader_term(s, region).is_none() {
            let leader = tikv.region_leader_store(region);
            self.endpoints[s as usize].push(sub, not_leader(region, request, leader));
        } else {
            let (a, b) = self.ks.region_keys(region);
            let done = self.endpoints[s as usize].schedule_scan(k.now(), b - a);
            let timer = CdcTimer::ScanDone {
                capture: sub.capture,
                cf: sub.cf,
                stream: sub.stream,
                region,
                request,
                checkpoint,
            };
            k.set_timer(to, done.since(k.now()), timer);
        }
    }

    /// The incremental scan of a registered region on store `s` finished.
    pub(crate) fn endpoint_scan_done(&mut self, tikv: &Cluster, s: u32, req: ScanRequest) {
        let (sub, region, request, checkpoint) = (req.sub, req.region, req.request, req.checkpoint);
        if tikv.local_leader_term(s, region).is_none() {
            let leader = tikv.region_leader_store(region);
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

    pub(crate) fn flush_endpoints(&mut self, k: &mut Kernel<Stack>) {
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
}

fn not_leader(region: u32, request: u64, leader: Option<u32>) -> RegionEvent {
    RegionEvent {
        region,
        request,
        kind: RegionEventKind::Error(RegionError::NotLeader { leader }),
    }
}
