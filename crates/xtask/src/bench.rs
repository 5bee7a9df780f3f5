//! `cargo xtask bench-wasm [minutes]`: runs the same full-scale tikv#14547 simulation natively
//! and as WebAssembly under Node.js (V8, Chromium's engine) and prints the speed ratio. The
//! native-only figures are `cargo bench -p faultline-tikv`.

use crate::cmd::{err, in_dir, run, step, Result};
use crate::paths;
use crate::tools::ensure_wasm_target;

/// Runs both builds of the benchmark and prints wasm speed as a share of native speed.
pub fn run_wasm_ratio(args: &[String]) -> Result {
    let minutes = args.first().map(String::as_str).unwrap_or("10");
    if minutes.parse::<u32>().map_or(true, |m| m == 0 || m > 60) {
        return err(format!(
            "bench-wasm: `{minutes}` is not a number of simulated minutes in 1..=60"
        ));
    }
    step("build the benchmark (native and wasm32, release)");
    let root = paths::root();
    run(
        "native build",
        in_dir("cargo", &root).args([
            "build",
            "--release",
            "-p",
            "faultline-wasm-bench",
            "--bin",
            "wasm-bench-native",
        ]),
    )?;
    build_raw_wasm()?;
    step(&format!(
        "run {minutes} simulated minutes of the 256,000-region cluster, both ways"
    ));
    let target = paths::target();
    let native = target.join("release").join("wasm-bench-native");
    let native_out = timed(in_dir(native.to_string_lossy().as_ref(), &root).arg(minutes))?;
    let wasm = paths::raw_model_wasm();
    let script = root.join("crates/wasm-bench/run.mjs");
    let wasm_out = timed(in_dir("node", &root).arg(script).arg(wasm).arg(minutes))?;
    let (n, w) = (seconds(&native_out)?, seconds(&wasm_out)?);
    let indent = |out: &str| out.replace('\n', "\n    ");
    println!("    {}\n    {}", indent(&native_out), indent(&wasm_out));
    println!("    wasm runs at {:.0}% of native speed", 100.0 * n / w);
    Ok(())
}

/// Builds the model alone as WebAssembly ([`paths::raw_model_wasm`]): the raw speed both this
/// benchmark and the browser tests' seek report measure the playground against. The `release`
/// profile (opt-level 3) rather than the worker's `release-wasm`, so the bar is the model at
/// full speed, not the worker's own build.
pub fn build_raw_wasm() -> Result {
    ensure_wasm_target()?;
    run(
        "wasm build of the model alone",
        in_dir("cargo", &paths::root()).args([
            "build",
            "--release",
            "-p",
            "faultline-wasm-bench",
            "--lib",
            "--target",
            "wasm32-unknown-unknown",
        ]),
    )
}

fn timed(c: &mut std::process::Command) -> Result<String> {
    let out = c
        .output()
        .map_err(|e| crate::cmd::Error(format!("bench-wasm: {e}")))?;
    if !out.status.success() {
        return err(format!(
            "bench-wasm: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The `N.NN s` figure at the end of a benchmark's first line (the native one prints its
/// Raft work on a second).
fn seconds(out: &str) -> Result<f64> {
    let line = out.lines().next().unwrap_or_default();
    line.rsplit(", ")
        .next()
        .and_then(|s| s.trim_end_matches(" s").parse().ok())
        .ok_or_else(|| crate::cmd::Error(format!("bench-wasm: cannot read a time from `{line}`")))
}

#[cfg(test)]
mod tests {
    #[test]
    fn reads_the_time_of_a_benchmark_line() {
        assert_eq!(
            super::seconds("wasm: 3 simulated min, 2347130 events, 2.34 s").unwrap(),
            2.34
        );
        assert_eq!(
            super::seconds(
                "native: 3 simulated min, 9 events, 4.50 s\nraft work: 1 M items, 9 ns each"
            )
            .unwrap(),
            4.5
        );
        assert!(super::seconds("garbage").is_err());
    }
}
