//! tikv#14547 at the report's size (4 stores, 256,000 regions), buggy and fixed, with every
//! expectation and every tour caption's claim of both files, and the Raft invariants checked
//! on every step.
//!
//! A debug build takes minutes per run, so `cargo test` in debug skips these; `cargo xtask
//! test` runs them with `cargo test --release -p faultline-scenario --test full_scale`, where
//! each run takes seconds.

use faultline_scenario::{parse_scenario, Run};

/// Runs a shipped scenario file to its end and fails naming every expectation that did not
/// hold (with the value observed) and any invariant violation.
fn check_file(file: &str, text: &str) {
    let scenario = parse_scenario(file, text).unwrap_or_else(|e| panic!("{e}"));
    let mut run = Run::new(&scenario).unwrap_or_else(|e| panic!("{file}: {e}"));
    run.run_to_end();
    if let Some((at, what)) = &run.world.violation {
        panic!("{file}: Raft invariant violated at {at}: {what}");
    }
    let mut results = run.evaluate();
    assert!(!results.is_empty(), "{file} has no expectations to check");
    // The tour's claims too: a caption is what a reader believes about the run.
    results.extend(run.evaluate_guide().into_iter().map(|c| c.result));
    let failed: Vec<String> = results
        .iter()
        .filter(|r| !r.passed())
        .map(|r| {
            format!(
                "  `{}` ({}): {:?}, observed {:?}",
                r.name, r.check, r.verdict, r.observed
            )
        })
        .collect();
    assert!(
        failed.is_empty(),
        "{file}: expectations that did not hold at the end of the run:\n{}",
        failed.join("\n")
    );
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "release only: cargo xtask test runs it with --release"
)]
fn full_scale_buggy_holds_its_expectations() {
    check_file(
        "tikv-14547-full-scale.toml",
        include_str!("../../../scenarios/tikv-14547-full-scale.toml"),
    );
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "release only: cargo xtask test runs it with --release"
)]
fn full_scale_fixed_holds_its_expectations() {
    check_file(
        "tikv-14547-full-scale-fixed.toml",
        include_str!("../../../scenarios/tikv-14547-full-scale-fixed.toml"),
    );
}
