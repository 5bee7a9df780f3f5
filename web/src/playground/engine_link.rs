//! The playground's side of the engine protocol: numbered commands into the outbox, frames
//! back, and the rule that the status reads `seeking` until a frame acknowledges the last
//! command that moves the clock.

use faultline_sim::SimTime;

use super::Playground;
use crate::engine::{Command, Frame, ToEngine, TomlCmd};

impl Playground {
    /// True until the engine has handled every command that moves the clock.
    pub(super) fn catching_up(&self) -> bool {
        self.frame.ack < self.clock_seq
    }

    /// Queues a command for the engine; `clock` marks commands that move the cursor.
    pub(super) fn send(&mut self, cmd: Command, clock: bool) {
        self.seq += 1;
        if clock {
            self.clock_seq = self.seq;
        }
        self.outbox.push(ToEngine { seq: self.seq, cmd });
    }

    /// Tells the engine to run the current scenario (and its twin) from t = 0 and go to
    /// `cursor`, then play or pause.
    pub(super) fn load(&mut self, cursor: SimTime, play: Option<bool>) {
        let cursor = cursor.min(self.end());
        self.send(
            Command::Load {
                link: self.link.clone(),
                compare: self.compare,
                cursor: Some(cursor.as_micros()),
                play,
            },
            true,
        );
        self.send(Command::Views(self.views.clone()), false);
        self.pending_cursor = Some(cursor);
        self.request_export();
    }

    /// Asks the worker for the running scenario's TOML (Export TOML), unless it is already
    /// here; the embed has no share bar.
    fn request_export(&mut self) {
        if self.embed || self.exported.as_ref().is_some_and(|(l, _)| *l == self.link) {
            return;
        }
        self.send(
            Command::Toml(TomlCmd::Export {
                link: self.link.clone(),
            }),
            false,
        );
    }

    /// Takes the cursor and hash of branches `which` from the frame answering the last
    /// command queued (a `Pause`, which the engine answers at once with an exact frame).
    pub(super) fn fix_branches(&mut self, which: Vec<usize>) {
        self.branch_fix = Some((self.seq, which));
    }

    /// A frame arrived from the engine.
    pub(super) fn on_frame(&mut self, mut frame: Frame) {
        // Unchanged views keep their `Rc`s, so charts and the map do not redraw.
        if frame.views.is_none() {
            frame.views = self.frame.views.take();
        }
        if let Some(n) = &frame.notice {
            self.notice = Some(n.clone());
        }
        if let Some(e) = &frame.error {
            self.error = Some(e.clone());
        }
        if let Some(x) = frame.explore.take() {
            self.explore = x;
        }
        self.frame = frame;
        // A seek runs in slices and sends progress frames on its way: until it lands, the
        // cursor (and the tour step, and where Next goes) stays where the seek was sent.
        if !self.catching_up() && self.frame.seek_target_us.is_none() {
            self.pending_cursor = None;
            self.playing = self.frame.playing;
        }
        if let Some((seq, which)) = self.branch_fix.take() {
            if self.frame.ack == seq {
                for i in which {
                    if let Some(b) = self.branches.get_mut(i) {
                        b.cursor = SimTime(self.frame.now_us);
                        b.hash = self.frame.trace_hash;
                    }
                }
            } else if self.frame.ack < seq {
                self.branch_fix = Some((seq, which));
            }
        }
    }

    /// Moves the cursor to `t`, paused (the engine rewinds and replays in slices).
    pub(super) fn seek(&mut self, t: SimTime) {
        let t = t.min(self.end());
        self.playing = false;
        self.pending_cursor = Some(t);
        self.send(Command::Seek(t.as_micros()), true);
    }
}
