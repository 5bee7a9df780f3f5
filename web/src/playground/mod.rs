//! The playground's state and rules, with no Yew or DOM in sight: which scenario runs, where
//! the cursor is, playback, branches, compare mode, edits with undo/redo, guided steps.
//! `crate::state` wraps it in a Yew reducer; components only read it and send [`Action`]s.
//!
//! The runs themselves live in the engine (`crate::engine`, a Web Worker in the browser):
//! the playground sends it commands through [`EngineLink::outbox`] and shows the latest
//! [`Frame`] it reported. Edits, branches, undo and selection stay here. The playground
//! depends on the engine's protocol, never the other way round.
//!
//! Where to look: `engine_link` (commands out, frames in, the `seeking` rule), `apply` (which
//! action does what), `document` (opening and editing the scenario, undo), `branches`.

pub mod action;
mod apply;
mod branches;
mod document;
mod engine_link;
pub mod fault_lanes;
mod guide;
pub mod hash;
pub mod history;
pub mod link_check;
#[cfg(test)]
pub mod local;
pub mod node_edit;
pub mod report;
pub mod saved_session;
pub mod selection;
pub mod timeline;
pub mod topology;

use faultline_scenario::{
    decode_link, encode_link, validate::validate, Dur, FaultSpec, Problem, Scenario, ScenarioError,
};
use faultline_sim::SimTime;

pub use action::{Action, Speed};
pub use branches::Branch;
pub use engine_link::EngineLink;
pub use guide::{GuideNav, GuideStop, StepView};
use history::History;
pub use selection::Selection;

use crate::engine::{ExploreView, Frame, ViewRequest};
use crate::gallery::{default_scenario, DEFAULT_SCENARIO_FILE};
/// Kept under its old path: the issue report and older code name `playground::toggles`.
pub use crate::toggles;

/// The whole playground.
pub struct Playground {
    /// The running scenario (what the engine was last told to run).
    pub(crate) running: Scenario,
    /// The latest report from the engine.
    pub frame: Frame,
    /// The engine protocol's state: commands queued and which of them frames acknowledged.
    pub engine: EngineLink,
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
    /// The worker said it loaded.
    pub engine_ready: bool,
    /// The watchdog fired before the worker said it loaded (status `no worker`).
    pub engine_missing: bool,
    /// A short confirmation ("Link copied").
    pub notice: Option<String>,
    /// The scenario autosaved by an earlier visit, offered when a link fails.
    pub autosaved: Option<Scenario>,
    /// Read-only autoplaying embed.
    pub embed: bool,
    /// What the user picked on the page (fault, node, its menu, editor positions).
    pub selection: Selection,
    /// Help overlay open.
    pub help_open: bool,
    /// Bumped on every edit, so the page knows to autosave.
    pub edits: u64,
    /// The run's scenario as a link (`v1.…`), kept to avoid re-encoding per frame.
    pub link: String,
    /// What the views panel shows (resent with every load).
    pub(crate) views: ViewRequest,
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

/// How long the page waits for the worker to say it loaded before telling the user. The
/// release worker's script and WebAssembly arrive in about a second on a normal connection;
/// if they arrive later still, the message goes away.
pub const WORKER_START_MS: u32 = 6_000;

/// What the page says when the worker has not loaded in time.
pub const WORKER_MISSING: &str = "The simulation worker has not started: its script (faultline-worker.js) or its WebAssembly did not load, so nothing can run.\nCheck the connection and reload the page. (On a very slow connection it may still arrive; this message then goes away.)";

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
        let (scenario, file, error) = scenario_of_link(&h.link);
        let mut pg = Playground::fresh(scenario, file, seq, views);
        pg.error = error;
        pg.autosaved = autosaved;
        pg.embed = embed;
        pg.checks = link_check::LinkChecks::from_link(&h.link);
        // A scenario opens paused, at the link's cursor or at 0, so nothing has happened
        // before the reader looks (a guided tour starts at its first step, not at step 4).
        // Only the read-only embed plays by itself.
        pg.playing = embed;
        // A self-checking link opens at its recorded cursor, so the check can run.
        let cursor = match (h.cursor.or(pg.checks.recorded_cursor()), &pg.error) {
            (Some(t), None) => Some(t.min(pg.end())),
            _ => None,
        };
        pg.load(cursor.unwrap_or(SimTime(0)), Some(pg.playing));
        pg
    }

    /// A playground on `scenario` with nothing sent to the engine yet.
    fn fresh(
        scenario: Scenario,
        file: Option<&'static str>,
        seq: u64,
        views: ViewRequest,
    ) -> Playground {
        Playground {
            branches: vec![Branch::main(&scenario)],
            frame: Frame {
                end_us: scenario.duration.to_time().as_micros(),
                ..Frame::default()
            },
            running: scenario.clone(),
            engine: EngineLink::after(seq),
            link: encode_link(&scenario),
            file,
            draft: scenario,
            problems: Vec::new(),
            history: History::default(),
            active: 0,
            compare: None,
            playing: true,
            speed: Speed::Max,
            guide: None,
            error: None,
            crashed: false,
            engine_ready: false,
            engine_missing: false,
            notice: None,
            autosaved: None,
            embed: false,
            selection: Selection::default(),
            help_open: false,
            edits: 0,
            views,
            explore: ExploreView::default(),
            importing: None,
            exported: None,
            checks: link_check::LinkChecks::default(),
        }
    }

    /// The running scenario.
    pub fn scenario(&self) -> &Scenario {
        &self.running
    }

    /// The cursor: the one asked for until the engine confirms it, then the engine's.
    pub fn now(&self) -> SimTime {
        self.engine
            .pending_cursor
            .unwrap_or(SimTime(self.frame.now_us))
    }

    /// Where a seek is heading, if the engine is still catching up.
    pub fn seek_target(&self) -> Option<SimTime> {
        self.engine
            .pending_cursor
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

    /// `running`, `seeking`, `paused`, `finished`, `crashed` or `no worker` (the e2e tests
    /// wait for these).
    pub fn status(&self) -> &'static str {
        if self.crashed {
            "crashed"
        } else if self.engine_missing {
            "no worker"
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

    /// A fault at the cursor (for "apply now").
    pub fn fault_now(&self, action: faultline_scenario::FaultAction, target: &str) -> FaultSpec {
        FaultSpec::new(Dur(self.now().as_micros()), action, target)
    }
}

/// The scenario a link opens, the gallery file it came from, and why it could not be
/// opened (then the default scenario is shown instead).
fn scenario_of_link(link: &str) -> (Scenario, Option<&'static str>, Option<String>) {
    if link.is_empty() {
        return (default_scenario(), Some(DEFAULT_SCENARIO_FILE), None);
    }
    match decode_link(link)
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
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod toml_tests;
