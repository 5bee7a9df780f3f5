//! Periodic copies of a run, so a seek back costs a replay of at most one interval instead of
//! a replay from t = 0.
//!
//! A copy is cheap: the big per-region state of the model is copy-on-write
//! (`faultline_sim::CowVec`), so a snapshot costs what changed since the previous one (about
//! 60 MB and 70-120 ms per 20 simulated seconds of the 256,000-region scenario, measured with
//! `seek-bench-native`; a full copy was 170 MB and 0.7 s). Snapshots are therefore taken by
//! the work a replay would redo: every [`REPLAY_EVENTS`] events (see there for what they cost),
//! or every [`MAX_INTERVAL_US`] of simulated time if that comes first.
//!
//! Memory is capped by a count: when there are more than `max` snapshots, every other one is
//! dropped (the first, t = 0, always stays) and both intervals double, so the snapshots stay
//! spread over the whole run. And by bytes: above the engine's memory ceiling
//! (`crate::engine::memory`) a snapshot is taken only after others are dropped to make room,
//! or not at all, and idle time adds none.
//!
//! A seek into unplayed time knows how far it goes, so it need not take snapshots only to drop
//! half of them: [`Snapshots::plan`] spaces the ones it takes over the stretch, half as many
//! as the budget has room for, the landmarks on the way among them (below). Each costs the
//! seek time (about 0.35 s at full scale after the kill, nearly all of it fresh memory for
//! the chunks the run then copies, docs/bench.md), so the other half is left to idle time:
//! once the cursor rests, the session replays from a snapshot to the middle of the widest gap
//! and keeps a copy there ([`Snapshots::widest_gap`], `Session::fill_idle`), until the budget
//! is full or no gap is wider than twice the usual interval.
//!
//! The tour's steps and the faults are landmarks ([`Snapshots::with_landmarks`]): the run stops
//! at each and a snapshot is kept there through every thinning, so a seek back to one replays
//! nothing (at full scale about 0.12 s in the browser, against 0.4-2.5 s from a snapshot
//! between them).

use faultline_scenario::Run;
use faultline_sim::SimTime;

use crate::engine::memory;

/// Events between snapshots at the start. Chosen when the wasm build ran about 1.3 M events
/// per second of the full-scale scenario, so that replaying this many took about 150 ms. Since
/// TiKV 7.1's hibernate rules keep most leaders awake after the kill it runs about 270,000
/// (`cargo xtask bench-wasm 10`: 7.09 M events in 26.3 s), so this many take about 0.7 s
/// there; at that scale a long seek's plan and the budget set the spacing anyway.
pub const REPLAY_EVENTS: u64 = 200_000;

/// Simulated time between snapshots at the start, if fewer events than [`REPLAY_EVENTS`] ran:
/// small scenarios replay fast, but a snapshot every few seconds keeps stepping back cheap.
pub const MAX_INTERVAL_US: u64 = 10_000_000;

/// The snapshots of one run, ordered by time.
#[derive(Clone)]
pub struct Snapshots {
    every_us: u64,
    every_events: u64,
    max: usize,
    items: Vec<Run>,
    /// While a seek replays unplayed time: where its snapshots go.
    plan: Option<Plan>,
    /// Times a snapshot is taken at exactly, whenever the run passes them, and never thinned:
    /// the tour's steps and the faults, where a seek back is most likely to go.
    landmarks: Vec<SimTime>,
    /// Live heap bytes above which snapshots give way ([`memory::CEILING_BYTES`]).
    ceiling: usize,
}

/// A seek's snapshots before its target `until` (the one at the target comes by the usual
/// rule): at these times, earliest last, by time only.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Plan {
    until: SimTime,
    times: Vec<SimTime>,
}

