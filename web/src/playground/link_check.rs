//! Links that check themselves, on the page: "Copy link" records the run at the cursor; an
//! opened link with a record is compared once the run reaches its cursor; compare mode asks
//! the engine where the two runs first differ. The words come from faultline_scenario::verify,
//! so the page and `faultline verify` say the same thing.

use std::cell::RefCell;

use faultline_scenario::{
    compare_records, decode_shared, encode_link, encode_shared, RunRecord, Verdict, Verification,
};
use faultline_sim::SimTime;

use super::toggles::{is_buggy, set_buggy};
use super::{hash, Playground};
use crate::engine::first_difference::DifferenceView;
use crate::engine::Command;

/// The link check of the opened link and compare mode's first difference.
#[derive(Clone, Debug, Default)]
pub struct LinkChecks {
    /// The opened link's record, if it had one.
    pub opened: Option<OpenedCheck>,
    /// True while the engine searches for the first difference.
    pub searching: bool,
    /// The engine's last answer.
    pub difference: Option<DifferenceView>,
}

/// What an opened link recorded, and the outcome once the run reached its cursor.
#[derive(Clone, Debug)]
pub struct OpenedCheck {
    /// The model version the link was shared with.
    pub model: u32,
    /// The record.
    pub record: RunRecord,
    /// The scenario's plain link: the check applies while the page runs this scenario.
    pub link: String,
    /// The outcome, kept once known (the cursor may move on afterwards).
    outcome: RefCell<Option<Verification>>,
}

impl LinkChecks {
    /// The checks for a page opened on `link` (a link without a record checks nothing).
    pub fn from_link(link: &str) -> LinkChecks {
        let opened = decode_shared(link).ok().and_then(|shared| {
            Some(OpenedCheck {
                model: shared.model_version.unwrap_or(0),
                record: shared.record?,
                link: encode_link(&shared.scenario),
                outcome: RefCell::new(None),
            })
        });
        LinkChecks {
            opened,
            ..LinkChecks::default()
        }
    }

    /// Where the opened link's record was taken: the page opens there (paused) even when the
    /// URL has no `&t=`, so the check can run.
    pub fn recorded_cursor(&self) -> Option<SimTime> {
        self.opened.as_ref().map(|o| o.record.cursor)
    }

    /// Takes the engine's answer.
    pub fn answered(&mut self, d: DifferenceView) {
        self.searching = false;
        self.difference = Some(d);
    }
}

/// Where the banner stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckState {
    /// Replaying to the recorded cursor.
    Replaying(SimTime),
    /// Compared.
    Done(Verification),
}

/// The banner's state, or None when the page runs no self-checking link.
pub fn check_state(pg: &Playground) -> Option<CheckState> {
    let opened = pg.checks.opened.as_ref()?;
    if let Some(v) = opened.outcome.borrow().as_ref() {
        return Some(CheckState::Done(v.clone()));
    }
    if opened.link != pg.link {
        return None;
    }
    let at_cursor = pg.seek_target().is_none()
        && pg.frame.seek_target_us.is_none()
        && pg.frame.now_us == opened.record.cursor.as_micros();
    if !at_cursor {
        return Some(CheckState::Replaying(opened.record.cursor));
    }
    let names: Vec<String> = pg
        .frame
        .expectations
        .rows
        .iter()
        .map(|r| r.name.clone())
        .collect();
    let v = compare_records(opened.model, &opened.record, &page_record(pg), &names);
    *opened.outcome.borrow_mut() = Some(v.clone());
    Some(CheckState::Done(v))
}

/// What the page shows at its cursor, as a link records it.
fn page_record(pg: &Playground) -> RunRecord {
    let verdict = |name: &str| match name {
        "pass" => Verdict::Pass,
        "fail" => Verdict::Fail,
        _ => Verdict::Pending,
    };
    RunRecord {
        cursor: SimTime(pg.frame.now_us),
        trace_hash: pg.trace_hash(),
        verdicts: pg
            .frame
            .expectations
            .rows
            .iter()
            .map(|r| verdict(&r.verdict))
            .collect(),
    }
}

/// The URL hash "Copy link" copies: the scenario, the cursor, and the run there (trace hash and
/// verdicts), so whoever opens it learns whether it reproduced. While a seek is under way the
/// frame is not at the cursor yet, so the link goes without a record rather than a wrong one.
pub fn checked_url_hash(pg: &Playground) -> String {
    if pg.seek_target().is_some() || pg.frame.seek_target_us.is_some() {
        return pg.url_hash();
    }
    let record = page_record(pg);
    hash::format(&encode_shared(pg.scenario(), Some(&record)), record.cursor)
}

/// The twin's link in compare mode: the scenario with the compared toggle flipped.
pub fn twin_link(pg: &Playground) -> Option<String> {
    let toggle = pg.compare?;
    let mut twin = pg.scenario().clone();
    let buggy = is_buggy(&twin, toggle);
    set_buggy(&mut twin, toggle, !buggy);
    Some(encode_link(&twin))
}

/// Asks the engine for the first difference between the run and its compare twin.
pub fn ask_first_difference(pg: &mut Playground) {
    let Some(b) = twin_link(pg) else {
        return;
    };
    pg.checks.searching = true;
    pg.checks.difference = None;
    let a = pg.link.clone();
    pg.send(Command::FirstDifference { a, b }, false);
}

/// The answer for the runs on the page now (an answer for an earlier pair is stale).
pub fn current_difference(pg: &Playground) -> Option<&DifferenceView> {
    let d = pg.checks.difference.as_ref()?;
    (d.a == pg.link && Some(&d.b) == twin_link(pg).as_ref()).then_some(d)
}

#[cfg(test)]
#[path = "link_check_tests.rs"]
mod tests;
