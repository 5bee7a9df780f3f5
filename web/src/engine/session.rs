//! One scenario being run: the live `Run`, its snapshots, and the ways to move its clock
//! (slices towards a target, one event, the next event of a node, rewind).

use faultline_scenario::{Run, Scenario, ScenarioError};
use faultline_sim::{NodeId, SimTime, StepKind};

use super::heatmap::HeatmapRecorder;
use super::snapshots::Snapshots;
use crate::slicer::{self, Steppable};
use crate::view_model::HeatmapVm;

/// The message log and the space-time diagram show the deliveries of this much simulated
/// time before the cursor (at most the newest 5,000); a seek records them from there.
pub const MESSAGE_LEAD_IN_US: u64 = 10_000_000;

/// Most events "step to the next event of a node" runs before giving up (the node may be
/// crashed and never act again).
const MAX_NODE_STEP_EVENTS: u64 = 2_000_000;

/// Deliveries kept for the message views.
const MESSAGE_RECORDS: usize = 5_000;

/// How long before a snapshot a quiet replay (a long seek's, idle time's) records the
/// deliveries, so that the snapshot can start a later seek that lands within its lead-in (see
/// [`Session::restore_for`]): the whole lead-in ([`MESSAGE_LEAD_IN_US`]), or less if `run`,
/// at the pace it went since `from` (a time and the events processed by then), fills the
/// record sooner; four times that, since not every event is a delivery and the pace varies.
/// A guess too short only costs time: the snapshot then does not qualify, and a seek starts
/// from an earlier one. At full scale it is about 2 s (some 12,000 events a simulated second).
fn record_lead(run: &Run, from: (SimTime, u64)) -> u64 {
    let span_us = run.now().as_micros().saturating_sub(from.0.as_micros());
    let events = run.world.kernel.processed().saturating_sub(from.1);
    if span_us < 1_000_000 || events == 0 {
        return MESSAGE_LEAD_IN_US;
    }
    let fill_us = MESSAGE_RECORDS as u64 * span_us / events;
    fill_us.saturating_mul(4).min(MESSAGE_LEAD_IN_US)
}

/// `t` less `lead` µs.
fn before(t: SimTime, lead: u64) -> SimTime {
    SimTime(t.as_micros().saturating_sub(lead))
}

/// A run, its snapshots and its heatmap.
#[derive(Clone)]
pub struct Session {
    /// The live run; its clock is the time cursor.
    pub run: Run,
    snapshots: Snapshots,
    heatmap: HeatmapRecorder,
    /// Idle work under way: a copy of a snapshot on its way to a gap's middle.
    filler: Option<Filler>,
}

/// A copy of a snapshot replaying to `at`, where it becomes a snapshot too.
#[derive(Clone)]
struct Filler {
    run: Run,
    at: SimTime,
    /// The time and event count it started from (its pace sets when it records).
    start: (SimTime, u64),
}

/// A run advancing to a time, for the slicer (no heatmap, no snapshots: a filler's).
struct ToTime<'a> {
    run: &'a mut Run,
    until: SimTime,
}

impl Steppable for ToTime<'_> {
    fn step_events(&mut self, max_events: u64) -> bool {
        self.run.run_slice(self.until, max_events)
    }
}

/// A run advancing towards a time, for the slicer.
struct Towards<'a> {
    session: &'a mut Session,
    until: SimTime,
}

impl Steppable for Towards<'_> {
    fn step_events(&mut self, max_events: u64) -> bool {
        let s = &mut *self.session;
        // Stop at the heatmap's next column, so the column is the state at its own time, and
        // at the next landmark, so its snapshot is taken at that very time.
        let landmark = s.snapshots.next_landmark(&s.run).unwrap_or(self.until);
        let until = self
            .until
            .min(landmark)
            .min(s.heatmap.next_column_time().max(s.now()));
        s.run.run_slice(until, max_events);
        s.heatmap.record_due(&mut s.run);
        s.snapshots.maybe_take(&s.run);
        // Not the clock: a slice that ends on its event budget among the events at
        // `self.until` already reads that time with some of them still queued.
        s.run.world.has_run_through(self.until)
    }
}

