//! Branches: runs kept side by side, each with the cursor and trace hash it was left at.

use faultline_scenario::{encode_link, Scenario};
use faultline_sim::SimTime;

use super::history::History;
use super::Playground;
use crate::engine::Command;

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

impl Branch {
    /// The first branch of a freshly opened scenario.
    pub fn main(scenario: &Scenario) -> Branch {
        Branch {
            label: "main".into(),
            scenario: scenario.clone(),
            cursor: SimTime(0),
            hash: 0,
        }
    }
}

impl Playground {
    pub(super) fn branch_here(&mut self) {
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
        // The undo history stays: the branch starts from the scenario those edits made, so
        // undoing in it walks back through them as it did before branching.
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

    pub(super) fn switch_branch(&mut self, i: usize) {
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
}
