//! TiKV's CDC endpoint on one store: subscriptions of observed regions, incremental scans,
//! live change events, and resolved ts every `min-ts-interval`.
//!
//! Simplifications: a subscription becomes active when its incremental scan finishes (the
//! scan reads the latest committed versions, so nothing committed meanwhile is missed); scans
//! on a store run [`SCAN_THREADS`] at a time, each at a fixed cost plus a cost per row (the
//! model's numbers, not measured: TiKV's scan speed limit of 128 MB/s never binds at these
//! row counts). Resolved ts waits for the CheckLeader round of [`crate::endpoint::check_leader`].

use std::collections::BTreeMap;

use faultline_sim::{SimDuration, SimTime};
use smallvec::SmallVec;

use crate::change::{RegionEvent, RegionEventKind};
use crate::ids::CfIx;
use crate::ts::Ts;

/// The subscriptions of one region, stored inline: a region almost always has one, and at
/// full scale the endpoint looks 64,000 of them up a second, where a separate allocation
/// each was a cache miss each.
pub type Subscriptions = SmallVec<[Subscription; 1]>;

/// Who a subscription sends to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Subscriber {
    /// Capture index.
    pub capture: u32,
    /// Changefeed.
    pub cf: CfIx,
    /// Stream generation at the capture.
    pub stream: u64,
}

/// An active subscription.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Subscription {
    /// Where to send.
    pub to: Subscriber,
    /// Request id.
    pub request: u64,
}

/// One region request a store is serving: who asked, for which region, under which request id,
/// and the ts after which the incremental scan returns changes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ScanRequest {
    pub(crate) sub: Subscriber,
    pub(crate) region: u32,
    /// The epoch version the capture asked with.
    pub(crate) version: u64,
    pub(crate) request: u64,
    pub(crate) checkpoint: Ts,
}

/// A ReadIndex an endpoint asks of its store's peer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadRequest {
    /// Store index.
    pub store: u32,
    /// Region.
    pub region: u32,
    /// Id the answer comes back with (a `faultline_tikv::OpEvent`'s `op`).
    pub op: u64,
}

/// Reads asked for by the endpoints and not yet handed to TiKV, and the registrations
/// waiting for their reads' answers.
#[derive(Clone, Debug, Default)]
pub(crate) struct ReadRequests {
    pub(crate) outbox: Vec<ReadRequest>,
    /// Per read op: the store and the registration it will start.
    pub(crate) waiting: BTreeMap<u64, (u32, ScanRequest)>,
    /// The last op id given to a read (ids start at 1; 0 means untracked to TiKV).
    pub(crate) last_op: u64,
}

/// The endpoint of one store.
#[derive(Clone, Debug, Default)]
pub struct Endpoint {
    /// Active subscriptions per region (several captures or changefeeds may observe one).
    pub subs: BTreeMap<u32, Subscriptions>,
    /// When each scan thread of the store is free again.
    pub scan_free_at: [SimTime; SCAN_THREADS],
    /// Events to send at the end of the current step, per subscriber stream.
    pub outbox: BTreeMap<Subscriber, Vec<RegionEvent>>,
    /// The current CheckLeader round.
    pub check: crate::endpoint::check_round::CheckRound,
}

/// Queues `kind` of `region` in `outbox` for each of `subs`, under each one's request id.
fn queue_for_each(
    outbox: &mut BTreeMap<Subscriber, Vec<RegionEvent>>,
    region: u32,
    subs: &[Subscription],
    kind: &RegionEventKind,
) {
    for sub in subs {
        let ev = RegionEvent {
            region,
            request: sub.request,
            kind: kind.clone(),
        };
        outbox.entry(sub.to).or_default().push(ev);
    }
}

/// Incremental scans that run at once on a store: TiKV runs them on a pool of
/// `cdc.incremental-scan-threads` (4) threads and lets `cdc.incremental-scan-concurrency` (6)
/// tasks run at once, so the pool bounds them (tikv `src/config/mod.rs`, `CdcConfig::default`;
/// `components/cdc/src/endpoint.rs` spawns each `Initializer` on that pool). TiCDC's own limit,
/// `kv-client.region-scan-limit` (40 per table per store, tiflow `pkg/config/kvclient.go`),
/// is above what a table of these scenarios has in flight on one store, so it is not modelled.
pub const SCAN_THREADS: usize = 4;

/// Fixed cost of one incremental scan.
pub const SCAN_BASE: SimDuration = SimDuration::from_millis(2);
/// Cost per row scanned.
pub const SCAN_PER_ROW: SimDuration = SimDuration::from_micros(20);

impl Endpoint {
    /// When a scan of `rows` rows requested now will finish: it runs on the thread free
    /// first (the lowest on a tie), after the scans queued before it.
    pub fn schedule_scan(&mut self, now: SimTime, rows: u32) -> SimTime {
        let (slot, free) = self
            .scan_free_at
            .iter()
            .copied()
            .enumerate()
            .min_by_key(|(i, t)| (*t, *i))
            .expect("SCAN_THREADS > 0");
        let start = free.max(now);
        let done = start.plus(SCAN_BASE).plus(SCAN_PER_ROW.mul(rows as u64));
        self.scan_free_at[slot] = done;
        done
    }

