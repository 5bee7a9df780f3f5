//! Everything the user (or the page's timer) can ask the playground to do.

use std::rc::Rc;

use faultline_scenario::{FaultSpec, Scenario};
use faultline_sim::SimTime;

use super::topology::NodeKind;
pub use crate::engine::Speed;

/// An edit of the scenario, as a function so every editor can say what it changes.
pub type Edit = Rc<dyn Fn(&mut Scenario)>;

/// What can happen to the playground.
#[derive(Clone)]
pub enum Action {
    /// The engine (in the worker) reports the runs at its cursor.
    Frame(Box<crate::engine::Frame>),
    /// The engine (in the worker) crashed: the panic message and its last cursor (µs).
    EngineCrashed(String, u64),
    /// Start, stop or shrink in the Explore panel (run by the engine).
    Explore(crate::engine::ExploreCmd),
    /// The worker said it loaded ([`crate::engine::FromEngine::Ready`]).
    EngineReady,
    /// The page's watchdog: the worker has not said it loaded within
    /// [`crate::playground::WORKER_START_MS`].
    EngineSilent,
    /// The views panel shows another tab or parameters.
    Views(crate::engine::ViewRequest),
    /// Play / pause.
    TogglePlay,
    /// Pause.
    Pause,
    /// Change the speed (and play).
    SetSpeed(Speed),
    /// Process one event.
    StepEvent,
    /// Process events until the named node handles a message or a tick.
    StepToNode(String),
    /// Move the cursor by a signed number of microseconds.
    Nudge(i64),
    /// Move the cursor to a time (rewinding through snapshots if needed).
    Seek(SimTime),
    /// Keep the current run as a branch and continue in a copy.
    BranchHere,
    /// Switch to another branch.
    SwitchBranch(usize),
    /// Open a scenario (gallery, import); starts at t = 0 and plays.
    Open {
        /// The scenario.
        scenario: Box<Scenario>,
        /// The shipped file, when it came from the gallery.
        file: Option<&'static str>,
    },
    /// Import a TOML file (name, text): the worker parses it.
    ImportToml(String, String),
    /// The worker's answer to a TOML import or export.
    Toml(crate::engine::TomlAnswer),
    /// A URL hash pasted into the address bar.
    LoadHash(String),
    /// Open the scenario autosaved before this page loaded.
    OpenAutosave,
    /// Jump to guide step `n` and show its caption.
    GuideTo(super::GuideStop),
    /// Leave the guide for free play.
    LeaveGuide,
    /// Change the scenario (validated; the run rebuilds from t = 0 and returns to the cursor).
    Edit(Edit),
    /// Throw away an invalid draft.
    DiscardDraft,
    /// Undo the last edit.
    Undo,
    /// Redo.
    Redo,
    /// Add a fault.
    AddFault(FaultSpec),
    /// Replace fault `i`.
    UpdateFault(usize, FaultSpec),
    /// Delete fault `i`.
    RemoveFault(usize),
    /// Select a fault on the timeline.
    SelectFault(Option<usize>),
    /// Select a node (inspector, context menu).
    SelectNode(Option<String>),
    /// Open the context menu of a node.
    ContextMenu(Option<String>),
    /// Place a node on the editor canvas.
    MoveNode(String, f64, f64),
    /// Add a node of a kind.
    AddNode(NodeKind),
    /// Remove a node.
    RemoveNode(String),
    /// Compare with toggle `i` flipped.
    CompareOn(usize),
    /// Leave compare mode.
    CompareOff,
    /// Compare mode: ask the engine where the two runs first differ.
    FindFirstDifference,
    /// The engine's answer.
    FirstDifference(crate::engine::first_difference::DifferenceView),
    /// Show / hide the help overlay.
    ToggleHelp,
    /// Show a short message (e.g. "Link copied").
    Notice(String),
    /// Hide the error box.
    DismissError,
}