impl Session {
    /// Builds the world of `scenario` at t = 0.
    pub fn new(scenario: &Scenario) -> Result<Session, ScenarioError> {
        let mut run = Run::new(scenario)?;
        // The log and space-time views show recent deliveries; recording only observes (the
        // trace hash does not change), and the cap bounds each snapshot's copy.
        run.world
            .kernel
            .messages
            .record_from(MESSAGE_RECORDS, SimTime::ZERO);
        // Everywhere else the cursor at t shows the world after every event at t (a seek runs
        // them, a snapshot is taken after them). At 0 that means running the events scheduled
        // at 0 (the first metric sample, faults at 0s) now; otherwise a tour step at 0s would
        // judge its claims against a world with no sample yet and fail them, while
        // `faultline check`, which runs the whole scenario, passes them.
        run.run_until(SimTime::ZERO);
        // Where the tour stops and the faults strike: the places a seek back goes most.
        let landmarks = (scenario.guide.iter().map(|g| g.at))
            .chain(scenario.faults.iter().map(|f| f.at))
            .map(|at| at.to_time());
        let snapshots = Snapshots::new(&run, Snapshots::budget_for(scenario.topology.regions))
            .with_landmarks(landmarks);
        let end = run.end();
        let heatmap = HeatmapRecorder::new(&mut run, end);
        Ok(Session {
            run,
            snapshots,
            heatmap,
            filler: None,
        })
    }

    /// The cursor.
    pub fn now(&self) -> SimTime {
        self.run.now()
    }

    /// The end of the run.
    pub fn end(&self) -> SimTime {
        self.run.end()
    }

    /// True at the end.
    pub fn finished(&self) -> bool {
        self.run.finished()
    }

    /// Number of snapshots held (for the status line).
    pub fn snapshot_count(&self) -> usize {
        self.snapshots.len()
    }

    /// Jumps to the best starting point for reaching `t`: the latest snapshot at or before
    /// `t` if that is ahead of the cursor, or if `t` is behind the cursor (rewind). The
    /// caller then advances to `t` with [`Session::seek_slice`].
    ///
    /// The message views show the deliveries of the [`MESSAGE_LEAD_IN_US`] before the cursor,
    /// and they must not depend on how the cursor got there. A replay records from that lead-in
    /// on, so a start inside it must bring a record that covers it (playing, the lead before a
    /// planned snapshot); a snapshot that does not is passed over for an earlier one.
    pub fn restore_for(&mut self, t: SimTime) {
        let t = t.min(self.end());
        let from = before(t, MESSAGE_LEAD_IN_US);
        let fits = |r: &Run| r.now() <= from || r.world.kernel.messages.covers_since(from);
        let live_fits = t >= self.now() && fits(&self.run);
        if let Some(snap) = self.snapshots.latest_fitting(t, fits) {
            if !live_fits || snap.now() > self.now() {
                let left = std::mem::replace(&mut self.run, snap.clone());
                self.heatmap.resync(&mut self.run);
                // Free to keep: the seek would drop it.
                self.snapshots.keep_position(left);
            }
        }
        self.snapshots.plan(t);
    }

    /// A slice of a seek to `target`, advancing no further than `until` (the compare twin
    /// follows the primary run's clock). The message record is off until the target's lead-in
    /// (labelling every delivery costs a third of the model's time at full scale) but for the
    /// stretch (`record_lead`) before each snapshot the seek plans and each landmark
    /// ([`Snapshots::with_landmarks`]), and the slice stops
    /// where that changes, so the record does not depend on where slices end. True once every
    /// event up to `until` has run and the record is on.
    pub fn seek_slice(
        &mut self,
        target: SimTime,
        until: SimTime,
        budget_ms: f64,
        clock: &dyn Fn() -> f64,
    ) -> bool {
        let now = self.now();
        let lead_in = before(target, MESSAGE_LEAD_IN_US);
        let next_snapshot = (self.snapshots.next_planned().into_iter())
            .chain(self.snapshots.next_landmark(&self.run))
            .min();
        let newest = self.snapshots.newest();
        let lead = record_lead(
            &self.run,
            newest.map_or((now, 0), |n| (n.now(), n.world.kernel.processed())),
        );
        let snapshot_lead = next_snapshot.map(|t| before(t, lead));
        let on_target = now >= lead_in;
        let recording = on_target || snapshot_lead.is_some_and(|l| now >= l);
        self.record_messages(recording);
        let mut stop = until;
        if !on_target {
            stop = stop.min(lead_in);
        }
        if let Some(l) = snapshot_lead.filter(|_| !recording) {
            stop = stop.min(l);
        }
        let end = self.end();
        self.advance(stop, budget_ms, clock) && on_target && stop.min(end) == until.min(end)
    }

