//! `faultline diff A B`: where two runs first differ (each a link or a scenario file), the
//! same search as the page's "jump to the first difference". Exit 0 when the runs are the
//! same event for event, 1 when they differ, 2 on a bad argument.

use faultline_scenario::first_difference;

use crate::args::Args;
use crate::load::load;

/// Parses `faultline diff A B` and runs it.
pub fn main(raw: &[String]) -> Result<i32, String> {
    let a = Args::parse(raw, &[], &[])?;
    let [left, right] = a.positional.as_slice() else {
        return Err("usage: faultline diff LINK_A LINK_B".into());
    };
    run(left, right)
}

/// Runs both to their ends in lockstep and prints the first event where they part.
pub fn run(left: &str, right: &str) -> Result<i32, String> {
    let a = load(left, &[]).map_err(|e| format!("A: {e}"))?;
    let b = load(right, &[]).map_err(|e| format!("B: {e}"))?;
    match first_difference(&a, &b).map_err(|e| e.to_string())? {
        None => {
            println!("Same run: A and B process the same events to the end");
            Ok(0)
        }
        Some(d) => {
            for line in d.describe() {
                println!("{line}");
            }
            Ok(1)
        }
    }
}
