//! The playground's state and rules, with no Yew or DOM in sight: which scenario runs, where
//! the cursor is, playback, branches, compare mode, edits with undo/redo, guided steps.
//! `crate::state` wraps it in a Yew reducer; components only read it and send [`Action`]s.

pub mod action;
pub mod explore;
pub mod hash;
pub mod history;
pub mod report;
pub mod session;
pub mod snapshots;
pub mod toggles;
pub mod topology;

use std::collections::BTreeMap;

use faultline_scenario::{
    decode_link, default_scenario, encode_link, parse_scenario, validate::validate, Dur, FaultSpec,
    Problem, Scenario, ScenarioError, DEFAULT_SCENARIO_FILE,
};
use faultline_sim::SimTime;

pub use action::{Action, Speed};
use history::History;
use session::Session;
use topology::NodeKind;

/// Wall-clock milliseconds of simulation per timer tick: the rest of a 16 ms frame is left
/// for painting and input.
pub const SLICE_MS: f64 = 8.0;

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

/// Compare mode: the same scenario with one toggle flipped, on the same cursor.
#[derive(Clone)]
pub struct Compare {
    /// Which toggle (index into `toggles::TOGGLES`).
    pub toggle: usize,
    /// The twin run.
    pub session: Session,
}

/// The whole playground.
pub struct Playground {
    /// The active run.
    pub session: Session,
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
    /// The compare twin, in compare mode.
    pub compare: Option<Compare>,
    /// Playing?
    pub playing: bool,
    /// At what speed.
    pub speed: Speed,
    /// Where a seek is heading (the run catches up in slices).
    pub seek_target: Option<SimTime>,
    last_wall_ms: Option<f64>,
    /// Guided mode: index of the step last jumped to.
    pub guide: Option<usize>,
    /// A problem to show in the error box (bad link, bad import).
    pub error: Option<String>,
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
}

impl Playground {
    /// The playground for a page load: the scenario from `hash` (or the default), with
    /// `autosaved` offered if the link is broken.
    pub fn from_hash(hash: &str, autosaved: Option<Scenario>, embed: bool) -> Playground {
        let h = hash::parse(hash);
        let (scenario, file, error) = if h.link.is_empty() {
            (default_scenario(), Some(DEFAULT_SCENARIO_FILE), None)
        } else {
            match decode_link(&h.link)
                .map_err(|e| e.to_string())
                .and_then(|s| Session::new(&s).map(|_| s).map_err(|e| e.to_string()))
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
        let session = Session::new(&scenario)
            .or_else(|_| Session::new(&default_scenario()))
            .expect("the default scenario runs (tested)");
        let scenario = session.run.scenario.clone();
        let mut pg = Playground {
            link: encode_link(&scenario),
            branches: vec![Branch {
                label: "main".into(),
                scenario: scenario.clone(),
                cursor: SimTime(0),
                hash: session.run.trace_hash(),
            }],
            session,
            file,
            draft: scenario,
            problems: Vec::new(),
            history: History::default(),
            active: 0,
            compare: None,
            playing: true,
            speed: Speed::Max,
            seek_target: None,
            last_wall_ms: None,
            guide: None,
            error,
            notice: None,
            autosaved,
            embed,
            selected_fault: None,
            selected_node: None,
            menu_node: None,
            positions: BTreeMap::new(),
            help_open: false,
            edits: 0,
        };
        // A link with a cursor opens paused at that moment; without one it plays.
        if let (Some(t), None) = (h.cursor, &pg.error) {
            pg.playing = false;
            pg.seek_target = Some(t.min(pg.session.end()));
        }
        pg
    }

    /// The running scenario.
    pub fn scenario(&self) -> &Scenario {
        &self.session.run.scenario
    }

    /// The cursor.
    pub fn now(&self) -> SimTime {
        self.session.now()
    }

    /// `running`, `seeking`, `paused` or `finished` (the e2e tests wait for `finished`).
    pub fn status(&self) -> &'static str {
        let twin_done = self
            .compare
            .as_ref()
            .is_none_or(|c| c.session.now() >= self.now());
        if self.seek_target.is_some() {
            "seeking"
        } else if self.session.finished() && twin_done {
            "finished"
        } else if self.playing {
            "running"
        } else {
            "paused"
        }
    }