/// `points` times spread over the gaps between `cuts` (ascending) so that the widest stretch
/// left between two of them, cuts included, is as narrow as it can be; each gap's share is
/// evenly spaced inside it. Returns the times, ascending, and that widest stretch (µs).
fn spread(cuts: &[SimTime], points: usize) -> (Vec<SimTime>, u64) {
    let lens: Vec<u64> = cuts
        .windows(2)
        .map(|w| w[1].as_micros() - w[0].as_micros())
        .collect();
    let mut shares = vec![0u64; lens.len()];
    let part = |i: usize, shares: &[u64]| lens[i] / (shares[i] + 1);
    for _ in 0..points {
        // The widest part gets the next point (the earliest of equally wide ones).
        let Some(i) = (0..lens.len()).max_by_key(|&i| (part(i, &shares), std::cmp::Reverse(i)))
        else {
            break;
        };
        shares[i] += 1;
    }
    let widest = (0..lens.len()).map(|i| part(i, &shares)).max().unwrap_or(0);
    let times = (0..lens.len())
        .flat_map(|i| {
            let (a, len, n) = (cuts[i].as_micros(), lens[i], shares[i]);
            (1..=n).map(move |j| SimTime(a + len * j / (n + 1)))
        })
        .collect();
    (times, widest)
}

/// Whether every event at `run`'s time has run: a copy taken halfway through the events of
/// one instant would show the cursor a half-run instant.
fn between_instants(run: &Run) -> bool {
    run.world.has_run_through(run.now())
}

impl Snapshots {
    /// Starts with `first` (normally the freshly built run at t = 0), keeping at most `max`.
    pub fn new(first: &Run, max: usize) -> Snapshots {
        Snapshots {
            every_us: MAX_INTERVAL_US,
            every_events: REPLAY_EVENTS,
            max: max.max(2),
            items: vec![first.clone()],
            plan: None,
            landmarks: Vec::new(),
            ceiling: memory::CEILING_BYTES,
        }
    }

    /// The same, giving way above `bytes` of live heap instead of [`memory::CEILING_BYTES`].
    pub fn with_ceiling(mut self, bytes: usize) -> Snapshots {
        self.ceiling = bytes;
        self
    }

    fn over_ceiling(&self) -> bool {
        memory::live_bytes() > self.ceiling
    }

    /// Drops snapshots while the heap is over the ceiling, the narrowest gap first: the
    /// landmarks only once no other is left, never the first or the one at `keep`. False if
    /// it is still over with nothing left to drop.
    fn relieve_memory(&mut self, keep: SimTime) -> bool {
        while self.over_ceiling() {
            if !self.evict_one(keep, true) && !self.evict_one(keep, false) {
                return false;
            }
        }
        true
    }

    /// Takes a snapshot at each of `times` (after `first`, before its run's end) whenever the
    /// run passes it and keeps it through thinning, so a seek there lands without a replay.
    /// At most half the budget goes to them, the earliest first: thinning must still free room.
    pub fn with_landmarks(mut self, times: impl IntoIterator<Item = SimTime>) -> Snapshots {
        let (start, end) = (self.items[0].now(), self.items[0].end());
        let mut times: Vec<SimTime> = times
            .into_iter()
            .filter(|&t| t > start && t <= end)
            .collect();
        times.sort();
        times.dedup();
        times.truncate(self.max / 2);
        self.landmarks = times;
        self
    }

    /// The first landmark `run` has not run through yet (the run should stop there, so the
    /// snapshot is taken at that very time).
    pub fn next_landmark(&self, run: &Run) -> Option<SimTime> {
        let i = self
            .landmarks
            .partition_point(|&t| run.world.has_run_through(t));
        self.landmarks.get(i).copied()
    }

