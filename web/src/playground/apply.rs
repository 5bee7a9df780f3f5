//! Which action does what. [`Playground::apply`] routes each action to the part of the
//! playground it concerns: the engine's reports, the clock, the document (edits, imports,
//! links), branches and compare, the guide, and the page's chrome (selection, menus, help).

use faultline_scenario::decode_link;
use faultline_sim::SimTime;

use super::{hash, link_check, Action, Playground, WORKER_MISSING};
use crate::engine::{Command, TomlAnswer, TomlCmd};

impl Playground {
    /// Applies one action. Returns false when nothing visible changed, so the page can skip
    /// a render. Commands for the engine collect in [`EngineLink::outbox`](super::EngineLink::outbox).
    pub fn apply(&mut self, action: Action) -> bool {
        if !matches!(
            action,
            Action::Frame(_)
                | Action::Views(_)
                | Action::Toml(TomlAnswer::Exported { .. })
                // The worker reporting in is no reason to hide what the page said on load.
                | Action::EngineReady
                | Action::EngineSilent
        ) {
            self.notice = None;
        }
        match action {
            a @ (Action::Frame(_)
            | Action::EngineCrashed(..)
            | Action::EngineReady
            | Action::EngineSilent
            | Action::Explore(_)
            | Action::FindFirstDifference
            | Action::FirstDifference(_)
            | Action::Views(_)) => self.apply_engine(a),
            a @ (Action::TogglePlay
            | Action::Pause
            | Action::SetSpeed(_)
            | Action::StepEvent
            | Action::StepToNode(_)
            | Action::Nudge(_)
            | Action::Seek(_)
            | Action::GuideTo(_)
            | Action::LeaveGuide) => self.apply_clock(a),
            a @ (Action::Open { .. }
            | Action::ImportToml(..)
            | Action::Toml(_)
            | Action::LoadHash(_)
            | Action::OpenAutosave) => self.apply_open(a),
            a @ (Action::Edit(_)
            | Action::DiscardDraft
            | Action::Undo
            | Action::Redo
            | Action::AddFault(_)
            | Action::UpdateFault(..)
            | Action::RemoveFault(_)
            | Action::AddNode(_)
            | Action::RemoveNode(_)) => self.apply_edit(a),
            a => self.apply_chrome(a),
        }
    }

    /// The engine's reports and requests to it.
    fn apply_engine(&mut self, action: Action) -> bool {
        match action {
            Action::Frame(f) => self.on_frame(*f),
            // Only the first report says what went wrong.
            Action::EngineCrashed(..) if self.crashed => return false,
            Action::EngineCrashed(message, at_us) => self.on_crash(&message, at_us),
            Action::EngineReady => self.on_engine_ready(),
            Action::EngineSilent if self.engine_ready || self.crashed => return false,
            Action::EngineSilent => {
                self.engine_missing = true;
                self.error = Some(WORKER_MISSING.to_string());
            }
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
            _ => unreachable!("apply routes only engine actions here"),
        }
        true
    }

    /// The worker loaded; if the watchdog had given up on it (a slow network), take back
    /// what it said.
    fn on_engine_ready(&mut self) {
        self.engine_ready = true;
        if std::mem::take(&mut self.engine_missing) && self.error.as_deref() == Some(WORKER_MISSING)
        {
            self.error = None;
        }
    }

    fn on_crash(&mut self, message: &str, at_us: u64) {
        self.crashed = true;
        self.playing = false;
        self.error = Some(format!(
            "The simulation crashed at about {}: {message}\nRepro link (copy it into a bug report; it plays to the crash): {}#{}\nReload the page to continue.",
            crate::format::sim_time(SimTime(at_us)),
            crate::dom::base_url(),
            self.link
        ));
    }