    /// The URL hash for the current scenario and cursor.
    pub fn url_hash(&self) -> String {
        hash::format(&self.link, self.seek_target.unwrap_or(self.now()))
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

    /// Applies one action. `clock` reads wall-clock milliseconds (slices are budgeted by it).
    /// Returns false when nothing visible changed (an idle tick), so the page can skip a
    /// render.
    pub fn apply(&mut self, action: Action, clock: &dyn Fn() -> f64) -> bool {
        if !matches!(action, Action::Tick) {
            self.notice = None;
        }
        match action {
            Action::Tick => return self.tick(clock),
            Action::TogglePlay => {
                if self.session.finished() && !self.playing {
                    self.seek(SimTime(0));
                }
                self.playing = !self.playing;
                self.last_wall_ms = None;
            }
            Action::Pause => self.playing = false,
            Action::SetSpeed(s) => {
                self.speed = s;
                self.playing = true;
                self.last_wall_ms = None;
            }
            Action::StepEvent => {
                self.settle();
                self.playing = false;
                self.session.step_event();
                self.sync_twin();
            }
            Action::StepToNode(name) => {
                self.settle();
                self.playing = false;
                if let Some(id) = self.session.run.world.kernel.net.find(&name) {
                    if !self.session.step_to_node(id) {
                        self.notice = Some(format!("{name} does nothing more before the end"));
                    }
                }
                self.sync_twin();
            }
            Action::Nudge(us) => {
                let base = self.seek_target.unwrap_or(self.now()).as_micros() as i64;
                let t = (base + us).clamp(0, self.session.end().as_micros() as i64);
                self.playing = false;
                self.seek(SimTime(t as u64));
            }
            Action::Seek(t) => {
                self.playing = false;
                self.seek(t);
            }
            Action::BranchHere => self.branch_here(),
            Action::SwitchBranch(i) => self.switch_branch(i),
            Action::Open { scenario, file } => {
                self.open(*scenario, file);
                self.edits += 1;
            }
            Action::ImportToml(name, text) => match parse_scenario(&name, &text) {
                Ok(s) => match Session::new(&s) {
                    Ok(_) => {
                        self.open(s, None);
                        self.edits += 1;
                    }
                    Err(e) => self.error = Some(format!("Could not import {name}: {e}")),
                },
                Err(e) => self.error = Some(format!("Could not import {name}:\n{e}")),
            },
            Action::LoadHash(h) => {
                if hash::parse(&h).link == self.link {
                    return false;
                }
                let autosaved = self.autosaved.take();
                *self = Playground::from_hash(&h, autosaved, self.embed);
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
                    self.playing = false;
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
            Action::CompareOn(toggle) => self.compare_on(toggle),
            Action::CompareOff => self.compare = None,
            Action::ToggleHelp => self.help_open = !self.help_open,
            Action::Notice(n) => self.notice = Some(n),
            Action::DismissError => self.error = None,
        }
        true
    }

    /// Runs the next slice towards the seek target, or the playback target.
    fn tick(&mut self, clock: &dyn Fn() -> f64) -> bool {
        let now_ms = clock();
        let target = match (self.seek_target, self.playing) {
            (Some(t), _) => t,
            (None, true) => match self.speed.us_per_ms() {
                None => self.session.end(),
                Some(rate) => {
                    let elapsed = self
                        .last_wall_ms
                        .map_or(0.0, |l| (now_ms - l).clamp(0.0, 250.0));
                    SimTime(self.now().as_micros() + (elapsed * rate) as u64)
                }
            },
            (None, false) => return false,
        };
        self.last_wall_ms = Some(now_ms);
        let budget = if self.compare.is_some() {
            SLICE_MS / 2.0
        } else {
            SLICE_MS
        };
        let mut done = self.session.advance(target, budget, clock);
        if let Some(c) = self.compare.as_mut() {
            done &= c.session.advance(self.session.now(), budget, clock);
        }
        if done && self.seek_target.is_some() {
            self.seek_target = None;
        }
        if self.session.finished() && self.compare.as_ref().is_none_or(|c| c.session.finished()) {
            self.playing = false;
        }
        true
    }

    /// Finishes a pending seek at once (before stepping single events).
    fn settle(&mut self) {
        if let Some(t) = self.seek_target.take() {
            self.session.seek(t);
            self.sync_twin();
        }
    }

    /// Brings the compare twin to the cursor.
    fn sync_twin(&mut self) {
        let now = self.now();
        if let Some(c) = self.compare.as_mut() {
            c.session.seek(now);
        }
    }

    /// Starts moving the cursor to `t`: restore the nearest snapshot now, replay in slices.
    fn seek(&mut self, t: SimTime) {
        let t = t.min(self.session.end());
        self.session.restore_for(t);
        if let Some(c) = self.compare.as_mut() {
            c.session.restore_for(t);
        }
        self.seek_target = Some(t);
    }

    /// Opens a scenario from scratch (gallery, import, autosave): new branch list, t = 0.
    fn open(&mut self, s: Scenario, file: Option<&'static str>) {
        let Ok(session) = Session::new(&s) else {
            return;
        };
        self.link = encode_link(&s);
        self.branches = vec![Branch {
            label: "main".into(),
            scenario: s.clone(),
            cursor: SimTime(0),
            hash: session.run.trace_hash(),
        }];
        self.active = 0;
        self.session = session;
        self.file = file;
        self.draft = s;
        self.problems.clear();
        self.history = History::default();
        self.compare = None;
        self.seek_target = None;
        self.selected_fault = None;
        self.guide = if self.scenario().guide.is_empty() {
            None
        } else {
            Some(0)
        };
        self.playing = true;
        self.last_wall_ms = None;
    }

    /// Validates and, if valid, runs an edited scenario (recording undo).
    fn commit(&mut self, next: Scenario) {
        let checked = validate("editor", &next).and_then(|_| Session::new(&next));
        match checked {
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
        let Ok(session) = Session::new(&next) else {
            return;
        };
        let cursor = self.seek_target.unwrap_or(self.now()).min(session.end());
        self.session = session;
        self.link = encode_link(&next);
        self.file = None;
        self.draft = next.clone();
        self.problems.clear();
        if let Some(c) = self.compare.take() {
            self.compare_on(c.toggle);
        }
        if let Some(b) = self.branches.get_mut(self.active) {
            b.scenario = next;
        }
        self.edits += 1;
        self.seek(cursor);
    }

    fn branch_here(&mut self) {
        self.settle();
        self.save_branch();
        let n = self.branches.len();
        let t = self.now();
        self.branches.push(Branch {
            label: format!("branch {n} at {}", crate::format::sim_time(t)),
            scenario: self.scenario().clone(),
            cursor: t,
            hash: self.session.run.trace_hash(),
        });
        self.active = n;
        self.history = History::default();
        self.playing = false;
        self.notice = Some(
            "Branched. Add a fault now (palette or a node's menu); the previous run stays in the branch list."
                .into(),
        );
    }

    fn save_branch(&mut self) {
        let (cursor, hash) = (self.now(), self.session.run.trace_hash());
        if let Some(b) = self.branches.get_mut(self.active) {
            b.cursor = cursor;
            b.hash = hash;
        }
    }

    fn switch_branch(&mut self, i: usize) {
        if i == self.active || i >= self.branches.len() {
            return;
        }
        self.settle();
        self.save_branch();
        let b = self.branches[i].clone();
        let Ok(session) = Session::new(&b.scenario) else {
            return;
        };
        self.session = session;
        self.active = i;
        self.link = encode_link(&b.scenario);
        self.draft = b.scenario;
        self.problems.clear();
        self.history = History::default();
        if let Some(c) = self.compare.take() {
            self.compare_on(c.toggle);
        }
        self.playing = false;
        self.seek(b.cursor);
    }

    fn compare_on(&mut self, toggle: usize) {
        let mut twin = self.scenario().clone();
        let buggy = toggles::is_buggy(&twin, toggle);
        toggles::set_buggy(&mut twin, toggle, !buggy);
        if let Ok(session) = Session::new(&twin) {
            self.compare = Some(Compare { toggle, session });
            let t = self.seek_target.unwrap_or(self.now());
            self.seek(t);
        }
    }

    fn add_node(&mut self, kind: NodeKind) {
        let mut next = self.draft.clone();
        match kind {
            NodeKind::Tikv => next.topology.stores += 1,
            NodeKind::Cdc => {
                next.topology.captures += 1;
                if next.changefeeds.is_empty() {
                    next.changefeeds.extend(new_changefeed(1));
                }
            }
            NodeKind::Mysql => {
                if next.topology.captures == 0 {
                    next.topology.captures = 1;
                }
                let n = next.changefeeds.len() + 1;
                next.changefeeds.extend(new_changefeed(n));
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

/// A changefeed `cf-<n>` to MySQL with every other field at its default. Built through the
/// parser so it stays right whatever fields the format grows.
fn new_changefeed(n: usize) -> Option<faultline_scenario::ChangefeedSpec> {
    let text = format!(
        "name = \"x\"\nduration = \"1m\"\n[topology]\ncaptures = 1\n[[changefeeds]]\nid = \"cf-{n}\"\n"
    );
    parse_scenario("new changefeed", &text)
        .ok()?
        .changefeeds
        .into_iter()
        .next()
}

#[cfg(test)]
mod tests {
    use super::*;
    use faultline_scenario::{gallery, FaultAction};

    fn clock() -> f64 {
        0.0
    }

    fn small() -> Scenario {
        gallery()
            .into_iter()
            .find(|e| e.file.starts_with("raft-basics"))
            .unwrap()
            .scenario
    }

    fn settle(pg: &mut Playground) {
        for _ in 0..10_000 {
            if pg.seek_target.is_none() && !pg.playing {
                return;
            }
            pg.apply(Action::Tick, &clock);
        }
    }

    #[test]
    fn a_link_with_a_cursor_opens_there_paused() {
        let s = small();
        let h = hash::format(&encode_link(&s), SimTime(30_000_000));
        let mut pg = Playground::from_hash(&h, None, false);
        assert!(pg.error.is_none());
        settle(&mut pg);
        assert_eq!(pg.now(), SimTime(30_000_000));
        assert_eq!(pg.status(), "paused");
        assert_eq!(pg.url_hash(), h);
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
        let mut pg = Playground::from_hash(&format!("#{}", encode_link(&s)), None, false);
        pg.apply(Action::Seek(SimTime(20_000_000)), &clock);
        settle(&mut pg);
        let f = pg.fault_now(FaultAction::Kill, "tikv-2");
        pg.apply(Action::AddFault(f), &clock);
        settle(&mut pg);
        assert_eq!(pg.scenario().faults.len(), s.faults.len() + 1);
        assert_eq!(pg.now(), SimTime(20_000_000));
        pg.apply(Action::AddNode(NodeKind::Tikv), &clock);
        assert_eq!(pg.scenario().topology.stores, s.topology.stores + 1);
        pg.apply(Action::Undo, &clock);
        pg.apply(Action::Undo, &clock);
        assert_eq!(pg.scenario(), &s);
        pg.apply(Action::Redo, &clock);
        assert_eq!(pg.scenario().faults.len(), s.faults.len() + 1);
        // An invalid edit keeps the run and reports the field.
        pg.apply(
            Action::Edit(std::rc::Rc::new(|s| s.topology.stores = 99)),
            &clock,
        );
        assert!(pg.problems.iter().any(|p| p.field.contains("stores")));
        assert_eq!(pg.scenario().topology.stores, s.topology.stores);
    }

    #[test]
    fn branch_and_switch_back() {
        let s = small();
        let mut pg = Playground::from_hash(&format!("#{}", encode_link(&s)), None, false);
        pg.apply(Action::Seek(SimTime(10_000_000)), &clock);
        settle(&mut pg);
        pg.apply(Action::BranchHere, &clock);
        let f = pg.fault_now(FaultAction::Pause, "tikv-3");
        pg.apply(Action::AddFault(f), &clock);
        settle(&mut pg);
        assert_eq!(pg.branches.len(), 2);
        pg.apply(Action::SwitchBranch(0), &clock);
        settle(&mut pg);
        assert_eq!(pg.scenario(), &s);
        assert_eq!(pg.now(), SimTime(10_000_000));
    }

    #[test]
    fn compare_runs_the_twin_on_the_same_cursor() {
        let s = small();
        let mut pg = Playground::from_hash(&format!("#{}", encode_link(&s)), None, false);
        pg.apply(Action::CompareOn(0), &clock);
        pg.apply(Action::Seek(SimTime(40_000_000)), &clock);
        settle(&mut pg);
        let c = pg.compare.as_ref().unwrap();
        assert_eq!(c.session.now(), pg.now());
        assert_ne!(
            toggles::is_buggy(&c.session.run.scenario, 0),
            toggles::is_buggy(pg.scenario(), 0)
        );
    }
}
