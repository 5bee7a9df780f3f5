//! The simulation engine: the runs (active session and compare twin), playback and seeking,
//! and the view models the page asked for. In the browser it lives in a Web Worker
//! (`worker`, wasm only) so the page only renders and handles input; here it is plain Rust,
//! driven by [`ToEngine`] commands and answering with [`Frame`]s, so native tests drive it
//! with exactly the messages the page sends.
//!
//! Slicing never changes results: the trace hash at a cursor equals an uninterrupted native
//! run of the same link.

pub mod first_difference;
#[cfg(test)]
pub mod local;
pub mod protocol;
#[cfg(target_arch = "wasm32")]
pub mod worker;

use std::rc::Rc;

use faultline_scenario::{decode_link, encode_link, parse_scenario, to_toml, validate, Run};
use faultline_sim::SimTime;

pub use protocol::*;

use crate::playground::explore::{ExploreJob, ShrinkJob, ShrinkStatus};
use crate::playground::session::Session;
use crate::playground::toggles::{is_buggy, set_buggy};
use crate::playground::Speed;
use crate::view_model as vm;

/// Wall-clock milliseconds of simulation per slice. The worker yields to its message queue
/// between slices, so a command waits at most about this long.
pub const SLICE_MS: f64 = 12.0;

/// Least wall-clock milliseconds between two frames while running (about 30 per second:
/// the page repaints at 60 fps regardless, since it never waits for the simulation).
pub const FRAME_MS: f64 = 33.0;

/// Least wall-clock milliseconds between two refreshes of the open tab's data while running.
/// Charts and the region map redraw on the page's main thread; the status line and the
/// metrics strip still follow every frame.
pub const VIEWS_MS: f64 = 250.0;

/// Failure rows sent to the Explore panel; the count stays exact.
pub const MAX_FAILURES: usize = 200;

/// The Explore panel's jobs (seeds run one at a time in slices, shrinks in small steps).
#[derive(Default)]
struct Exploring {
    explore: Option<ExploreJob>,
    /// Which failure (index into the explore failures) is being shrunk, and the shrink.
    shrink: Option<(usize, ShrinkJob)>,
    /// A problem with the inputs.
    error: Option<String>,
    /// Stopped by the user.
    stopped: bool,
    /// Changed since the last frame.
    dirty: bool,
}

impl Exploring {
    fn busy(&self) -> bool {
        !self.stopped
            && (self.explore.as_ref().is_some_and(|j| !j.finished())
                || self
                    .shrink
                    .as_ref()
                    .is_some_and(|(_, s)| s.status == ShrinkStatus::Running))
    }

    fn handle(&mut self, cmd: ExploreCmd) {
        self.dirty = true;
        match cmd {
            ExploreCmd::Start {
                link,
                faults,
                first_seed,
                seeds,
            } => {
                *self = Exploring {
                    dirty: true,
                    ..Exploring::default()
                };
                let job = decode_link(&link)
                    .map_err(|e| e.to_string())
                    .and_then(|base| ExploreJob::new(&base, &faults, first_seed, seeds));
                match job {
                    Ok(job) => self.explore = Some(job),
                    Err(e) => self.error = Some(e),
                }
            }
            ExploreCmd::Stop => self.stopped = true,
            ExploreCmd::Shrink(i) => {
                if let Some(f) = self.explore.as_ref().and_then(|j| j.failures.get(i)) {
                    self.shrink = Some((i, ShrinkJob::new(&f.scenario, &f.property)));
                    self.stopped = false;
                }
            }
        }
    }

    /// One slice of whichever job runs: a shrink step first (the user asked for it last),
    /// else explore for [`SLICE_MS`].
    fn slice(&mut self, clock: &dyn Fn() -> f64) {
        self.dirty = true;
        if let Some((_, s)) = self
            .shrink
            .as_mut()
            .filter(|(_, s)| s.status == ShrinkStatus::Running)
        {
            s.step();
        } else if let Some(j) = self.explore.as_mut() {
            crate::slicer::run_for(j, SLICE_MS, clock);
        }
    }

    fn view(&self) -> ExploreView {
        let job = self.explore.as_ref().map(|job| ExploreProgress {
            state: if job.finished() {
                "finished"
            } else if self.stopped {
                "stopped"
            } else {
                "running"
            }
            .to_string(),
            done: job.done(),
            total: job.total(),
            failing_seeds: job.failing_seeds,
            running: job.running(),
            notes: job.notes.clone(),
            failures: job
                .failures
                .iter()
                .take(MAX_FAILURES)
                .map(|f| FailureView {
                    seed: f.seed,
                    property: f.property.clone(),
                    message: f.message.clone(),
                    link: f.link.clone(),
                })
                .collect(),
            failure_count: job.failures.len(),
            shrink: self.shrink.as_ref().map(|(i, s)| {
                let (state, error) = match &s.status {
                    ShrinkStatus::Running => ("running", None),
                    ShrinkStatus::Done => ("done", None),
                    ShrinkStatus::Capped => ("capped", None),
                    ShrinkStatus::Failed(e) => ("failed", Some(e.clone())),
                };
                ShrinkView {
                    index: *i,
                    state: state.to_string(),
                    error,
                    runs: s.runs,
                    faults: (s.faults_before, s.current.faults.len()),
                    size: (
                        s.current.topology.stores,
                        s.current.topology.regions,
                        s.current.duration.0,
                    ),
                    link: encode_link(&s.current),
                }
            }),
        });
        ExploreView {
            error: self.error.clone(),
            job,
        }
    }
}

