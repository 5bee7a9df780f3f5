//! Makes a shrunk scenario say what it is: its name and description name the scenario it was
//! shrunk from, and expectations that no longer hold on it are dropped, so a reader of the
//! link is not told the scenario checks things it fails for reasons it does not explain.

use faultline_scenario::limits::{MAX_NAME_CHARS, MAX_TEXT_CHARS};
use std::panic::{catch_unwind, AssertUnwindSafe};

use faultline_scenario::{Run, Scenario, Verdict};

use crate::outcome::Finding;
use crate::property::expect;

/// Longest original description kept in the shrunk one; the rest is elided.
const DESCRIPTION_KEPT_CHARS: usize = 400;

/// Each expectation's verdict on a full run of `s`; none if it cannot be built or panics (a
/// `panic` being shrunk), so every expectation but the shrunk one counts as not holding.
pub fn verdicts(s: &Scenario) -> Vec<Verdict> {
    catch_unwind(AssertUnwindSafe(|| {
        let mut run = Run::new(s).ok()?;
        run.run_to_end();
        Some(run.evaluate().into_iter().map(|r| r.verdict).collect())
    }))
    .ok()
    .flatten()
    .unwrap_or_default()
}

/// `shrunk` renamed and described after `original`, with the expectations that failed on its
/// final run (`verdicts[i]` for expectation `i`; `None` keeps them all) dropped, except the
/// one being shrunk.
/// `finding` is renamed when that expectation moves to a new index.
pub fn relabel(
    original: &Scenario,
    mut shrunk: Scenario,
    finding: &mut Finding,
    verdicts: Option<&[Verdict]>,
) -> Scenario {
    let target = expect::index_of(original, &finding.property)
        .filter(|_| finding.property.starts_with("expect["));
    let mut kept = Vec::new();
    let mut dropped = Vec::new();
    for (i, e) in shrunk.expect.drain(..).enumerate() {
        // Without verdicts (no run left in the budget) every expectation is kept.
        let holds = verdicts.is_none_or(|v| v.get(i) == Some(&Verdict::Pass));
        if holds || Some(i) == target {
            if Some(i) == target {
                finding.property = expect::name(kept.len());
            }
            kept.push(e);
        } else {
            dropped.push(if e.name.is_empty() {
                expect::name(i)
            } else {
                e.name
            });
        }
    }
    shrunk.expect = kept;
    // The guide narrates the original fault script, which is gone.
    let had_guide = !shrunk.guide.is_empty();
    shrunk.guide.clear();
    const SUFFIX: &str = " (shrunk)";
    let stem: String = original
        .name
        .chars()
        .take(MAX_NAME_CHARS - SUFFIX.len())
        .collect();
    shrunk.name = format!("{stem}{SUFFIX}");
    let text = description(original, &shrunk, &finding.property, &dropped, had_guide);
    shrunk.description = text.chars().take(MAX_TEXT_CHARS).collect();
    shrunk
}

fn description(
    original: &Scenario,
    shrunk: &Scenario,
    property: &str,
    dropped: &[String],
    had_guide: bool,
) -> String {
    let mut text = format!(
        "Shrunk by `faultline shrink` from \"{}\" (seed {}, {} faults, {}) while `{property}` kept failing: {} faults, {}.",
        original.name,
        original.seed,
        original.faults.len(),
        original.duration,
        shrunk.faults.len(),
        shrunk.duration,
    );
    if !dropped.is_empty() {
        text.push_str(&format!(
            " Dropped the expectations that no longer hold: {}.",
            dropped.join(", ")
        ));
    }
    if had_guide {
        text.push_str(" Dropped the guide: it narrates the original fault script.");
    }
    let before: String = original
        .description
        .chars()
        .take(DESCRIPTION_KEPT_CHARS)
        .collect();
    if !before.trim().is_empty() {
        let more = if before.len() < original.description.len() {
            "…"
        } else {
            ""
        };
        text.push_str(&format!(
            "\n\nThe original's description: {}{more}",
            before.trim()
        ));
    }
    text
}
