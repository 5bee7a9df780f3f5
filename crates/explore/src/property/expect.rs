//! `expect[i]`: each `[[expect]]` of the scenario, as a property.

use faultline_scenario::{ExpectResult, Run, Scenario, Verdict};

/// The property name of expectation `i`.
pub fn name(i: usize) -> String {
    format!("expect[{i}]")
}

/// Resolves `expect[i]` or an expectation's own name to its index.
pub fn index_of(s: &Scenario, property: &str) -> Option<usize> {
    let by_index = property
        .strip_prefix("expect[")
        .and_then(|r| r.strip_suffix(']'))
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|i| *i < s.expect.len());
    by_index.or_else(|| {
        s.expect
            .iter()
            .position(|e| !e.name.is_empty() && e.name == property)
    })
}

/// `(property name, failure)` for every expectation that did not pass.
pub fn failures(run: &Run) -> Vec<(String, String)> {
    run.evaluate()
        .into_iter()
        .filter(|r| r.verdict != Verdict::Pass)
        .map(|r| (name(r.index), describe(&r)))
        .collect()
}

fn describe(r: &ExpectResult) -> String {
    let observed = r
        .observed
        .map(|v| format!("observed {v}"))
        .unwrap_or_else(|| "no sample".into());
    if r.name == r.check {
        format!("{} ({observed})", r.check)
    } else {
        format!("{}: {} ({observed})", r.name, r.check)
    }
}
