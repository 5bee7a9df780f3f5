//! What a reload must not lose: compare mode, the branches, undo history and the open tab.
//! The page writes it to the tab's sessionStorage (one store per browser tab, so two tabs on
//! the same page never overwrite each other) and reads it back on load. It is restored only
//! when the address still holds the same scenario: a link opened in the tab wins over what
//! the tab did before. Unreadable saved state is ignored with a notice, never a blank page.

use faultline_scenario::{decode_link, encode_link, Scenario};
use faultline_sim::SimTime;
use serde::{Deserialize, Serialize};

use super::branches::Branch;
use super::history::History;
use super::Playground;
use crate::engine::ViewTab;

/// sessionStorage key of the saved session.
pub const SESSION_KEY: &str = "faultline.session";

/// Bumped when the saved form changes; an older form is ignored (with a notice).
const FORMAT: u32 = 1;

/// A branch as saved: its scenario as a link.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct SavedBranch {
    label: String,
    link: String,
    cursor_us: u64,
    hash: u64,
}

/// The saved session: every scenario as a link (compact, and versioned by the link codec).
#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct SavedSession {
    format: u32,
    /// The running scenario; restore only if the address still opens it.
    link: String,
    compare: Option<usize>,
    tab: ViewTab,
    branches: Vec<SavedBranch>,
    active: usize,
    undo: Vec<String>,
    redo: Vec<String>,
}

fn links(scenarios: &[Scenario]) -> Vec<String> {
    scenarios.iter().map(encode_link).collect()
}

fn scenarios(links: &[String], what: &str) -> Result<Vec<Scenario>, String> {
    links
        .iter()
        .map(|l| decode_link(l).map_err(|e| format!("{what}: {e}")))
        .collect()
}

impl Playground {
    /// The session as text for sessionStorage.
    pub fn saved_session(&self) -> String {
        let (undo, redo) = self.history.stacks();
        let saved = SavedSession {
            format: FORMAT,
            link: self.link.clone(),
            compare: self.compare,
            tab: self.views.tab,
            branches: self
                .branches
                .iter()
                .map(|b| SavedBranch {
                    label: b.label.clone(),
                    link: encode_link(&b.scenario),
                    cursor_us: b.cursor.as_micros(),
                    hash: b.hash,
                })
                .collect(),
            active: self.active,
            undo: links(undo),
            redo: links(redo),
        };
        to_text(&saved)
    }

    /// Restores a session saved by [`Playground::saved_session`] on a page just opened, if it
    /// was saved on the scenario the address opens. Bad text leaves the page as opened and
    /// says so in the notice.
    pub fn restore_session(&mut self, text: &str) {
        match self.try_restore(text) {
            Ok(true) => {
                let cursor = self.engine.pending_cursor.unwrap_or(SimTime(0));
                // Nothing was sent yet: replace the first load with one that has the twin.
                self.engine.outbox.clear();
                self.load(cursor, Some(false));
            }
            Ok(false) => {}
            Err(e) => {
                self.notice = Some(format!(
                    "This tab's saved session (compare mode, branches, undo) could not be read, so the page opened without it: {e}."
                ))
            }
        }
    }

    fn try_restore(&mut self, text: &str) -> Result<bool, String> {
        let saved = from_hex(text)
            .and_then(|bytes| bincode::deserialize::<SavedSession>(&bytes).ok())
            .ok_or("it is cut short or not from this page")?;
        if saved.format != FORMAT {
            return Err(format!(
                "it has format {} (this page reads {FORMAT})",
                saved.format
            ));
        }
        if saved.link != self.link || self.error.is_some() {
            return Ok(false);
        }
        let mut branches = Vec::with_capacity(saved.branches.len());
        for b in &saved.branches {
            branches.push(Branch {
                label: b.label.clone(),
                scenario: decode_link(&b.link).map_err(|e| format!("branch {}: {e}", b.label))?,
                cursor: SimTime(b.cursor_us),
                hash: b.hash,
            });
        }
        if saved.active >= branches.len() {
            return Err(format!("its active branch {} does not exist", saved.active));
        }
        if saved
            .compare
            .is_some_and(|c| c >= crate::toggles::BUGS.len())
        {
            return Err("it compares a bug this page does not model".into());
        }
        let undo = scenarios(&saved.undo, "an undo step")?;
        let redo = scenarios(&saved.redo, "a redo step")?;
        self.branches = branches;
        self.active = saved.active;
        self.history = History::from_stacks(undo, redo);
        self.compare = saved.compare;
        self.views.tab = saved.tab;
        Ok(true)
    }
}

/// The session as hex text of its bincode bytes (sessionStorage holds strings).
fn to_text(saved: &SavedSession) -> String {
    let bytes = bincode::serialize(saved).unwrap_or_default();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Hex text (sessionStorage holds strings) back to bytes.
fn from_hex(text: &str) -> Option<Vec<u8>> {
    let text = text.trim();
    if !text.len().is_multiple_of(2) || !text.is_ascii() {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).ok())
        .collect()
}

/// Reads the tab's saved session (none outside a browser).
pub fn load_from_tab() -> Option<String> {
    let s = web_sys::window()?.session_storage().ok()??;
    s.get_item(SESSION_KEY).ok()?
}

/// Writes the tab's saved session (best effort: a full store keeps the older one).
pub fn save_to_tab(text: &str) {
    if let Some(Ok(Some(s))) = web_sys::window().map(|w| w.session_storage()) {
        let _ = s.set_item(SESSION_KEY, text);
    }
}

#[cfg(test)]
#[path = "saved_session_tests.rs"]
mod tests;
