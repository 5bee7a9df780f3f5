//! The TiCDC KV client of one changefeed on one capture, as a sans-I/O state machine.
//!
//! Per store one stream; per stream a region worker and a receive loop; a pending map of
//! regions requested but not yet answered. Region errors: `NotLeader` -> re-request (the
//! leader comes from PD's region cache), `RegionNotFound` -> re-request at once, from PD; a
//! broken stream -> evict the worker's regions and re-request them and all pending ones.
//!
//! The tiflow#9595 toggle decides *when* a stream that is going away evicts:
//! - `OnWorkerExit` (v7.4.0-alpha, tiflow#9519): the worker evicts its own regions when it
//!   exits, and the receive loop fails the pending ones when it exits later. A first event the
//!   receive loop takes in between is handed to the dead worker: that region is `Lost`.
//! - `AfterJoin` (tiflow#9597): once both loops stopped, evict the worker's regions, the ones
//!   handed to it late, and every pending region.

pub mod action;
pub mod region;
pub mod region_map;
pub mod spans;
pub mod stream;

use std::collections::BTreeMap;

use crate::change::{RegionError, RegionEvent, RegionEventKind, RowChange};
use crate::config::KvClientEvict;
use crate::keyspace::RegionSpan;
use crate::ts::Ts;
pub use action::KvAction;
pub use region::{Owner, RegionTrack};
pub use region_map::{RegionMap, RegionSet};
pub use spans::TrackedSpans;
pub use stream::{Stream, Worker};

/// The KV client state.
#[derive(Clone, Debug)]
pub struct KvClient {
    mode: KvClientEvict,
    regions: RegionMap<RegionTrack>,
    /// The same regions by the span they were tracked with, in key order.
    spans: TrackedSpans,
    streams: BTreeMap<u32, Stream>,
    /// The client's region cache: leader store per region, learned from PD and NotLeader
    /// hints. It goes stale when leaders move, which is what sends re-requests to the wrong
    /// store after a failure.
    leader_cache: BTreeMap<u32, u32>,
    /// Regions whose initialized flag or tracking changed since the processor last took
    /// them: its table frontiers are recomputed for those regions' tables only.
    changed: RegionSet,
    /// Regions whose resolved ts moved up (nothing else changed) since the processor last
    /// took them, each with the ts it moved from, in arrival order.
    advanced: Vec<(u32, Ts)>,
    next_generation: u64,
    next_request: u64,
}

impl KvClient {
    /// An idle client.
    pub fn new(mode: KvClientEvict) -> Self {
        Self::with_epoch(mode, 0)
    }

    /// An idle client whose stream generations and request ids start at `epoch << 32`, so a
    /// restarted capture never reuses an id a store may still hold from its earlier life.
    pub fn with_epoch(mode: KvClientEvict, epoch: u32) -> Self {
        KvClient {
            mode,
            regions: RegionMap::default(),
            spans: TrackedSpans::default(),
            streams: BTreeMap::new(),
            leader_cache: BTreeMap::new(),
            changed: RegionSet::default(),
            advanced: Vec::new(),
            next_generation: ((epoch as u64) << 32) + 1,
            next_request: ((epoch as u64) << 32) + 1,
        }
    }

    /// A new idle client for the same capture process (its processors were closed and opened
    /// again): stream generations and request ids go on from this one's, so the stores, which
    /// may still hold the closed client's subscriptions, never see an id twice.
    pub fn successor(&self) -> Self {
        KvClient {
            next_generation: self.next_generation,
            next_request: self.next_request,
            ..Self::with_epoch(self.mode, 0)
        }
    }

    /// Locks `region`'s range `span` and subscribes to it from `from`.
    pub fn track(&mut self, region: u32, span: RegionSpan, from: Ts, out: &mut Vec<KvAction>) {
        if let Some(old) = self.regions.insert(region, RegionTrack::new(span, from)) {
            self.spans.remove(region, old.span);
        }
        self.spans.insert(region, span);
        self.changed.insert(region);
        out.push(KvAction::Retry {
            region,
            backoff: false,
        });
    }

