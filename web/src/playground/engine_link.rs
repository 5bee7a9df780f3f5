//! The playground's side of the engine protocol: numbered commands into the outbox, frames
//! back, and the rule that the status reads `seeking` until a frame acknowledges the last
//! command that moves the clock.

use faultline_sim::SimTime;

use super::Playground;
use crate::engine::{Command, Frame, ToEngine, TomlCmd};

/// The playground's end of the engine protocol: every command is numbered and queued for the
/// worker, and a frame says which number it answers (`Frame::ack`).
#[derive(Clone, Debug, Default)]
pub struct EngineLink {
    /// Commands for the engine not yet sent (the page drains it after each action).
    pub outbox: Vec<ToEngine>,
    /// Number of the last command queued.
    pub(crate) seq: u64,
    /// Number of the last command that moves the clock: until a frame acknowledges it, the
    /// status reads `seeking` and the cursor the one asked for.
    pub(crate) clock_seq: u64,
    /// Branches whose cursor and hash to take from the first frame acknowledging `.0`.
    pub(crate) branch_fix: Option<(u64, Vec<usize>)>,
    /// A cursor asked for and not yet acknowledged.
    pub(crate) pending_cursor: Option<SimTime>,
}

impl EngineLink {
    /// A link numbering its commands after `seq` (the engine keeps counting across a pasted
    /// link, so a new playground goes on from the old one's last number).
    pub(crate) fn after(seq: u64) -> Self {
        EngineLink {
            seq,
            clock_seq: seq,
            ..EngineLink::default()
        }
    }

    /// Numbers `cmd` and queues it; `clock` marks commands that move the cursor.
    fn queue(&mut self, cmd: Command, clock: bool) {
        self.seq += 1;
        if clock {
            self.clock_seq = self.seq;
        }
        self.outbox.push(ToEngine { seq: self.seq, cmd });
    }

    /// True until `frame` answers every command that moves the clock.
    fn catching_up(&self, frame: &Frame) -> bool {
        frame.ack < self.clock_seq
    }
}

impl Playground {
    /// True until the engine has handled every command that moves the clock.
    pub(super) fn catching_up(&self) -> bool {
        self.engine.catching_up(&self.frame)
    }

    /// Queues a command for the engine; `clock` marks commands that move the cursor.
    pub(super) fn send(&mut self, cmd: Command, clock: bool) {
        self.engine.queue(cmd, clock);
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
        self.engine.pending_cursor = Some(cursor);
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
        self.engine.branch_fix = Some((self.engine.seq, which));
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
            self.engine.pending_cursor = None;
            self.playing = self.frame.playing;
        }
        if let Some((seq, which)) = self.engine.branch_fix.take() {
            if self.frame.ack == seq {
                for i in which {
                    if let Some(b) = self.branches.get_mut(i) {
                        b.cursor = SimTime(self.frame.now_us);
                        b.hash = self.frame.trace_hash;
                    }
                }
            } else if self.frame.ack < seq {
                self.engine.branch_fix = Some((seq, which));
            }
        }
    }

    /// Moves the cursor to `t`, paused (the engine rewinds and replays in slices).
    pub(super) fn seek(&mut self, t: SimTime) {
        let t = t.min(self.end());
        self.playing = false;
        self.engine.pending_cursor = Some(t);
        self.send(Command::Seek(t.as_micros()), true);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_unanswered_clock_command_keeps_the_link_catching_up() {
        let mut link = EngineLink::after(5);
        let frame = |ack| Frame {
            ack,
            ..Frame::default()
        };
        link.queue(Command::Pause, false);
        assert_eq!(
            (link.seq, link.clock_seq),
            (6, 5),
            "numbering goes on after 5"
        );
        assert!(
            !link.catching_up(&frame(5)),
            "a command that moves no clock"
        );
        link.queue(Command::Seek(1_000_000), true);
        assert!(link.catching_up(&frame(6)));
        assert!(!link.catching_up(&frame(7)));
        let numbers: Vec<u64> = link.outbox.iter().map(|m| m.seq).collect();
        assert_eq!(numbers, [6, 7]);
    }
}