    /// Spaces the snapshots taken on the way to `target` evenly, so that the stretch past the
    /// newest snapshot gets as many as the budget has room for and none are dropped on the
    /// way; the landmarks on the way count as snapshots, and the planned ones go where the
    /// stretches between them are widest. Only ever widens the spacing: a short seek keeps the
    /// usual intervals. Replaces any earlier plan. With the budget full, the thinning the next
    /// snapshot would do is done first, so the stretch gets the room it frees.
    pub fn plan(&mut self, target: SimTime) {
        let newest = self.items.last().map_or(SimTime::ZERO, Run::now);
        if self.items.len() >= self.max && target > newest {
            self.thin();
        }
        // Half the room: the seek lands sooner, and idle time fills the gaps afterwards. The
        // landmarks on the way take their places out of that half: each snapshot costs the
        // seek time (fresh memory for the chunks the run copies after it).
        let ahead: Vec<SimTime> = (self.landmarks.iter().copied())
            .filter(|&l| l > newest && l < target)
            .collect();
        let room = self.max.saturating_sub(self.items.len()) / 2;
        // The places left, the target's own snapshot (taken by the usual rule) among them.
        let free = room.saturating_sub(ahead.len()).max(1);
        let cuts: Vec<SimTime> = std::iter::once(newest)
            .chain(ahead)
            .chain(std::iter::once(target.max(newest)))
            .collect();
        let (mut times, widest) = spread(&cuts, free - 1);
        times.reverse();
        self.plan = (widest > self.every_us).then_some(Plan {
            until: target,
            times,
        });
    }

    /// How many snapshots are kept for a world of `regions` regions. A snapshot of the
    /// full-scale world holds what changed in its interval: 50-60 MB while the cluster idles,
    /// 120-140 MB after the kill, when about 190,000 regions stay awake and every tick writes
    /// their peers' hot halves (`seek-bench-native`, docs/bench.md). 16 keeps the worst case
    /// near 2 GB.
    pub fn budget_for(regions: u32) -> usize {
        match regions {
            0..=20_000 => 40,
            20_001..=100_000 => 24,
            _ => 16,
        }
    }

    /// Takes a copy of `run` if the newest snapshot is at least one interval older, in events
    /// or in simulated time. Only between instants: a copy taken halfway through the events of
    /// one instant would show the cursor a half-run instant. Rewinding can leave later
    /// snapshots in place (the run is deterministic, they stay valid), so this only ever
    /// appends past the newest one.
    pub fn maybe_take(&mut self, run: &Run) {
        let Some(newest) = self.items.last() else {
            return;
        };
        let (now, events) = (run.now(), run.world.kernel.processed());
        let since = now.as_micros().saturating_sub(newest.now().as_micros());
        let work = events.saturating_sub(newest.world.kernel.processed());
        let planned = self.plan.as_ref().filter(|p| now < p.until).is_some();
        let due = match self.next_planned() {
            Some(at) => now >= at,
            None if planned => false,
            None => since >= self.every_us || work >= self.every_events,
        };
        if !between_instants(run) {
            return;
        }
        let landmark = self.landmarks.binary_search(&now).is_ok();
        let next = now > newest.now() && due;
        if (landmark || next) && !self.relieve_memory(now) {
            return; // a copy would not fit: the next seek replays a little more instead
        }
        if landmark {
            self.keep_landmark(run);
        } else if next {
            self.items.push(run.clone());
            if let Some(p) = self.plan.as_mut() {
                while p.times.last().is_some_and(|&t| t <= now) {
                    p.times.pop();
                }
            }
        }
        if self.items.len() > self.max {
            self.thin();
        }
    }

    /// A copy of `run`, which stands at a landmark, in its place (the run may have come back
    /// to it after a rewind), unless one is held there already.
    fn keep_landmark(&mut self, run: &Run) {
        if let Some(at) = self.vacant_place(run.now()) {
            self.items.insert(at, run.clone());
        }
    }

    /// Where a snapshot at `t` goes in `items`, unless one is held at `t` already.
    fn vacant_place(&self, t: SimTime) -> Option<usize> {
        let at = self.items.partition_point(|r| r.now() < t);
        self.items
            .get(at)
            .is_none_or(|r| r.now() != t)
            .then_some(at)
    }