    /// Tracked regions and their state.
    pub fn regions(&self) -> &RegionMap<RegionTrack> {
        &self.regions
    }

    /// Tracked regions by the span they were tracked with.
    pub fn spans(&self) -> &TrackedSpans {
        &self.spans
    }

    /// True, with the penalty reset, when `region`'s resolved ts stood still for at least
    /// `events` resolved-ts events in a row (the lock resolver's test).
    pub fn take_penalty(&mut self, region: u32, events: u32) -> bool {
        match self.regions.get_mut(&region) {
            Some(t) if t.penalty >= events => {
                t.penalty = 0;
                true
            }
            _ => false,
        }
    }

    /// The regions whose initialized flag or tracking changed since the last call, in region
    /// order (a resolved ts moving up is in [`KvClient::take_advanced`] instead).
    pub fn take_changed(&mut self) -> Vec<u32> {
        self.changed.take()
    }

    /// The regions whose resolved ts moved up since the last call, each with the ts it
    /// moved from, in the order they moved (a region that moved twice is there twice).
    pub fn take_advanced(&mut self) -> Vec<(u32, Ts)> {
        std::mem::take(&mut self.advanced)
    }

    /// The key ranges of spans tracked or released since the last call.
    pub fn take_moved_spans(&mut self) -> Vec<(crate::keyspace::Key, crate::keyspace::Key)> {
        self.spans.take_moved()
    }

    /// Open streams by store.
    pub fn streams(&self) -> &BTreeMap<u32, Stream> {
        &self.streams
    }

    /// Regions whose range is locked but that no one owns.
    pub fn orphaned(&self) -> usize {
        self.regions
            .values()
            .filter(|r| r.owner == Owner::Lost)
            .count()
    }

    /// The request timer of `region` fired. The leader comes from the region cache, else from
    /// `pd_leader` (PD's answer); `reachable(store)` says whether a stream to a store can be
    /// opened now.
    pub fn request(
        &mut self,
        region: u32,
        pd_leader: Option<u32>,
        reachable: impl Fn(u32) -> bool,
        out: &mut Vec<KvAction>,
    ) {
        let Some(track) = self.regions.get(&region) else {
            return;
        };
        if track.owner != Owner::Retrying {
            return;
        }
        let (checkpoint, version) = (track.resolved, track.span.version);
        let Some(store) = self.leader_cache.get(&region).copied().or(pd_leader) else {
            out.push(KvAction::Retry {
                region,
                backoff: true,
            });
            return;
        };
        self.leader_cache.insert(region, store);
        let reachable = reachable(store);
        if !reachable {
            // A failed connection invalidates the cached region: ask PD again next time.
            self.leader_cache.remove(&region);
        }
        let stream = match self.streams.get(&store) {
            Some(s) if s.closing() => None,
            Some(s) => Some(s.generation),
            None if reachable => {
                let g = self.next_generation;
                self.next_generation += 1;
                self.streams.insert(store, Stream::new(g));
                Some(g)
            }
            None => None,
        };
        let Some(generation) = stream else {
            out.push(KvAction::Retry {
                region,
                backoff: true,
            });
            return;
        };
        let request = self.next_request;
        self.next_request += 1;
        self.streams
            .get_mut(&store)
            .expect("just found")
            .pending
            .insert(region, request);
        self.set_owner(region, Owner::Pending { store, request });
        out.push(KvAction::Register {
            store,
            stream: generation,
            region,
            request,
            checkpoint,
            version,
        });
    }

