//! The playground's state and rules, with no Yew or DOM in sight: which scenario runs, where
//! the cursor is, playback, branches, compare mode, edits with undo/redo, guided steps.
//! `crate::state` wraps it in a Yew reducer; components only read it and send [`Action`]s.
//!
//! The runs themselves live in the engine (`crate::engine`, a Web Worker in the browser):
//! the playground sends it commands through [`Playground::outbox`] and shows the latest
//! [`Frame`] it reported. Edits, branches, undo and selection stay here.

pub mod action;
pub mod explore;
pub mod hash;
pub mod history;
pub mod link_check;
pub mod report;
pub mod session;
pub mod snapshots;
pub mod toggles;
pub mod topology;

use std::collections::BTreeMap;

use faultline_scenario::{
    decode_link, encode_link, validate::validate, ChangefeedSpec, Dur, FaultSpec, Problem,
    Scenario, ScenarioError,
};
use faultline_sim::SimTime;

pub use action::{Action, Speed};
use history::History;
use topology::NodeKind;

use crate::engine::{Command, ExploreView, Frame, ToEngine, TomlAnswer, TomlCmd, ViewRequest};
use crate::gallery::{default_scenario, DEFAULT_SCENARIO_FILE};

/// A run kept as a branch: its scenario and where it was left.
#[derive(Clone)]
pub struct Branch {
    /// Shown in the branch list.
    pub label: String,
    /// The branch's scenario.
    pub scenario: Scenario,
    /// Cursor when last left.
    pub cursor: SimTime,
    /// Trace hash at that cursor.
    pub hash: u64,
}

/// The whole playground.
pub struct Playground {
    /// The running scenario (what the engine was last told to run).
    running: Scenario,
    /// The latest report from the engine.
    pub frame: Frame,
    /// Commands for the engine not yet sent (the page drains it after each action).
    pub outbox: Vec<ToEngine>,
    /// Number of the last command queued.
    seq: u64,
    /// Number of the last command that moves the clock: until a frame acknowledges it, the
    /// status reads `seeking` and the cursor the one asked for.
    clock_seq: u64,
    /// Branches whose cursor and hash to take from the first frame acknowledging `.0`.
    branch_fix: Option<(u64, Vec<usize>)>,
    /// A cursor asked for and not yet acknowledged.
    pending_cursor: Option<SimTime>,
    /// The shipped file the scenario came from, if unchanged from the gallery.
    pub file: Option<&'static str>,
    /// What the editors show; differs from the run's scenario only while invalid.
    pub draft: Scenario,
    /// Why the draft is invalid, by field.
    pub problems: Vec<Problem>,
    /// Undo / redo of edits.
    pub history: History,
    /// Every branch; `branches[active]` is the one running (its fields update when left).
    pub branches: Vec<Branch>,
    /// Index of the running branch.
    pub active: usize,
    /// Compare mode: the toggle flipped in the twin.
    pub compare: Option<usize>,
    /// Playing (as asked; frames confirm it).
    pub playing: bool,
    /// At what speed.
    pub speed: Speed,
    /// Guided mode: index of the step last jumped to.
    pub guide: Option<usize>,
    /// A problem to show in the error box (bad link, bad import, a crash).
    pub error: Option<String>,
    /// The engine crashed: the page shows the error and stops.
    pub crashed: bool,
    /// A short confirmation ("Link copied").
    pub notice: Option<String>,
    /// The scenario autosaved by an earlier visit, offered when a link fails.
    pub autosaved: Option<Scenario>,
    /// Read-only autoplaying embed.
    pub embed: bool,
    /// Selected fault on the timeline.
    pub selected_fault: Option<usize>,
    /// Selected node.
    pub selected_node: Option<String>,
    /// Node whose context menu is open.
    pub menu_node: Option<String>,
    /// Editor node positions (UI only).
    pub positions: BTreeMap<String, (f64, f64)>,
    /// Help overlay open.
    pub help_open: bool,
    /// Bumped on every edit, so the page knows to autosave.
    pub edits: u64,
    /// The run's scenario as a link (`v1.…`), kept to avoid re-encoding per frame.
    pub link: String,
    /// What the views panel shows (resent with every load).
    views: ViewRequest,
    /// The Explore panel's jobs, as the engine last reported them.
    pub explore: ExploreView,
    /// A TOML file sent to the worker to parse, not answered yet.
    pub importing: Option<String>,
    /// The worker's TOML text of a scenario (its link, the text), for Export TOML; current
    /// when the link is [`Playground::link`].
    pub exported: Option<(String, String)>,
    /// The opened link's self-check and compare mode's first difference.
    pub checks: link_check::LinkChecks,
}