    /// A slice towards `until`: of a seek to `seek` ([`Session::seek_slice`]), or, playing,
    /// with every delivery recorded. True once every event up to `until` has run (and, for a
    /// seek, the record is on).
    pub fn slice(
        &mut self,
        seek: Option<SimTime>,
        until: SimTime,
        budget_ms: f64,
        clock: &dyn Fn() -> f64,
    ) -> bool {
        match seek {
            Some(target) => self.seek_slice(target, until, budget_ms, clock),
            None => {
                self.record_messages(true);
                self.advance(until, budget_ms, clock)
            }
        }
    }

    /// Advances towards `until` for at most `budget_ms` of wall time (read by `clock`).
    /// Returns true once every event up to `until` (capped at the end) has run.
    pub fn advance(&mut self, until: SimTime, budget_ms: f64, clock: &dyn Fn() -> f64) -> bool {
        let until = until.min(self.end());
        if self.run.world.has_run_through(until) {
            return true;
        }
        let mut t = Towards {
            session: self,
            until,
        };
        slicer::run_for(&mut t, budget_ms, clock)
    }

    /// Idle work, a slice of `budget_ms` at a time: replays a copy of a snapshot to the middle
    /// of the widest gap between snapshots and keeps it there ([`Snapshots::widest_gap`]), so
    /// a later seek back replays less. The live run and the cursor are untouched, and so is
    /// every result: a snapshot is the run's state at its time, however it was reached.
    /// Returns true while there is more to do.
    pub fn fill_idle(&mut self, budget_ms: f64, clock: &dyn Fn() -> f64) -> bool {
        let f = match self.filler.as_mut() {
            Some(f) => f,
            None => {
                let Some((from, at)) = self.snapshots.widest_gap() else {
                    return false;
                };
                let mut run = from.clone();
                // As during a seek, no message record until shortly before the snapshot.
                run.world.kernel.messages.set_capacity(0);
                let start = (run.now(), run.world.kernel.processed());
                self.filler.insert(Filler { run, at, start })
            }
        };
        let lead = before(f.at, record_lead(&f.run, f.start));
        let recording = f.run.now() >= lead;
        if recording {
            let now = f.run.now();
            f.run
                .world
                .kernel
                .messages
                .record_from(MESSAGE_RECORDS, now);
        }
        let mut to = ToTime {
            run: &mut f.run,
            until: if recording { f.at } else { lead },
        };
        if !slicer::run_for(&mut to, budget_ms, clock) || !recording {
            return true;
        }
        if let Some(f) = self.filler.take() {
            self.snapshots.insert(f.run);
        }
        self.snapshots.widest_gap().is_some()
    }

    /// Runs straight to `t` (rewinding first if needed), recording the deliveries as a seek
    /// in slices does.
    pub fn seek(&mut self, t: SimTime) {
        self.restore_for(t);
        while !self.seek_slice(t, t, f64::INFINITY, &|| 0.0) {}
    }

    /// Turns the message record on (from the cursor, if it was off) or off.
    pub fn record_messages(&mut self, on: bool) {
        let now = self.now();
        let messages = &mut self.run.world.kernel.messages;
        if on {
            messages.record_from(MESSAGE_RECORDS, now);
        } else {
            messages.set_capacity(0);
        }
    }

    /// The heatmap up to the cursor, with the store names for its legend.
    pub fn heatmap(&self) -> HeatmapVm {
        let nodes = self.run.world.kernel.net.nodes();
        let stores = self
            .run
            .world
            .model
            .tikv
            .store_nodes()
            .iter()
            .filter_map(|id| nodes.get(id.0 as usize).map(|n| n.name.clone()))
            .collect();
        HeatmapVm {
            regions_now: self.run.world.model.tikv.region_count(),
            ..self.heatmap.vm(self.now(), stores)
        }
    }

    /// Processes exactly one event, if one is due before the end.
    pub fn step_event(&mut self) -> Option<StepKind> {
        let next = self.run.world.kernel.next_event_time()?;
        if next > self.end() {
            return None;
        }
        let (_, kind) = self.run.world.step()?;
        self.heatmap.record_due(&mut self.run);
        self.snapshots.maybe_take(&self.run);
        Some(kind)
    }

    /// Processes events until one is a tick or a message handled by `node`. Returns false
    /// if the run ended (or the search gave up) first.
    pub fn step_to_node(&mut self, node: NodeId) -> bool {
        for _ in 0..MAX_NODE_STEP_EVENTS {
            match self.step_event() {
                None => return false,
                Some(StepKind::Message { to, .. }) if to == node => return true,
                Some(StepKind::Timer { node: n }) if n == node => return true,
                Some(_) => {}
            }
        }
        false
    }
}

#[cfg(test)]
#[path = "session_tests.rs"]
mod tests;