    /// The receive loop of the stream to `store` got a batch of events.
    pub fn on_events(
        &mut self,
        store: u32,
        generation: u64,
        events: Vec<RegionEvent>,
        out: &mut Vec<KvAction>,
    ) {
        for ev in events {
            let Some(s) = self.streams.get_mut(&store) else {
                return;
            };
            if s.generation != generation || !s.recv_alive {
                return;
            }
            if s.pending.get(&ev.region) == Some(&ev.request) {
                // First event of a pending region: hand the region to the worker.
                s.pending.remove(&ev.region);
                if s.worker.alive {
                    s.worker.regions.insert(ev.region, request_id(ev.request));
                    self.set_owner(
                        ev.region,
                        Owner::Worker {
                            store,
                            request: ev.request,
                        },
                    );
                } else {
                    s.worker.handed_after_exit.push((ev.region, ev.request));
                    self.set_owner(ev.region, Owner::Lost);
                    out.push(KvAction::Orphaned { region: ev.region });
                    continue;
                }
            }
            let s = self.streams.get(&store).expect("present");
            let handled_by = s.worker.regions.get(&ev.region).map(|q| q.get());
            if s.worker.alive && handled_by == Some(ev.request) {
                self.worker_handle(store, ev, out);
            }
        }
    }

    fn worker_handle(&mut self, store: u32, ev: RegionEvent, out: &mut Vec<KvAction>) {
        let Some(track) = self.regions.get_mut(&ev.region) else {
            return;
        };
        match ev.kind {
            RegionEventKind::Entries(rows) => {
                // Changes at or below the region's resolved ts were delivered before (stale
                // commits are dropped, as the puller does).
                let fresh: Vec<RowChange> = rows
                    .into_iter()
                    .filter(|r| r.commit_ts > track.resolved)
                    .collect();
                if !fresh.is_empty() {
                    out.push(KvAction::Rows(fresh));
                }
            }
            RegionEventKind::Initialized => {
                if !track.initialized {
                    track.initialized = true;
                    self.changed.insert(ev.region);
                }
            }
            RegionEventKind::Resolved(ts) => {
                if track.initialized && ts > track.resolved {
                    self.advanced.push((ev.region, track.resolved));
                    track.resolved = ts;
                    track.penalty = 0;
                } else if track.initialized {
                    track.penalty += 1;
                }
            }
            RegionEventKind::Error(RegionError::EpochNotMatch) => {
                self.redivide(store, ev.region, out);
            }
            RegionEventKind::Error(e) => {
                match e {
                    RegionError::NotLeader { leader: Some(l) } => {
                        self.leader_cache.insert(ev.region, l)
                    }
                    _ => self.leader_cache.remove(&ev.region),
                };
                let track = self.regions.get_mut(&ev.region).expect("present");
                track.initialized = false;
                track.penalty = 0;
                track.owner = Owner::Retrying;
                self.changed.insert(ev.region);
                let s = self.streams.get_mut(&store).expect("present");
                s.worker.regions.remove(&ev.region);
                // A named leader and a region gone from the store are asked again at once:
                // tiflow's `handleError` updates the leader and re-requests the region, and
                // on RegionNotFound divides the span again from PD's regions, with no backoff
                // on either (the region's range is unchanged when PD moved its replica away,
                // so that is the same region, looked up afresh). With no leader named the
                // model waits `region_retry_backoff` (its own number) before asking PD.
                let at_once = matches!(
                    e,
                    RegionError::NotLeader { leader: Some(_) } | RegionError::RegionNotFound
                );
                out.push(KvAction::Retry {
                    region: ev.region,
                    backoff: !at_once,
                });
                self.exit_if_idle(store, out);
            }
        }
    }

    /// The worker of `store`'s stream lost its last region: tiflow#9519's worker exits and
    /// takes its stream down with it.
    fn exit_if_idle(&mut self, store: u32, out: &mut Vec<KvAction>) {
        let s = self.streams.get_mut(&store).expect("present");
        if s.worker.regions.is_empty() && !s.worker.exiting {
            s.worker.exiting = true;
            out.push(KvAction::WorkerExit {
                store,
                stream: s.generation,
            });
        }
    }

