//! The state of one shrink (the property, the run budget, every candidate already tried) and
//! the one question every pass asks of it: does this candidate still fail the property?

use std::collections::BTreeMap;

use faultline_scenario::validate::validate;
use faultline_scenario::{encode_link, Scenario};

use crate::outcome::{check_scenario, Finding};

/// The state of one shrink: the property, the run budget, and every candidate already tried.
pub(crate) struct Shrinker {
    pub(crate) property: String,
    pub(crate) max_runs: u64,
    pub(crate) runs: u64,
    /// Link of each tried candidate -> how it failed the property, if it did.
    pub(crate) seen: BTreeMap<String, Option<Finding>>,
}

impl Shrinker {
    /// How `c` fails the property, or `None` if it is invalid, passes, fails otherwise, or
    /// the run budget is spent.
    pub(crate) fn fails(&mut self, c: &Scenario) -> Option<Finding> {
        let key = encode_link(c);
        if let Some(known) = self.seen.get(&key) {
            return known.clone();
        }
        if self.capped() || validate("candidate", c).is_err() {
            return None;
        }
        self.runs += 1;
        let found = check_scenario(c)
            .ok()
            .and_then(|o| o.findings.into_iter().find(|f| f.property == self.property));
        self.seen.insert(key, found.clone());
        found
    }

    pub(crate) fn capped(&self) -> bool {
        self.runs >= self.max_runs
    }
}
