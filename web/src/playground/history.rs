//! Undo and redo of scenario edits: two stacks of whole scenarios (they are small).

use faultline_scenario::Scenario;

/// Most edits remembered.
const DEPTH: usize = 100;

/// Past and undone scenarios.
#[derive(Clone, Default)]
pub struct History {
    undo: Vec<Scenario>,
    redo: Vec<Scenario>,
}

impl History {
    /// Records `before` as the state an edit replaced; a new edit forgets the redo stack.
    pub fn record(&mut self, before: Scenario) {
        self.undo.push(before);
        if self.undo.len() > DEPTH {
            self.undo.remove(0);
        }
        self.redo.clear();
    }

    /// The scenario to go back to, given the current one.
    pub fn undo(&mut self, current: Scenario) -> Option<Scenario> {
        let prev = self.undo.pop()?;
        self.redo.push(current);
        Some(prev)
    }

    /// The scenario to go forward to, given the current one.
    pub fn redo(&mut self, current: Scenario) -> Option<Scenario> {
        let next = self.redo.pop()?;
        self.undo.push(current);
        Some(next)
    }

    /// From saved stacks, oldest first (a restored session).
    pub fn from_stacks(undo: Vec<Scenario>, redo: Vec<Scenario>) -> History {
        History { undo, redo }
    }

    /// The undo and redo stacks, oldest first (to save the session).
    pub fn stacks(&self) -> (&[Scenario], &[Scenario]) {
        (&self.undo, &self.redo)
    }

    /// Whether undo / redo have anything.
    pub fn can(&self) -> (bool, bool) {
        (!self.undo.is_empty(), !self.redo.is_empty())
    }
}