    /// Queues an event for a subscriber.
    pub fn push(&mut self, to: Subscriber, ev: RegionEvent) {
        self.outbox.entry(to).or_default().push(ev);
    }

    /// Queues `kind` for every subscriber of `region`, each under its own request id.
    pub fn push_to_subscribers(&mut self, region: u32, kind: RegionEventKind) {
        if let Some(list) = self.subs.get(&region) {
            queue_for_each(&mut self.outbox, region, list, &kind);
        }
    }

    /// Queues each `(region, resolved ts)` of `resolved`, in increasing region order, for
    /// the region's subscribers, as [`Endpoint::push_to_subscribers`] would one by one. A
    /// round publishes up to 64,000 regions a store at full scale, in region order: one walk
    /// along the subscriptions finds them all, where a lookup each went down the tree again.
    pub fn push_resolved(&mut self, resolved: &[(u32, Ts)]) {
        let (Some(first), true) = (resolved.first(), resolved.is_sorted_by_key(|r| r.0)) else {
            for &(region, ts) in resolved {
                self.push_to_subscribers(region, RegionEventKind::Resolved(ts));
            }
            return;
        };
        let Endpoint { subs, outbox, .. } = self;
        let mut walk = subs.range(first.0..).peekable();
        for &(region, ts) in resolved {
            while walk.next_if(|(r, _)| **r < region).is_some() {}
            if let Some((_, list)) = walk.next_if(|(r, _)| **r == region) {
                queue_for_each(outbox, region, list, &RegionEventKind::Resolved(ts));
            }
        }
    }

    /// Adds (or replaces) the subscription of `to` on `region`.
    pub fn subscribe(&mut self, region: u32, sub: Subscription) {
        let list = self.subs.entry(region).or_default();
        list.retain(|s| (s.to.capture, s.to.cf) != (sub.to.capture, sub.to.cf));
        list.push(sub);
    }

    /// Drops every subscription of a capture and what was queued for it: its process died,
    /// so TiKV sees its gRPC connections close.
    pub fn drop_capture(&mut self, capture: u32) {
        for subs in self.subs.values_mut() {
            subs.retain(|s| s.to.capture != capture);
        }
        self.subs.retain(|_, subs| !subs.is_empty());
        self.outbox.retain(|to, _| to.capture != capture);
    }

    /// Forgets everything (the store restarted).
    pub fn reset(&mut self) {
        self.subs.clear();
        self.outbox.clear();
        self.scan_free_at = [SimTime::ZERO; SCAN_THREADS];
        self.check = Default::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One walk over the subscriptions queues what a lookup per region queues: regions with
    /// none, with two subscribers, at either end, and a list out of order (looked up one by
    /// one instead).
    #[test]
    fn resolved_ts_for_a_list_of_regions_queues_what_one_at_a_time_does() {
        let mut e = Endpoint::default();
        for (region, capture) in [(1, 0), (4, 0), (4, 1), (7, 1), (9, 0)] {
            let to = Subscriber {
                capture,
                cf: 0,
                stream: 1,
            };
            let request = region as u64 * 10 + capture as u64;
            e.subscribe(region, Subscription { to, request });
        }
        for list in [
            vec![
                (0, Ts(5)),
                (1, Ts(6)),
                (4, Ts(7)),
                (5, Ts(8)),
                (9, Ts(9)),
                (12, Ts(1)),
            ],
            vec![(9, Ts(3)), (4, Ts(2)), (1, Ts(1))],
            vec![],
        ] {
            let (mut walked, mut one_by_one) = (e.clone(), e.clone());
            walked.push_resolved(&list);
            for &(region, ts) in &list {
                one_by_one.push_to_subscribers(region, RegionEventKind::Resolved(ts));
            }
            assert_eq!(walked.outbox, one_by_one.outbox, "{list:?}");
        }
        let mut e2 = e.clone();
        e2.push_resolved(&[(4, Ts(7))]);
        assert_eq!(
            e2.outbox.values().map(Vec::len).sum::<usize>(),
            2,
            "both subscribers of 4"
        );
    }

    #[test]
    fn a_store_runs_four_scans_at_once_and_queues_the_fifth() {
        let mut e = Endpoint::default();
        let first = SimTime::ZERO.plus(SCAN_BASE).plus(SCAN_PER_ROW);
        let done: Vec<SimTime> = (0..5).map(|_| e.schedule_scan(SimTime::ZERO, 1)).collect();
        assert_eq!(&done[..4], &[first; 4]);
        let fifth = first.plus(SCAN_BASE).plus(SCAN_PER_ROW);
        assert_eq!(done[4], fifth, "waits for a free thread");
        // Later, with every thread idle again, a scan starts at once.
        let later = SimTime::ZERO.plus(SimDuration::from_secs(1));
        assert_eq!(e.schedule_scan(later, 0), later.plus(SCAN_BASE));
    }
}
