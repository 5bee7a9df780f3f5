//! `faultline check`: evaluates each scenario's `[[expect]]` checks.

use faultline_scenario::{Run, Verdict};

use crate::args::Args;
use crate::load::load;

/// Runs the command; returns the process exit code (1 if any expectation failed).
pub fn main(raw: &[String]) -> Result<i32, String> {
    let a = Args::parse(raw, &["set"], &[])?;
    if a.positional.is_empty() {
        return Err("usage: faultline check SCENARIO... [--set key=value]...".into());
    }
    let (mut passed, mut failed) = (0usize, 0usize);
    for arg in &a.positional {
        let scenario = load(arg, &a.all("set"))?;
        let mut run = Run::new(&scenario).map_err(|e| e.to_string())?;
        run.run_to_end();
        println!("{arg}: {}", scenario.name);
        if scenario.expect.is_empty() {
            println!("  (no expectations)");
        }
        for r in run.evaluate() {
            let observed = r
                .observed
                .map(|v| format!("{v}"))
                .unwrap_or_else(|| "no sample".into());
            let mark = match r.verdict {
                Verdict::Pass => {
                    passed += 1;
                    "pass"
                }
                _ => {
                    failed += 1;
                    "FAIL"
                }
            };
            if r.name == r.check {
                println!("  {mark}  {}  (observed {observed})", r.check);
            } else {
                println!(
                    "  {mark}  {}  (observed {observed}; expected {})",
                    r.name, r.check
                );
            }
        }
        if let Some((t, v)) = &run.world.violation {
            failed += 1;
            println!("  FAIL  invariant violated at {t}: {v}");
        }
    }
    println!("{passed} passed, {failed} failed");
    Ok(if failed > 0 { 1 } else { 0 })
}