    /// `region` split under its subscription: its range lock is released and its span is
    /// divided again over the regions it became ([`KvAction::Redivide`]).
    fn redivide(&mut self, store: u32, region: u32, out: &mut Vec<KvAction>) {
        let track = self.regions.remove(&region).expect("present");
        self.spans.remove(region, track.span);
        self.leader_cache.remove(&region);
        self.changed.insert(region);
        let s = self.streams.get_mut(&store).expect("present");
        s.worker.regions.remove(&region);
        out.push(KvAction::Redivide {
            span: track.span,
            from: track.resolved,
        });
        self.exit_if_idle(store, out);
    }

    /// The stream to `store` failed (reset or keepalive timeout): both loops will stop.
    pub fn on_stream_broken(&mut self, store: u32, out: &mut Vec<KvAction>) {
        let Some(s) = self.streams.get_mut(&store) else {
            return;
        };
        if !s.worker.exiting && s.worker.alive {
            s.worker.exiting = true;
            out.push(KvAction::WorkerExit {
                store,
                stream: s.generation,
            });
        }
    }

    /// The worker of a stream exited.
    pub fn on_worker_exit(&mut self, store: u32, generation: u64, out: &mut Vec<KvAction>) {
        let Some(s) = self.streams.get_mut(&store) else {
            return;
        };
        if s.generation != generation || !s.worker.alive {
            return;
        }
        s.worker.alive = false;
        let evicted: Vec<u32> = match self.mode {
            KvClientEvict::OnWorkerExit => s.worker.regions.take_keys(),
            KvClientEvict::AfterJoin => Vec::new(),
        };
        if !s.recv_exiting {
            s.recv_exiting = true;
            out.push(KvAction::RecvLoopExit {
                store,
                stream: generation,
            });
        }
        for region in evicted {
            self.fail_region(region, out);
        }
    }

    /// The receive loop of a stream exited: the stream is gone.
    pub fn on_recv_exit(&mut self, store: u32, generation: u64, out: &mut Vec<KvAction>) {
        if self.streams.get(&store).map(|s| s.generation) != Some(generation) {
            return;
        }
        let s = self.streams.remove(&store).expect("present");
        let mut evicted: Vec<u32> = s.pending.into_keys().collect();
        if self.mode == KvClientEvict::AfterJoin {
            evicted.extend(s.worker.regions.keys());
            evicted.extend(s.worker.handed_after_exit.into_iter().map(|(r, _)| r));
        }
        evicted.sort_unstable();
        evicted.dedup();
        for region in evicted {
            self.fail_region(region, out);
        }
    }

    fn fail_region(&mut self, region: u32, out: &mut Vec<KvAction>) {
        if let Some(t) = self.regions.get_mut(&region) {
            t.initialized = false;
            t.owner = Owner::Retrying;
            self.changed.insert(region);
            out.push(KvAction::Retry {
                region,
                backoff: false,
            });
        }
    }

    fn set_owner(&mut self, region: u32, owner: Owner) {
        if let Some(t) = self.regions.get_mut(&region) {
            t.owner = owner;
        }
    }

    /// Releases `region`'s range lock: its table left this processor. Events still arriving
    /// for it are ignored (TiCDC deregisters the region; the endpoint here keeps sending).
    pub fn untrack(&mut self, region: u32) {
        if let Some(track) = self.regions.remove(&region) {
            self.spans.remove(region, track.span);
            self.changed.insert(region);
        }
        for s in self.streams.values_mut() {
            s.pending.remove(&region);
            s.worker.regions.remove(&region);
        }
    }

    /// Drops every stream and subscription (the capture restarted).
    pub fn reset(&mut self) {
        self.changed.extend(self.regions.keys());
        self.regions.clear();
        self.spans.clear();
        self.streams.clear();
    }
}

/// A request id as the worker's region map keeps it. Ids start at 1
/// ([`KvClient::with_epoch`]), so 0 never names a request.
fn request_id(request: u64) -> std::num::NonZeroU64 {
    std::num::NonZeroU64::new(request).expect("request ids start at 1")
}

#[cfg(test)]
mod tests;