    /// Playback, stepping, seeking and the guide's jumps.
    fn apply_clock(&mut self, action: Action) -> bool {
        match action {
            Action::TogglePlay => {
                if self.now() >= self.end() && !self.playing {
                    self.engine.pending_cursor = Some(SimTime(0));
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
            Action::GuideTo(stop) => self.guide_to(stop),
            Action::LeaveGuide => self.guide = None,
            _ => unreachable!("apply routes only clock actions here"),
        }
        true
    }

    /// Opening another scenario: from the gallery, a TOML import, a pasted link, the autosave.
    fn apply_open(&mut self, action: Action) -> bool {
        match action {
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
            Action::LoadHash(h) => return self.load_hash(&h),
            Action::OpenAutosave => {
                if let Some(s) = self.autosaved.clone() {
                    self.open(s, None);
                    self.error = None;
                }
            }
            _ => unreachable!("apply routes only opening actions here"),
        }
        true
    }

    /// A link pasted into the address bar: a new playground that keeps the page's layout,
    /// the engine's numbering and the Explore panel.
    fn load_hash(&mut self, h: &str) -> bool {
        if hash::parse(h).link == self.link {
            return false;
        }
        let autosaved = self.autosaved.take();
        let mut next = Playground::from_hash_after(
            h,
            autosaved,
            self.embed,
            self.engine.seq,
            self.views.clone(),
        );
        next.frame = std::mem::take(&mut self.frame);
        next.selection.positions = std::mem::take(&mut self.selection.positions);
        next.explore = std::mem::take(&mut self.explore);
        // The worker is the page's, not the scenario's: once it reported in, the start
        // watchdog (still pending when a link is pasted early) must not call it missing.
        next.engine_ready = self.engine_ready;
        *self = next;
        true
    }

    /// Edits of the scenario, with undo and redo.
    fn apply_edit(&mut self, action: Action) -> bool {
        let mut next = self.draft.clone();
        match action {
            Action::Edit(f) => f(&mut next),
            Action::DiscardDraft => {
                self.draft = self.scenario().clone();
                self.problems.clear();
                return true;
            }
            Action::Undo => {
                if let Some(prev) = self.history.undo(self.scenario().clone()) {
                    self.replace(prev);
                }
                return true;
            }
            Action::Redo => {
                if let Some(next) = self.history.redo(self.scenario().clone()) {
                    self.replace(next);
                }
                return true;
            }
            Action::AddFault(f) => {
                next.faults.push(f);
                next.faults.sort_by_key(|f| f.at);
            }
            Action::UpdateFault(i, f) => {
                if let Some(slot) = next.faults.get_mut(i) {
                    *slot = f;
                }
            }
            Action::RemoveFault(i) => {
                if i < next.faults.len() {
                    next.faults.remove(i);
                }
                self.selection.fault = None;
            }
            Action::AddNode(kind) => {
                self.add_node(kind);
                return true;
            }
            Action::RemoveNode(name) => {
                self.remove_node(&name);
                return true;
            }
            _ => unreachable!("apply routes only edit actions here"),
        }
        self.commit(next);
        true
    }

    /// Branches, compare mode, selection, menus, help and messages.
    fn apply_chrome(&mut self, action: Action) -> bool {
        match action {
            Action::BranchHere => self.branch_here(),
            Action::SwitchBranch(i) => self.switch_branch(i),
            Action::CompareOn(toggle) => {
                self.compare = Some(toggle);
                self.send(Command::Compare(Some(toggle)), true);
            }
            Action::CompareOff => {
                self.compare = None;
                self.send(Command::Compare(None), true);
            }
            Action::SelectFault(i) => self.selection.fault = i,
            Action::SelectNode(n) => {
                self.selection.node = n;
                self.selection.menu = None;
            }
            Action::ContextMenu(n) => self.selection.menu = n,
            Action::MoveNode(name, x, y) => {
                self.selection.positions.insert(name, (x, y));
            }
            Action::ToggleHelp => self.help_open = !self.help_open,
            Action::Notice(n) => self.notice = Some(n),
            Action::DismissError => self.error = None,
            _ => unreachable!("apply routes every other action earlier"),
        }
        true
    }
}
