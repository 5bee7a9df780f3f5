//! The simulation engine: the runs (active session and compare twin), playback and seeking,
//! and the view models the page asked for. In the browser it lives in a Web Worker
//! (`worker`, wasm only) so the page only renders and handles input; here it is plain Rust,
//! driven by [`ToEngine`] commands and answering with [`Frame`]s, so native tests drive it
//! with exactly the messages the page sends.
//!
//! Slicing never changes results: the trace hash at a cursor equals an uninterrupted native
//! run of the same link.

pub mod explore;
mod exploring;
pub mod first_difference;
mod frame;
pub mod heatmap;
pub mod memory;
pub mod pacing;
mod playback;
pub mod protocol;
pub mod session;
pub mod snapshots;
mod toml;
mod twin;
mod views;
#[cfg(target_arch = "wasm32")]
pub mod worker;

use faultline_sim::SimTime;

use exploring::Exploring;
pub use exploring::MAX_FAILURES;
pub use pacing::{FRAME_MS, SEEK_FRAME_MS, SLICE_MS, VIEWS_MS};
pub use protocol::*;
use session::Session;
pub use session::MESSAGE_LEAD_IN_US;
pub use toml::toml_answer;
use twin::Twin;

/// The engine: owns the runs and moves their clocks.
#[derive(Default)]
pub struct Engine {
    session: Option<Session>,
    twin: Option<Twin>,
    playing: bool,
    speed: Option<Speed>,
    seek_target: Option<SimTime>,
    /// Where the current seek's replay started.
    seek_from: Option<SimTime>,
    last_wall_ms: Option<f64>,
    ack: u64,
    views: ViewRequest,
    notice: Option<String>,
    error: Option<String>,
    /// Something changed since the last frame.
    dirty: bool,
    last_frame_ms: Option<f64>,
    /// When the open tab's data was last sent, None to send it with the next frame.
    last_views_ms: Option<f64>,
    exploring: Exploring,
    /// Idle work may remain: snapshots to add in the gaps (`Session::fill_idle`). Set by
    /// every command, cleared when the sessions say there is none.
    idle_fill: bool,
}

impl Engine {
    /// An engine with nothing loaded.
    pub fn new() -> Engine {
        Engine::default()
    }

    /// The cursor (0 before a load).
    pub fn now(&self) -> SimTime {
        self.session.as_ref().map_or(SimTime(0), |s| s.now())
    }

    fn end(&self) -> SimTime {
        self.session.as_ref().map_or(SimTime(0), |s| s.end())
    }

    fn finished(&self) -> bool {
        self.session.as_ref().is_none_or(|s| s.finished())
    }

    /// True while the worker loop should keep turning: clock or explore work, or a frame to
    /// send.
    pub fn pending(&self) -> bool {
        self.working() || self.dirty || self.idle_fill
    }

    /// True while playback, a seek or an explore job has work.
    fn working(&self) -> bool {
        self.busy() || self.exploring.busy()
    }

    /// True while there is clock work to do (playing or seeking).
    pub fn busy(&self) -> bool {
        self.session.is_some() && (self.seek_target.is_some() || self.playing)
    }

    /// Applies one command and returns what to post at once: a TOML answer, or the frame
    /// [`Engine::handle`] returns. The worker and the native harness deliver commands here.
    pub fn receive(&mut self, msg: ToEngine) -> Option<FromEngine> {
        match msg.cmd {
            Command::Toml(cmd) => {
                self.ack = self.ack.max(msg.seq);
                Some(FromEngine::Toml(toml_answer(cmd)))
            }
            Command::FirstDifference { a, b } => {
                self.ack = self.ack.max(msg.seq);
                Some(FromEngine::FirstDifference(first_difference::answer(
                    &a, &b,
                )))
            }
            _ => self.handle(msg).map(|f| FromEngine::Frame(Box::new(f))),
        }
    }

    /// Applies one command. Returns a frame to post at once for `Pause` (the page takes
    /// branch cursors and hashes from it); other commands are reported by [`Engine::pump`].
    pub fn handle(&mut self, msg: ToEngine) -> Option<Frame> {
        self.ack = self.ack.max(msg.seq);
        self.dirty = true;
        self.idle_fill = true;
        match msg.cmd {
            Command::Load {
                link,
                compare,
                cursor,
                play,
            } => self.load(&link, compare, cursor, play),
            Command::Compare(toggle) => {
                self.twin = None;
                if let Some(t) = toggle {
                    self.twin_on(t);
                }
            }
            Command::TogglePlay => {
                if self.finished() && !self.playing {
                    self.seek(SimTime(0));
                }
                self.playing = !self.playing;
                self.last_wall_ms = None;
            }
            Command::Pause => {
                self.settle();
                self.playing = false;
                self.dirty = false;
                return Some(self.frame(None));
            }
            Command::SetSpeed(s) => {
                self.speed = Some(s);
                self.playing = true;
                self.last_wall_ms = None;
            }
            Command::StepEvent => {
                self.settle();
                self.playing = false;
                if let Some(s) = self.session.as_mut() {
                    s.step_event();
                }
                self.sync_twin();
            }
            Command::StepToNode(name) => {
                self.settle();
                self.playing = false;
                if let Some(s) = self.session.as_mut() {
                    if let Some(id) = s.run.world.kernel.net.find(&name) {
                        if !s.step_to_node(id) {
                            self.notice = Some(format!("{name} does nothing more before the end"));
                        }
                    }
                }
                self.sync_twin();
            }
            Command::Seek(t) => {
                self.playing = false;
                self.seek(SimTime(t));
            }
            Command::Views(v) => {
                self.views = v;
                self.last_views_ms = None;
            }
            Command::Explore(c) => self.exploring.handle(c),
            // Not a run command: `receive` answers it; here it changes nothing.
            Command::Toml(_) | Command::FirstDifference { .. } => {}
        }
        None
    }
}

#[cfg(test)]
mod idle_fill_tests;
#[cfg(test)]
mod message_record_tests;
#[cfg(test)]
mod tests;