/// Checks that a scenario can run (the engine reports what only building the world finds,
/// such as an expectation on a metric the model lacks).
fn check(s: &Scenario) -> Result<(), ScenarioError> {
    validate("scenario", s)
}

impl Playground {
    /// The playground for a page load: the scenario from `hash` (or the default), with
    /// `autosaved` offered if the link is broken. Its outbox holds the engine's first load.
    pub fn from_hash(hash: &str, autosaved: Option<Scenario>, embed: bool) -> Playground {
        Playground::from_hash_after(hash, autosaved, embed, 0, ViewRequest::default())
    }

    /// Like [`Playground::from_hash`], numbering commands after `seq` (the engine keeps
    /// counting across a pasted link) and keeping the views request.
    fn from_hash_after(
        hash: &str,
        autosaved: Option<Scenario>,
        embed: bool,
        seq: u64,
        views: ViewRequest,
    ) -> Playground {
        let h = hash::parse(hash);
        let (scenario, file, error) = if h.link.is_empty() {
            (default_scenario(), Some(DEFAULT_SCENARIO_FILE), None)
        } else {
            match decode_link(&h.link)
                .map_err(|e| e.to_string())
                .and_then(|s| check(&s).map(|_| s).map_err(|e| e.to_string()))
            {
                Ok(s) => (s, None, None),
                Err(e) => (
                    default_scenario(),
                    Some(DEFAULT_SCENARIO_FILE),
                    Some(format!(
                        "This link could not be opened: {e}\nShowing the default scenario instead."
                    )),
                ),
            }
        };
        let link = encode_link(&scenario);
        let mut pg = Playground {
            branches: vec![Branch {
                label: "main".into(),
                scenario: scenario.clone(),
                cursor: SimTime(0),
                hash: 0,
            }],
            frame: Frame {
                end_us: scenario.duration.to_time().as_micros(),
                ..Frame::default()
            },
            running: scenario.clone(),
            outbox: Vec::new(),
            seq,
            clock_seq: seq,
            branch_fix: None,
            pending_cursor: None,
            link,
            file,
            draft: scenario,
            problems: Vec::new(),
            history: History::default(),
            active: 0,
            compare: None,
            playing: true,
            speed: Speed::Max,
            guide: None,
            error,
            crashed: false,
            notice: None,
            autosaved,
            embed,
            selected_fault: None,
            selected_node: None,
            menu_node: None,
            positions: BTreeMap::new(),
            help_open: false,
            edits: 0,
            views,
            explore: ExploreView::default(),
            importing: None,
            exported: None,
            checks: link_check::LinkChecks::from_link(&h.link),
        };
        // A link with a cursor opens paused at that moment; without one it plays.
        let cursor = match (h.cursor.or(pg.checks.recorded_cursor()), &pg.error) {
            (Some(t), None) => {
                pg.playing = false;
                Some(t.min(pg.end()))
            }
            _ => None,
        };
        pg.load(cursor.unwrap_or(SimTime(0)), Some(pg.playing));
        pg
    }

    /// The running scenario.
    pub fn scenario(&self) -> &Scenario {
        &self.running
    }

    /// The cursor: the one asked for until the engine confirms it, then the engine's.
    pub fn now(&self) -> SimTime {
        self.pending_cursor.unwrap_or(SimTime(self.frame.now_us))
    }

    /// Where a seek is heading, if the engine is still catching up.
    pub fn seek_target(&self) -> Option<SimTime> {
        self.pending_cursor
            .or(self.frame.seek_target_us.map(SimTime))
    }

    /// The end of the run.
    pub fn end(&self) -> SimTime {
        self.running.duration.to_time()
    }

