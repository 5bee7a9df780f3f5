//! The KV client's lock resolver, after TiCDC 7.x's region worker (tiflow
//! `cdc/kv/region_worker.go`, `regionWorker.resolveLock`): every 5 s it looks for regions
//! whose resolved ts is at least 20 s behind PD's time and has not moved in ten resolved-ts
//! events in a row (the penalty, `cdc/kv/resolvedts_heap.go`), at most 64 per store, and asks
//! each one's leader to resolve its locks older than 10 s (`pkg/txnutil/lock_resolver.go`,
//! `resolver.Resolve`: `ScanLock` then `ResolveLocks`). A lock whose transaction is alive is
//! left alone; one whose client died is rolled back or committed once its TTL has run out
//! (`crate::upstream::orphan_locks`), and the region's resolved ts moves again.
//!
//! TiCDC 8.x's shared client asks sooner (a table stuck 4 s, `resolveLockFence`, checked every
//! 2 s, each region at most every 10 s: `cdc/puller/multiplexing_puller.go`,
//! `cdc/kv/shared_client.go` `handleResolveLockTasks`); the model follows 7.x, as its KV
//! client does. The check runs on the processor's tick, not on a ticker of its own, so it
//! fires at the first tick at least 5 s after the last.

use faultline_sim::{Level, SimDuration, SimTime};

use crate::capture::kvclient::region::Owner;
use crate::capture::kvclient::KvClient;
use crate::cdc::Cdc;
use crate::msg::CdcMsg;
use crate::out::Cx;
use crate::ts::Ts;

/// `advanceCheckTicker`: how often the region worker looks for stuck regions.
pub const RESOLVE_LOCK_CHECK: SimDuration = SimDuration::from_secs(5);
/// `resolveLockInterval`: how far behind PD's time a region's resolved ts must be.
const RESOLVE_LOCK_INTERVAL: SimDuration = SimDuration::from_secs(20);
/// `resolveLockPenalty`: resolved-ts events in a row that did not move it.
const RESOLVE_LOCK_PENALTY: u32 = 10;
/// `maxResolvedLockPerLoop`: stuck regions looked at per store and check.
const MAX_RESOLVED_LOCK_PER_LOOP: usize = 64;
/// Locks younger than this are not asked about (`maxVersion` is PD's time minus 10 s).
const RESOLVE_LOCK_MAX_AGE: SimDuration = SimDuration::from_secs(10);

impl KvClient {
    /// The regions to ask about at `now`, as `(store, region)`, each with its penalty reset:
    /// per store, the stuck regions in resolved-ts order, the first 64 of them, of which those
    /// whose resolved ts stood still for ten events.
    pub fn regions_to_resolve(&mut self, now: SimTime) -> Vec<(u32, u32)> {
        let mut stuck: Vec<(u32, Ts, u32)> = self
            .regions()
            .iter()
            .filter_map(|(region, t)| match t.owner {
                Owner::Worker { store, .. }
                    if t.initialized
                        && now.0.saturating_sub(t.resolved.sim_time().0)
                            >= RESOLVE_LOCK_INTERVAL.0 =>
                {
                    Some((store, t.resolved, region))
                }
                _ => None,
            })
            .collect();
        stuck.sort();
        let mut picked = Vec::new();
        let mut per_store = (u32::MAX, 0usize);
        for (store, _, region) in stuck {
            if per_store.0 != store {
                per_store = (store, 0);
            }
            per_store.1 += 1;
            if per_store.1 > MAX_RESOLVED_LOCK_PER_LOOP {
                continue;
            }
            if self.take_penalty(region, RESOLVE_LOCK_PENALTY) {
                picked.push((store, region));
            }
        }
        picked
    }
}

impl Cdc {
    /// Capture `c`'s lock resolver for changefeed `cf`, on its processor's tick at `now`.
    pub(crate) fn resolve_stale_locks(&mut self, cx: &mut Cx, c: u32, cf: usize) {
        let (now, out) = (cx.now, &mut cx.out);
        let p = &mut self.processors[c as usize][cf];
        if now < p.next_lock_check {
            return;
        }
        p.next_lock_check = SimTime(now.0 + RESOLVE_LOCK_CHECK.0);
        let max_version = Ts::at(SimTime(now.0.saturating_sub(RESOLVE_LOCK_MAX_AGE.0)), 0);
        let node = self.captures[c as usize];
        for (store, region) in p.kv.regions_to_resolve(now) {
            self.resolve_lock_requests += 1;
            let detail = format!("region_id={region} store={}", store + 1);
            out.log(Some(node), Level::Warn, "try to resolve lock", detail);
            let msg = CdcMsg::ResolveLock {
                region,
                max_version,
            };
            out.send(node, self.stores[store as usize], msg);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::change::{RegionEvent, RegionEventKind};
    use crate::config::KvClientEvict;

    const SEC: u64 = 1_000_000;

    /// A KV client serving region 1 on store 0's stream, initialized, resolved at 10 s.
    fn serving() -> KvClient {
        let mut c = KvClient::new(KvClientEvict::AfterJoin);
        let mut out = Vec::new();
        let span = crate::keyspace::Keyspace::new(1, 8, 2).span(1);
        c.track(1, span, Ts::at(SimTime(10 * SEC), 0), &mut out);
        c.request(1, Some(0), |_| true, &mut out);
        let g = c.streams()[&0].generation;
        let init = RegionEvent {
            region: 1,
            request: 1,
            kind: RegionEventKind::Initialized,
        };
        c.on_events(0, g, vec![init], &mut out);
        c
    }

    /// TiKV publishes the same resolved ts `n` times (a lock holds it).
    fn stand_still(c: &mut KvClient, n: u32) {
        let g = c.streams()[&0].generation;
        let ts = c.regions()[&1].resolved;
        for _ in 0..n {
            let ev = RegionEvent {
                region: 1,
                request: 1,
                kind: RegionEventKind::Resolved(ts),
            };
            c.on_events(0, g, vec![ev], &mut Vec::new());
        }
    }

    #[test]
    fn a_region_is_asked_about_after_20_s_behind_and_ten_standing_events() {
        let mut c = serving();
        stand_still(&mut c, 9);
        let at = |s: u64| SimTime(s * SEC);
        assert!(
            c.regions_to_resolve(at(40)).is_empty(),
            "nine events: not yet"
        );
        stand_still(&mut c, 1);
        assert!(
            c.regions_to_resolve(at(29)).is_empty(),
            "19 s behind: not yet"
        );
        assert_eq!(c.regions_to_resolve(at(30)), [(0, 1)]);
        assert!(
            c.regions_to_resolve(at(35)).is_empty(),
            "the penalty starts again"
        );
        stand_still(&mut c, 10);
        assert_eq!(c.regions_to_resolve(at(40)), [(0, 1)]);
    }

    #[test]
    fn a_moving_resolved_ts_resets_the_penalty() {
        let mut c = serving();
        stand_still(&mut c, 9);
        let g = c.streams()[&0].generation;
        let moved = RegionEvent {
            region: 1,
            request: 1,
            kind: RegionEventKind::Resolved(Ts::at(SimTime(11 * SEC), 0)),
        };
        c.on_events(0, g, vec![moved], &mut Vec::new());
        stand_still(&mut c, 9);
        assert!(c.regions_to_resolve(SimTime(40 * SEC)).is_empty());
    }
}
