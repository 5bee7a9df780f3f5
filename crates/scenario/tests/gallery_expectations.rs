//! Every gallery scenario passes its own expectations and every claim of its guided tour.
//!
//! The app shows these verdicts beside the run and the tour's captions rest on the claims, so a
//! model change that makes one of them false must fail here, not only in `faultline check` run
//! by hand. (The browser tests check that the page shows the same verdicts.)

use faultline_scenario::{gallery, Run};

/// What failed in one gallery scenario, one line per expectation or claim.
fn failures_of(file: &str, run: &Run) -> Vec<String> {
    let expectations = run
        .evaluate()
        .into_iter()
        .filter(|e| !e.passed())
        .map(|e| format!("{file}: expect {:?}: observed {:?}", e.name, e.observed));
    let claims = run
        .evaluate_guide()
        .into_iter()
        .filter(|c| !c.result.passed())
        .map(|c| {
            format!(
                "{file}: guide step {} claim {:?}: observed {:?}",
                c.step, c.result.name, c.result.observed
            )
        });
    expectations.chain(claims).collect()
}

#[test]
fn every_gallery_scenario_passes_its_expectations_and_its_tour_claims() {
    let mut failed = Vec::new();
    let mut judged = 0;
    for entry in gallery() {
        let mut run = Run::new(&entry.scenario).expect("a gallery scenario builds");
        run.run_to_end();
        judged += run.evaluate().len() + run.evaluate_guide().len();
        failed.extend(failures_of(entry.file, &run));
    }
    assert!(judged > 100, "only {judged} expectations and claims judged");
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