/// The compare twin.
struct Twin {
    toggle: usize,
    session: Session,
}

/// The engine: owns the runs and moves their clocks.
#[derive(Default)]
pub struct Engine {
    session: Option<Session>,
    twin: Option<Twin>,
    playing: bool,
    speed: Option<Speed>,
    seek_target: Option<SimTime>,
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
        self.working() || self.dirty
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
            Command::Crash => panic!("worker crash requested by the page (crash-report test)"),
        }
        None
    }

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
        let mut done = session.advance(target, budget, clock);
        let now = session.now();
        if let Some(t) = self.twin.as_mut() {
            done &= t.session.advance(now, budget, clock);
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

    /// One turn of the worker loop: a slice if there is work, then a frame if one is due
    /// (every [`FRAME_MS`] while busy; at once when the engine settles or a command arrived
    /// while idle).
    pub fn pump(&mut self, clock: &dyn Fn() -> f64) -> Option<Frame> {
        if self.busy() {
            self.tick(clock);
        }
        if self.exploring.busy() {
            self.exploring.slice(clock);
            self.dirty = true;
        }
        if !self.dirty {
            return None;
        }
        let now = clock();
        let due = !self.working()
            || self
                .last_frame_ms
                .is_none_or(|l| now - l >= FRAME_MS || now < l);
        if !due {
            return None;
        }
        self.last_frame_ms = Some(now);
        self.dirty = false;
        Some(self.frame(Some(now)))
    }

    /// The frame for the current state (also clears the one-off notice and error). While
    /// busy, `now_ms` decides whether the open tab's data is due; None always sends it.
    pub fn frame(&mut self, now_ms: Option<f64>) -> Frame {
        let views_due = match (now_ms, self.last_views_ms) {
            (Some(now), Some(last)) if self.busy() => now - last >= VIEWS_MS || now < last,
            _ => true,
        };
        if views_due {
            self.last_views_ms = now_ms.or(self.last_views_ms);
        }
        let notice = self.notice.take();
        let error = self.error.take();
        let explore = std::mem::take(&mut self.exploring.dirty).then(|| self.exploring.view());
        let state = self.state();
        let Some(s) = self.session.as_ref() else {
            return Frame {
                ack: self.ack,
                notice,
                error,
                explore,
                ..Frame::default()
            };
        };
        let run = &s.run;
        let nodes = run
            .world
            .kernel
            .net
            .nodes()
            .iter()
            .map(|n| NodeView {
                name: n.name.clone(),
                kind: n.kind.clone(),
                state: n.state.name().to_string(),
                leaders: (n.kind == "tikv")
                    .then(|| {
                        run.world
                            .kernel
                            .metrics
                            .last(&format!("leaders.{}", n.name))
                    })
                    .flatten(),
            })
            .collect();
        let twin = self.twin.as_ref().map(|t| TwinFrame {
            toggle: t.toggle,
            now_us: t.session.now().as_micros(),
            trace_hash: t.session.run.trace_hash(),
            strip: Rc::new(vm::metrics_strip(&t.session.run)),
            expectations: Rc::new(vm::expectations(&t.session.run)),
        });
        Frame {
            ack: self.ack,
            state,
            playing: self.playing,
            now_us: s.now().as_micros(),
            seek_target_us: self.seek_target.map(|t| t.as_micros()),
            end_us: s.end().as_micros(),
            trace_hash: run.trace_hash(),
            events: run.world.kernel.processed(),
            snapshots: s.snapshot_count(),
            nodes,
            notice,
            error,
            strip: Rc::new(vm::metrics_strip(run)),
            expectations: Rc::new(vm::expectations(run)),
            twin,
            explore,
            views: views_due.then(|| self.views()),
        }
    }

    fn state(&self) -> RunState {
        let Some(s) = self.session.as_ref() else {
            return RunState::Loading;
        };
        let twin_done = self
            .twin
            .as_ref()
            .is_none_or(|t| t.session.now() >= s.now());
        if self.seek_target.is_some() {
            RunState::Seeking
        } else if s.finished() && twin_done {
            RunState::Finished
        } else if self.playing {
            RunState::Running
        } else {
            RunState::Paused
        }
    }

    /// The open tab's view models at the cursor.
    fn views(&self) -> ViewData {
        let Some(s) = self.session.as_ref() else {
            return ViewData::None;
        };
        let run = &s.run;
        let cursor = Some(s.now());
        // Compare mode overlays the twin's series, labelled by the toggle's side.
        let label = |r: &Run| match &self.twin {
            Some(t) if is_buggy(&r.scenario, t.toggle) => "buggy",
            Some(_) => "fixed",
            None => "run",
        };
        let mut runs = vec![vm::LabelledRun {
            label: label(run),
            run,
        }];
        if let Some(t) = &self.twin {
            runs.push(vm::LabelledRun {
                label: label(&t.session.run),
                run: &t.session.run,
            });
        }
        let chart = |k| Rc::new(vm::chart_data(k, &runs, cursor));
        match self.views.tab {
            ViewTab::None => ViewData::None,
            ViewTab::Charts => {
                ViewData::Charts(vm::available_charts(run).into_iter().map(chart).collect())
            }
            ViewTab::Regions => ViewData::Regions {
                map: Rc::new(vm::region_map(run)),
                detail: self.views.region.and_then(|r| vm::region_detail(run, r)),
            },
            ViewTab::Log => ViewData::Log {
                log: Rc::new(vm::log_vm(run)),
                messages: Rc::new(vm::messages_vm(run)),
            },
            ViewTab::SpaceTime => {
                let messages = vm::messages_vm(run);
                let nodes = vm::log_vm(run).nodes;
                let data = vm::space_time(
                    &messages.rows,
                    &self.views.space_time_nodes,
                    s.now().as_micros(),
                    2_000_000,
                );
                ViewData::SpaceTime {
                    data: Rc::new(data),
                    nodes,
                    recording: messages.enabled,
                }
            }
            ViewTab::Blame => ViewData::Blame(Rc::new(vm::blame(run))),
            // The check replays the downstream tables: only while paused, not every frame.
            ViewTab::Consistency if self.playing => ViewData::Consistency(None),
            ViewTab::Consistency => ViewData::Consistency(Some(Rc::new(vm::consistency(run)))),
            ViewTab::Cdc => {
                let sessions = run.world.kernel.metrics.index("owner_capture").is_some();
                ViewData::Cdc(CdcViews {
                    list: Rc::new(vm::changefeed_list(run)),
                    sink_lanes: Rc::new(vm::sink_lanes(run)),
                    owner_tick: chart(vm::ChartKind::OwnerTick),
                    sessions: sessions.then(|| SessionViews {
                        owner: Rc::new(vm::owner_lane(run)),
                        tables: Rc::new(vm::table_lanes(run)),
                        writers: chart(vm::ChartKind::Writers),
                        lease: chart(vm::ChartKind::Lease),
                    }),
                })
            }
        }
    }

    /// Replaces the runs with `link`'s scenario (and its twin), then moves to the cursor.
    fn load(
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
    fn twin_on(&mut self, toggle: usize) {
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
    fn settle(&mut self) {
        if let Some(t) = self.seek_target.take() {
            if let Some(s) = self.session.as_mut() {
                s.seek(t);
            }
            self.sync_twin();
        }
    }

    /// Brings the compare twin to the cursor.
    fn sync_twin(&mut self) {
        let now = self.now();
        if let Some(t) = self.twin.as_mut() {
            t.session.seek(now);
        }
    }

    /// Starts moving the cursor to `t`: restore the nearest snapshot now, replay in slices.
    fn seek(&mut self, t: SimTime) {
        let t = t.min(self.end());
        if let Some(s) = self.session.as_mut() {
            s.restore_for(t);
        }
        if let Some(tw) = self.twin.as_mut() {
            tw.session.restore_for(t);
        }
        self.seek_target = Some(t);
    }
}

#[cfg(test)]
mod tests;

/// Parses an import or prints an export. An import's error reads exactly as the page showed
/// it when it parsed TOML itself: `Could not import <name>:` then the parser's message (file,
/// line and column), or the validation problem after a colon.
pub fn toml_answer(cmd: TomlCmd) -> TomlAnswer {
    match cmd {
        TomlCmd::Import { name, text } => {
            let result = match parse_scenario(&name, &text) {
                Ok(s) => match validate::validate("scenario", &s) {
                    Ok(()) => Ok(encode_link(&s)),
                    Err(e) => Err(format!("Could not import {name}: {e}")),
                },
                Err(e) => Err(format!("Could not import {name}:\n{e}")),
            };
            TomlAnswer::Imported { name, result }
        }
        TomlCmd::Export { link } => {
            let text = match decode_link(&link) {
                Ok(s) => to_toml(&s),
                Err(e) => format!("# could not write TOML: {e}\n"),
            };
            TomlAnswer::Exported { link, text }
        }
    }
}
