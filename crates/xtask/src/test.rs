//! `cargo xtask test`: every check, in order of cost, stopping at the first failure.

use crate::cmd::{self, in_dir, Result};
use crate::{bench, paths, serve, size, tools};

/// Runs all checks. `--skip-e2e` exists only for quick local loops; CI (`.ci/run`) never
/// passes it.
pub fn run(args: &[String]) -> Result {
    let skip_e2e = args.iter().any(|a| a == "--skip-e2e");
    let root = paths::root();
    lints(&root)?;
    native_tests(&root)?;

    cmd::step("release wasm build");
    serve::ensure_build_tools(true)?;
    serve::build_release()?;
    size::report(&paths::dist())?;

    if skip_e2e {
        println!("\n(--skip-e2e: browser tests skipped)");
        return Ok(());
    }
    browser_tests(&root)
}

/// Formatting, and clippy for the host and for the browser target. Both clippy runs fail on a
/// function over 70 lines (`clippy::too_many_lines`, switched on in the crates' `[lints]`, limit
/// in the root clippy.toml); Yew components, which clippy cannot see into, are measured by
/// web/tests/component_lines.rs in the test step.
fn lints(root: &std::path::Path) -> Result {
    cmd::step("format check");
    cmd::run(
        "format check (run `cargo fmt --all` to fix)",
        in_dir("cargo", root).args(["fmt", "--all", "--", "--check"]),
    )?;

    cmd::step("clippy");
    cmd::run(
        "clippy",
        in_dir("cargo", root).args([
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ]),
    )?;

    // The web crate's wasm-only code (cfg(target_arch = "wasm32")) is invisible to the host
    // clippy above, so lint it for the browser target too.
    cmd::step("clippy (web, wasm32)");
    tools::ensure_wasm_target()?;
    cmd::run(
        "clippy for wasm32",
        in_dir("cargo", root).args([
            "clippy",
            "--package",
            "faultline-web",
            "--target",
            "wasm32-unknown-unknown",
            "--",
            "-D",
            "warnings",
        ]),
    )
}

/// Every native test, then the full-scale scenarios in release.
fn native_tests(root: &std::path::Path) -> Result {
    cmd::step("unit and integration tests");
    cmd::run(
        "cargo test",
        in_dir("cargo", root).args(["test", "--workspace"]),
    )?;

    // The scale the mission names: the 256,000-region cluster, buggy and fixed, with every
    // expectation and the Raft invariants. Seconds in release, minutes in debug, hence its own
    // release-mode step (the debug run above skips these tests).
    cmd::step("full-scale tikv#14547 (release)");
    cmd::run(
        "full-scale scenarios",
        in_dir("cargo", root).args([
            "test",
            "--release",
            "--package",
            "faultline-scenario",
            "--test",
            "full_scale",
        ]),
    )
}

/// The browser tests against the release build, with the native CLI for the determinism test.
fn browser_tests(root: &std::path::Path) -> Result {
    cmd::step("browser tests");
    // The determinism test compares the page with the native CLI, so build it first.
    cmd::run(
        "building the faultline CLI",
        in_dir("cargo", root).args(["build", "--package", "faultline-cli", "--bin", "faultline"]),
    )?;
    // The seek report compares the playground with the model alone in the same browser.
    bench::build_raw_wasm()?;
    let chromium = tools::ensure_chromium()?;
    let e2e = paths::e2e();
    tools::ensure_npm_packages(&e2e, "the browser tests (playwright-core)")?;
    cmd::run(
        "browser tests",
        in_dir("node", &e2e)
            .args(["--test", "--test-concurrency=1", "--test-reporter=spec"])
            .env("FAULTLINE_DIST", paths::dist())
            .env(
                "FAULTLINE_BIN",
                paths::target().join("debug").join("faultline"),
            )
            .env("FAULTLINE_ROOT", root)
            .env("FAULTLINE_RAW_WASM", paths::raw_model_wasm())
            .env("CHROMIUM", chromium),
    )?;
    println!(
        "\nall checks passed; screenshots in {}",
        e2e.join("artifacts").display()
    );
    Ok(())
}
