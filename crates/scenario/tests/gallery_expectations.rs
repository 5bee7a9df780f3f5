//! Every gallery scenario passes its own expectations and every claim of its guided tour.
//!
//! The app shows these verdicts beside the run and the tour's captions rest on the claims, so a
//! model change that makes one of them false must fail here, not only in `faultline check` run
//! by hand. (The browser tests check that the page shows the same verdicts.)

use faultline_scenario::{gallery, Run};

/// How many expectations and claims one gallery scenario has, and what failed among them,
/// one line each.
fn judge(file: &str, run: &Run) -> (usize, Vec<String>) {
    let expectations = run.evaluate();
    let claims = run.evaluate_guide();
    let judged = expectations.len() + claims.len();
    let failed_expectations = expectations
        .into_iter()
        .filter(|e| !e.passed())
        .map(|e| format!("{file}: expect {:?}: observed {:?}", e.name, e.observed));
    let failed_claims = claims.into_iter().filter(|c| !c.result.passed()).map(|c| {
        format!(
            "{file}: guide step {} claim {:?}: observed {:?}",
            c.step, c.result.name, c.result.observed
        )
    });
    (judged, failed_expectations.chain(failed_claims).collect())
}

#[test]
fn every_gallery_scenario_passes_its_expectations_and_its_tour_claims() {
    let mut failed = Vec::new();
    let mut judged = 0;
    for entry in gallery() {
        let mut run = Run::new(&entry.scenario).expect("a gallery scenario builds");
        run.run_to_end();
        let (n, failures) = judge(entry.file, &run);
        judged += n;
        failed.extend(failures);
    }
    assert!(judged > 100, "only {judged} expectations and claims judged");
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