    /// Where idle time should add a snapshot: the middle of the widest gap between two held
    /// snapshots (the earliest of equally wide ones), if the budget has room and the gap is
    /// over twice the usual interval. Returns the snapshot to replay from and where to stop.
    pub fn widest_gap(&self) -> Option<(&Run, SimTime)> {
        if self.items.len() >= self.max || self.over_ceiling() {
            return None;
        }
        let (i, gap) = self
            .items
            .windows(2)
            .map(|w| w[1].now().as_micros() - w[0].now().as_micros())
            .enumerate()
            .max_by_key(|&(i, gap)| (gap, std::cmp::Reverse(i)))?;
        let from = &self.items[i];
        (gap > 2 * self.every_us).then(|| (from, SimTime(from.now().as_micros() + gap / 2)))
    }

    /// Adds a snapshot taken outside the live run's path (see [`Snapshots::widest_gap`]) in
    /// its place by time; not if the budget is full or one is held at that time already.
    pub fn insert(&mut self, run: Run) {
        if self.items.len() >= self.max || self.over_ceiling() {
            return;
        }
        if let Some(at) = self.vacant_place(run.now()) {
            self.items.insert(at, run);
        }
    }

    /// Keeps the run a seek leaves behind (the cursor the user was at, where a seek back is
    /// likely to go) instead of dropping it: in its place, if it stands between instants and
    /// no snapshot is held at its time. With the budget full, the snapshot that leaves the
    /// narrowest gap goes instead (never the first, a landmark or this one).
    pub fn keep_position(&mut self, run: Run) {
        let now = run.now();
        let Some(at) = self.vacant_place(now).filter(|_| between_instants(&run)) else {
            return;
        };
        self.items.insert(at, run);
        if self.items.len() > self.max {
            self.evict_one(now, true);
        }
        self.relieve_memory(now);
    }

    /// Drops the snapshot between two others whose removal leaves the narrowest gap, other
    /// than the first, the one at `keep` and, if `spare_landmarks`, the landmarks. False if
    /// there was none to drop.
    fn evict_one(&mut self, keep: SimTime, spare_landmarks: bool) -> bool {
        let evictable = |r: &Run| {
            r.now() != keep && !(spare_landmarks && self.landmarks.binary_search(&r.now()).is_ok())
        };
        let victim = (1..self.items.len().saturating_sub(1))
            .filter(|&i| evictable(&self.items[i]))
            .min_by_key(|&i| {
                self.items[i + 1].now().as_micros() - self.items[i - 1].now().as_micros()
            });
        if let Some(i) = victim {
            self.items.remove(i);
        }
        victim.is_some()
    }

    /// Drops every other snapshot (the first, t = 0, and the landmarks stay) and doubles both
    /// intervals.
    fn thin(&mut self) {
        let mut i = 0;
        let landmarks = &self.landmarks;
        self.items.retain(|r| {
            if landmarks.binary_search(&r.now()).is_ok() {
                return true;
            }
            i += 1;
            i % 2 == 1
        });
        self.every_us *= 2;
        self.every_events = self.every_events.saturating_mul(2);
    }

    /// The latest snapshot at or before `t` that `fits` (the t = 0 one always does for the
    /// session: it records from its start).
    pub fn latest_fitting(&self, t: SimTime, fits: impl Fn(&Run) -> bool) -> Option<&Run> {
        self.items.iter().rev().find(|r| r.now() <= t && fits(r))
    }

    /// Where a seek's plan takes its next snapshot, while it has one to take.
    pub fn next_planned(&self) -> Option<SimTime> {
        self.plan.as_ref()?.times.last().copied()
    }

    /// The latest snapshot held.
    pub fn newest(&self) -> Option<&Run> {
        self.items.last()
    }

    /// How many snapshots are held.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Never true: the t = 0 snapshot is always kept.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

#[cfg(test)]
#[path = "snapshots_tests.rs"]
mod tests;
