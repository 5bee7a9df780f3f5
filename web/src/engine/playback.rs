//! Moving the engine's clocks: loading a run (and its compare twin), playback slices, seeking
//! by snapshot restore plus replay, and the worker loop's turn that decides when a frame is due.

use faultline_scenario::decode_link;
use faultline_sim::SimTime;

use super::pacing::{FRAME_MS, SEEK_FRAME_MS, SLICE_MS};
use super::protocol::{Frame, Speed};
use super::session::Session;
use super::twin::Twin;
use super::Engine;
use crate::toggles::{is_buggy, set_buggy};

impl Engine {
    /// Runs the next slice towards the seek target or the playback target.
    pub fn tick(&mut self, clock: &dyn Fn() -> f64) {
        let Some(session) = self.session.as_mut() else {
            return;
        };
        let now_ms = clock();
        let target = match (self.seek_target, self.playing) {
            (Some(t), _) => t,
            (None, true) => match self.speed.unwrap_or(Speed::Max).us_per_ms() {
                None => session.end(),
                Some(rate) => {
                    let elapsed = self
                        .last_wall_ms
                        .map_or(0.0, |l| (now_ms - l).clamp(0.0, 250.0));
                    SimTime(session.now().as_micros() + (elapsed * rate) as u64)
                }
            },
            (None, false) => return,
        };
        self.last_wall_ms = Some(now_ms);
        let budget = if self.twin.is_some() {
            SLICE_MS / 2.0
        } else {
            SLICE_MS
        };
        let before = session.now();
        // A seek records the deliveries only near its target (`Session::seek_slice`);
        // playing records them all.
        let mut done = session.slice(self.seek_target, target, budget, clock);
        let now = session.now();
        if let Some(tw) = self.twin.as_mut() {
            done &= tw.session.slice(self.seek_target, now, budget, clock);
        }
        if done && self.seek_target.is_some() {
            self.seek_target = None;
            self.dirty = true;
        }
        if self.finished() && self.twin.as_ref().is_none_or(|t| t.session.finished()) {
            self.playing = false;
            self.seek_target = None;
        }
        self.dirty |= now != before || !self.busy();
    }

    /// One turn of the worker loop: a slice if there is work (else a slice of idle work, see
    /// `Session::fill_idle`), then a frame if one is due (every [`FRAME_MS`] while busy; at
    /// once when the engine settles or a command arrived while idle).
    pub fn pump(&mut self, clock: &dyn Fn() -> f64) -> Option<Frame> {
        let busy = self.busy();
        if busy {
            self.tick(clock);
        }
        if self.exploring.busy() {
            self.exploring.slice(clock);
            self.dirty = true;
        } else if !busy && self.idle_fill {
            // Not in the turn that lands a seek: its frame goes first.
            self.fill_idle(clock);
        }
        if !self.dirty {
            return None;
        }
        let now = clock();
        // A seek's frames only move its progress bar: fewer of them leave more time to run.
        let every = if self.seek_target.is_some() {
            SEEK_FRAME_MS
        } else {
            FRAME_MS
        };
        let due = !self.working()
            || self
                .last_frame_ms
                .is_none_or(|l| now - l >= every || now < l);
        if !due {
            return None;
        }
        self.last_frame_ms = Some(now);
        self.dirty = false;
        Some(self.frame(Some(now)))
    }

    /// A slice of idle work: the main session's snapshot gaps first, then the compare twin's.
    /// Nothing the page shows changes but the snapshot count, so a frame follows only a
    /// snapshot added.
    fn fill_idle(&mut self, clock: &dyn Fn() -> f64) {
        let held = |e: &Engine| e.session.as_ref().map_or(0, Session::snapshot_count);
        let before = held(self);
        let main = self
            .session
            .as_mut()
            .is_some_and(|s| s.fill_idle(SLICE_MS, clock));
        let twin = !main
            && self
                .twin
                .as_mut()
                .is_some_and(|t| t.session.fill_idle(SLICE_MS, clock));
        self.idle_fill = main || twin;
        self.dirty |= held(self) != before;
    }

    /// Replaces the runs with `link`'s scenario (and its twin), then moves to the cursor.
    pub(super) fn load(
        &mut self,
        link: &str,
        compare: Option<usize>,
        cursor: Option<u64>,
        play: Option<bool>,
    ) {
        let keep = self.seek_target.unwrap_or(self.now());
        let session = decode_link(link)
            .map_err(|e| e.to_string())
            .and_then(|s| Session::new(&s).map_err(|e| e.to_string()));
        let session = match session {
            Ok(s) => s,
            Err(e) => {
                self.error = Some(format!("This scenario could not be run: {e}"));
                return;
            }
        };
        self.session = Some(session);
        self.twin = None;
        self.seek_target = None;
        self.last_wall_ms = None;
        if let Some(t) = compare {
            self.twin_on(t);
        }
        if let Some(p) = play {
            self.playing = p;
        }
        let t = cursor.map_or(keep, SimTime);
        if t > SimTime(0) {
            self.seek(t);
        }
    }

    /// Builds the twin with toggle `toggle` flipped and sends both runs to the cursor.
    pub(super) fn twin_on(&mut self, toggle: usize) {
        let Some(s) = self.session.as_ref() else {
            return;
        };
        let mut twin = s.run.scenario.clone();
        let buggy = is_buggy(&twin, toggle);
        set_buggy(&mut twin, toggle, !buggy);
        match Session::new(&twin) {
            Ok(session) => {
                self.twin = Some(Twin { toggle, session });
                let t = self.seek_target.unwrap_or(self.now());
                self.seek(t);
            }
            Err(e) => self.error = Some(format!("The compare twin could not be run: {e}")),
        }
    }

    /// Finishes a pending seek at once (before single steps, pauses and branches).
    pub(super) fn settle(&mut self) {
        if let Some(t) = self.seek_target.take() {
            if let Some(s) = self.session.as_mut() {
                s.seek(t);
            }
            self.sync_twin();
        }
    }

    /// Brings the compare twin to the cursor.
    pub(super) fn sync_twin(&mut self) {
        let now = self.now();
        if let Some(t) = self.twin.as_mut() {
            t.session.seek(now);
        }
    }

    /// Starts moving the cursor to `t`: restore the nearest snapshot now, replay in slices.
    pub(super) fn seek(&mut self, t: SimTime) {
        let t = t.min(self.end());
        if let Some(s) = self.session.as_mut() {
            s.restore_for(t);
        }
        if let Some(tw) = self.twin.as_mut() {
            tw.session.restore_for(t);
        }
        self.seek_from = Some(self.now());
        self.seek_target = Some(t);
    }
}