    /// Trace hash at the cursor (as last reported).
    pub fn trace_hash(&self) -> u64 {
        self.frame.trace_hash
    }

    /// True until the engine has handled every command that moves the clock.
    fn catching_up(&self) -> bool {
        self.frame.ack < self.clock_seq
    }

    /// `running`, `seeking`, `paused`, `finished` or `crashed` (the e2e tests wait for these).
    pub fn status(&self) -> &'static str {
        if self.crashed {
            "crashed"
        } else if self.catching_up() {
            "seeking"
        } else {
            self.frame.state.name()
        }
    }

    /// The URL hash for the current scenario and cursor.
    pub fn url_hash(&self) -> String {
        hash::format(&self.link, self.seek_target().unwrap_or(self.now()))
    }

    /// The caption to show: the latest guide step at or before the cursor, in guided mode.
    pub fn caption(&self) -> Option<(usize, &str)> {
        self.guide?;
        let now = self.now();
        self.scenario()
            .guide
            .iter()
            .enumerate()
            .rev()
            .find(|(_, g)| g.at.to_time() <= now)
            .map(|(i, g)| (i, g.caption.as_str()))
    }

    /// Queues a command for the engine; `clock` marks commands that move the cursor.
    fn send(&mut self, cmd: Command, clock: bool) {
        self.seq += 1;
        if clock {
            self.clock_seq = self.seq;
        }
        self.outbox.push(ToEngine { seq: self.seq, cmd });
    }

    /// Tells the engine to run the current scenario (and its twin) from t = 0 and go to
    /// `cursor`, then play or pause.
    fn load(&mut self, cursor: SimTime, play: Option<bool>) {
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
    fn fix_branches(&mut self, which: Vec<usize>) {
        self.branch_fix = Some((self.seq, which));
    }

    /// A frame arrived from the engine.
    fn on_frame(&mut self, mut frame: Frame) {
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
        if !self.catching_up() {
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

    /// Applies one action. Returns false when nothing visible changed, so the page can skip
    /// a render. Commands for the engine collect in [`Playground::outbox`].
    pub fn apply(&mut self, action: Action) -> bool {
        if !matches!(
            action,
            Action::Frame(_) | Action::Views(_) | Action::Toml(TomlAnswer::Exported { .. })
        ) {
            self.notice = None;
        }
        match action {
            Action::Frame(f) => self.on_frame(*f),
            // Only the first report says what went wrong.
            Action::EngineCrashed(..) if self.crashed => return false,
            Action::EngineCrashed(message, at_us) => {
                self.crashed = true;
                self.playing = false;
                self.error = Some(format!(
                    "The simulation crashed at about {}: {message}\nRepro link (copy it into a bug report; it plays to the crash): {}#{}\nReload the page to continue.",
                    crate::format::sim_time(SimTime(at_us)),
                    crate::dom::base_url(),
                    self.link
                ));
            }
            Action::CrashEngine => self.send(Command::Crash, false),
            Action::Explore(c) => self.send(Command::Explore(c), false),
            Action::FindFirstDifference => link_check::ask_first_difference(self),
            Action::FirstDifference(d) => self.checks.answered(d),
            Action::Views(v) => {
                if v == self.views {
                    return false;
                }
                self.views = v.clone();
                self.send(Command::Views(v), false);
            }
            Action::TogglePlay => {
                if self.now() >= self.end() && !self.playing {
                    self.pending_cursor = Some(SimTime(0));
                }
                self.playing = !self.playing;
                self.send(Command::TogglePlay, true);
            }
            Action::Pause => {
                self.playing = false;
                self.send(Command::Pause, true);
            }
            Action::SetSpeed(s) => {
                self.speed = s;
                self.playing = true;
                self.send(Command::SetSpeed(s), true);
            }
            Action::StepEvent => {
                self.playing = false;
                self.send(Command::StepEvent, true);
            }
            Action::StepToNode(name) => {
                self.playing = false;
                self.send(Command::StepToNode(name), true);
            }
            Action::Nudge(us) => {
                let base = self.seek_target().unwrap_or(self.now()).as_micros() as i64;
                let t = (base + us).clamp(0, self.end().as_micros() as i64);
                self.seek(SimTime(t as u64));
            }
            Action::Seek(t) => self.seek(t),
            Action::BranchHere => self.branch_here(),
            Action::SwitchBranch(i) => self.switch_branch(i),
            Action::Open { scenario, file } => {
                self.open(*scenario, file);
                self.edits += 1;
            }
            Action::ImportToml(name, text) => {
                self.importing = Some(name.clone());
                self.send(Command::Toml(TomlCmd::Import { name, text }), false);
            }
            Action::Toml(TomlAnswer::Imported { name, result }) => {
                if self.importing.as_deref() == Some(name.as_str()) {
                    self.importing = None;
                }
                match result.and_then(|link| decode_link(&link).map_err(|e| e.to_string())) {
                    Ok(s) => {
                        self.open(s, None);
                        self.edits += 1;
                    }
                    Err(e) => self.error = Some(e),
                }
            }
            Action::Toml(TomlAnswer::Exported { link, text }) => {
                if link != self.link {
                    return false;
                }
                self.exported = Some((link, text));
            }
            Action::LoadHash(h) => {
                if hash::parse(&h).link == self.link {
                    return false;
                }
                let autosaved = self.autosaved.take();
                let mut next = Playground::from_hash_after(
                    &h,
                    autosaved,
                    self.embed,
                    self.seq,
                    self.views.clone(),
                );
                next.frame = std::mem::take(&mut self.frame);
                next.positions = std::mem::take(&mut self.positions);
                next.explore = std::mem::take(&mut self.explore);
                *self = next;
            }
            Action::OpenAutosave => {
                if let Some(s) = self.autosaved.clone() {
                    self.open(s, None);
                    self.error = None;
                }
            }
            Action::GuideTo(i) => {
                if let Some(step) = self.scenario().guide.get(i) {
                    let t = step.at.to_time();
                    self.guide = Some(i);
                    self.seek(t);
                }
            }
            Action::LeaveGuide => self.guide = None,
            Action::Edit(f) => {
                let mut next = self.draft.clone();
                f(&mut next);
                self.commit(next);
            }
            Action::DiscardDraft => {
                self.draft = self.scenario().clone();
                self.problems.clear();
            }
            Action::Undo => {
                if let Some(prev) = self.history.undo(self.scenario().clone()) {
                    self.replace(prev);
                }
            }
            Action::Redo => {
                if let Some(next) = self.history.redo(self.scenario().clone()) {
                    self.replace(next);
                }
            }
            Action::AddFault(f) => {
                let mut next = self.draft.clone();
                next.faults.push(f);
                next.faults.sort_by_key(|f| f.at);
                self.commit(next);
            }
            Action::UpdateFault(i, f) => {
                let mut next = self.draft.clone();
                if let Some(slot) = next.faults.get_mut(i) {
                    *slot = f;
                }
                self.commit(next);
            }
            Action::RemoveFault(i) => {
                let mut next = self.draft.clone();
                if i < next.faults.len() {
                    next.faults.remove(i);
                }
                self.selected_fault = None;
                self.commit(next);
            }
            Action::SelectFault(i) => self.selected_fault = i,
            Action::SelectNode(n) => {
                self.selected_node = n;
                self.menu_node = None;
            }
            Action::ContextMenu(n) => self.menu_node = n,
            Action::MoveNode(name, x, y) => {
                self.positions.insert(name, (x, y));
            }
            Action::AddNode(kind) => self.add_node(kind),
            Action::RemoveNode(name) => self.remove_node(&name),
            Action::CompareOn(toggle) => {
                self.compare = Some(toggle);
                self.send(Command::Compare(Some(toggle)), true);
            }
            Action::CompareOff => {
                self.compare = None;
                self.send(Command::Compare(None), true);
            }
            Action::ToggleHelp => self.help_open = !self.help_open,
            Action::Notice(n) => self.notice = Some(n),
            Action::DismissError => self.error = None,
        }
        true
    }

    /// Moves the cursor to `t`, paused (the engine rewinds and replays in slices).
    fn seek(&mut self, t: SimTime) {
        let t = t.min(self.end());
        self.playing = false;
        self.pending_cursor = Some(t);
        self.send(Command::Seek(t.as_micros()), true);
    }

    /// Opens a scenario from scratch (gallery, import, autosave): new branch list, t = 0.
    fn open(&mut self, s: Scenario, file: Option<&'static str>) {
        if check(&s).is_err() {
            return;
        }
        self.link = encode_link(&s);
        self.branches = vec![Branch {
            label: "main".into(),
            scenario: s.clone(),
            cursor: SimTime(0),
            hash: 0,
        }];
        self.active = 0;
        self.running = s.clone();
        self.file = file;
        self.draft = s;
        self.problems.clear();
        self.history = History::default();
        self.compare = None;
        self.selected_fault = None;
        self.guide = if self.scenario().guide.is_empty() {
            None
        } else {
            Some(0)
        };
        self.playing = true;
        self.load(SimTime(0), Some(true));
    }

    /// Validates and, if valid, runs an edited scenario (recording undo).
    fn commit(&mut self, next: Scenario) {
        match check(&next) {
            Ok(_) => {
                self.history.record(self.scenario().clone());
                self.replace(next);
            }
            Err(ScenarioError::Invalid { problems, .. }) => {
                self.draft = next;
                self.problems = problems;
            }
            Err(e) => {
                self.draft = next;
                self.problems = vec![Problem {
                    field: String::new(),
                    message: e.to_string(),
                }];
            }
        }
    }

    /// Runs `next` (already validated) from t = 0 and returns to the cursor.
    fn replace(&mut self, next: Scenario) {
        let cursor = self.seek_target().unwrap_or(self.now());
        self.running = next.clone();
        self.link = encode_link(&next);
        self.file = None;
        self.draft = next.clone();
        self.problems.clear();
        if let Some(b) = self.branches.get_mut(self.active) {
            b.scenario = next;
        }
        self.edits += 1;
        self.load(cursor, None);
    }

    fn branch_here(&mut self) {
        self.playing = false;
        // The engine finishes any seek and pauses; the first frame after that is the exact
        // cursor and hash both branches start from.
        self.send(Command::Pause, true);
        let n = self.branches.len();
        let t = self.seek_target().unwrap_or(self.now());
        self.save_branch();
        self.branches.push(Branch {
            label: format!("branch {n} at {}", crate::format::sim_time(t)),
            scenario: self.scenario().clone(),
            cursor: t,
            hash: self.trace_hash(),
        });
        self.fix_branches(vec![self.active, n]);
        self.active = n;
        self.history = History::default();
        self.notice = Some(
            "Branched. Add a fault now (palette or a node's menu); the previous run stays in the branch list."
                .into(),
        );
    }

    /// Records where the active branch was left (the latest frame: exact when paused).
    fn save_branch(&mut self) {
        let (cursor, hash) = (self.now(), self.trace_hash());
        if let Some(b) = self.branches.get_mut(self.active) {
            b.cursor = cursor;
            b.hash = hash;
        }
    }

    fn switch_branch(&mut self, i: usize) {
        if i == self.active || i >= self.branches.len() {
            return;
        }
        self.save_branch();
        let b = self.branches[i].clone();
        self.active = i;
        self.link = encode_link(&b.scenario);
        self.running = b.scenario.clone();
        self.draft = b.scenario;
        self.problems.clear();
        self.history = History::default();
        self.playing = false;
        self.load(b.cursor, Some(false));
    }

    fn add_node(&mut self, kind: NodeKind) {
        let mut next = self.draft.clone();
        match kind {
            NodeKind::Tikv => next.topology.stores += 1,
            NodeKind::Cdc => {
                next.topology.captures += 1;
                if next.changefeeds.is_empty() {
                    next.changefeeds.push(new_changefeed(1));
                }
            }
            NodeKind::Mysql => {
                if next.topology.captures == 0 {
                    next.topology.captures = 1;
                }
                let n = next.changefeeds.len() + 1;
                next.changefeeds.push(new_changefeed(n));
            }
            NodeKind::Pd | NodeKind::Kafka => {
                self.notice = Some(
                    "The model has exactly one PD (pd-1); Kafka brokers come with a Kafka changefeed (topology.kafka_brokers)."
                        .into(),
                );
                return;
            }
        }
        self.commit(next);
    }

    fn remove_node(&mut self, name: &str) {
        let mut next = self.draft.clone();
        let last_store = format!("tikv-{}", next.topology.stores);
        let last_capture = format!("cdc-{}", next.topology.captures);
        if name.starts_with("tikv-") {
            if name != last_store {
                self.notice = Some(format!(
                    "Node names are fixed by the model (tikv-1..tikv-N): removing a store removes {last_store}."
                ));
            }
            next.topology.stores = next.topology.stores.saturating_sub(1);
        } else if name.starts_with("cdc-") {
            if name != last_capture {
                self.notice = Some(format!(
                    "Node names are fixed by the model (cdc-1..cdc-N): removing a capture removes {last_capture}."
                ));
            }
            next.topology.captures = next.topology.captures.saturating_sub(1);
            if next.topology.captures == 0 {
                next.changefeeds.clear();
            }
        } else if name.starts_with("mysql-") {
            next.topology.captures = 0;
            next.changefeeds.clear();
        } else {
            self.notice = Some("PD cannot be removed: the model always has pd-1.".into());
            return;
        }
        self.positions.remove(name);
        self.selected_node = None;
        self.menu_node = None;
        self.commit(next);
    }

    /// A fault at the cursor (for "apply now").
    pub fn fault_now(&self, action: faultline_scenario::FaultAction, target: &str) -> FaultSpec {
        FaultSpec {
            at: Dur(self.now().as_micros()),
            action,
            target: target.to_string(),
            peers: None,
            one_way: false,
            loss_percent: (action == faultline_scenario::FaultAction::Loss).then_some(30),
            delay: (action == faultline_scenario::FaultAction::Delay).then_some(Dur::millis(200)),
            duration: None,
        }
    }
}

/// A changefeed `cf-<n>` to MySQL with every other field at its file default
/// (`ChangefeedSpec::new` is tested against the parser in faultline-scenario).
fn new_changefeed(n: usize) -> ChangefeedSpec {
    ChangefeedSpec::new(format!("cf-{n}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::local::Local;
    use faultline_scenario::{gallery, FaultAction, Run};

    fn small() -> Scenario {
        gallery()
            .into_iter()
            .find(|e| e.file.starts_with("raft-basics"))
            .unwrap()
            .scenario
    }

    fn local(s: &Scenario) -> Local {
        Local::new(Playground::from_hash(
            &format!("#{}", encode_link(s)),
            None,
            false,
        ))
    }

    #[test]
    fn a_link_with_a_cursor_opens_there_paused() {
        let s = small();
        let h = hash::format(&encode_link(&s), SimTime(30_000_000));
        let pg = Playground::from_hash(&h, None, false);
        assert!(pg.error.is_none());
        // Before the engine answers, the page already shows where it is going.
        assert_eq!(pg.status(), "seeking");
        assert_eq!(pg.url_hash(), h);
        let mut l = Local::new(pg);
        l.settle();
        assert_eq!(l.pg.now(), SimTime(30_000_000));
        assert_eq!(l.pg.status(), "paused");
        assert_eq!(l.pg.url_hash(), h);
        let mut whole = Run::new(&s).unwrap();
        whole.run_until(SimTime(30_000_000));
        assert_eq!(l.pg.trace_hash(), whole.trace_hash());
    }

    #[test]
    fn a_broken_link_falls_back_and_keeps_the_autosave_on_offer() {
        let pg = Playground::from_hash("#v1.%%%", Some(small()), false);
        assert!(pg.error.as_deref().unwrap().contains("could not be opened"));
        assert_eq!(pg.file, Some(DEFAULT_SCENARIO_FILE));
        assert!(pg.autosaved.is_some());
    }

    #[test]
    fn edit_fault_undo_redo() {
        let s = small();
        let mut l = local(&s);
        l.apply(Action::Seek(SimTime(20_000_000)));
        l.settle();
        let f = l.pg.fault_now(FaultAction::Kill, "tikv-2");
        l.apply(Action::AddFault(f));
        l.settle();
        assert_eq!(l.pg.scenario().faults.len(), s.faults.len() + 1);
        assert_eq!(l.pg.now(), SimTime(20_000_000));
        l.apply(Action::AddNode(NodeKind::Tikv));
        assert_eq!(l.pg.scenario().topology.stores, s.topology.stores + 1);
        l.apply(Action::Undo);
        l.apply(Action::Undo);
        assert_eq!(l.pg.scenario(), &s);
        l.apply(Action::Redo);
        assert_eq!(l.pg.scenario().faults.len(), s.faults.len() + 1);
        // An invalid edit keeps the run and reports the field.
        l.apply(Action::Edit(std::rc::Rc::new(|s| s.topology.stores = 99)));
        assert!(l.pg.problems.iter().any(|p| p.field.contains("stores")));
        assert_eq!(l.pg.scenario().topology.stores, s.topology.stores);
        // The engine runs what the page shows.
        l.settle();
        let mut whole = Run::new(l.pg.scenario()).unwrap();
        whole.run_until(SimTime(20_000_000));
        assert_eq!(l.pg.now(), SimTime(20_000_000));
        assert_eq!(l.pg.trace_hash(), whole.trace_hash());
    }

    #[test]
    fn branch_and_switch_back() {
        let s = small();
        let mut l = local(&s);
        l.apply(Action::Seek(SimTime(10_000_000)));
        l.settle();
        let at_branch = l.pg.trace_hash();
        l.apply(Action::BranchHere);
        let f = l.pg.fault_now(FaultAction::Pause, "tikv-3");
        l.apply(Action::AddFault(f));
        l.settle();
        assert_eq!(l.pg.branches.len(), 2);
        assert_eq!(l.pg.branches[0].hash, at_branch);
        assert_eq!(l.pg.branches[0].cursor, SimTime(10_000_000));
        l.apply(Action::SwitchBranch(0));
        l.settle();
        assert_eq!(l.pg.scenario(), &s);
        assert_eq!(l.pg.now(), SimTime(10_000_000));
        assert_eq!(l.pg.trace_hash(), at_branch);
    }

    #[test]
    fn branch_while_playing_records_where_the_engine_paused() {
        let s = small();
        let mut l = local(&s);
        // Play a little (one frame's worth), then branch without waiting.
        l.apply(Action::SetSpeed(Speed::X100));
        l.pump();
        l.apply(Action::BranchHere);
        l.settle();
        let b = &l.pg.branches[0];
        assert_eq!(b.cursor, l.pg.now());
        assert_eq!(b.hash, l.pg.trace_hash());
        assert_eq!(l.pg.branches[1].hash, l.pg.trace_hash());
    }

    #[test]
    fn compare_runs_the_twin_on_the_same_cursor() {
        let s = small();
        let mut l = local(&s);
        l.apply(Action::CompareOn(0));
        l.apply(Action::Seek(SimTime(40_000_000)));
        l.settle();
        let twin = l.pg.frame.twin.as_ref().expect("twin reported");
        assert_eq!(twin.now_us, l.pg.now().as_micros());
        let mut flipped = s.clone();
        toggles::set_buggy(&mut flipped, 0, !toggles::is_buggy(&s, 0));
        let mut whole = Run::new(&flipped).unwrap();
        whole.run_until(SimTime(40_000_000));
        assert_eq!(twin.trace_hash, whole.trace_hash());
        l.apply(Action::CompareOff);
        l.settle();
        assert!(l.pg.frame.twin.is_none());
    }

    #[test]
    fn a_pasted_link_keeps_numbering_commands() {
        let s = small();
        let mut l = local(&s);
        l.settle();
        let mut other = s.clone();
        other.seed += 1;
        let h = hash::format(&encode_link(&other), SimTime(5_000_000));
        l.apply(Action::LoadHash(h));
        // Before the engine answers, the old frame must not pass for the new run.
        assert_eq!(l.pg.status(), "seeking");
        l.settle();
        assert_eq!(l.pg.status(), "paused");
        assert_eq!(l.pg.now(), SimTime(5_000_000));
        let mut whole = Run::new(&other).unwrap();
        whole.run_until(SimTime(5_000_000));
        assert_eq!(l.pg.trace_hash(), whole.trace_hash());
    }
}
