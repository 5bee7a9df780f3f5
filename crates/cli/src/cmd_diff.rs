//! `faultline diff A B`: where two runs first differ (each a link or a scenario file), the
//! same search as the page's "jump to the first difference". Exit 0 when the runs are the
//! same event for event, 1 when they differ, 2 on a bad argument.

use clap::Args;
use faultline_scenario::first_difference;

use crate::load::load;
use crate::out::say;

/// Runs two scenarios (files or links) side by side and prints the first event where they
/// differ, with its time and node: exit 0 the same run, 1 they differ, 2 a bad argument.
#[derive(Args, Debug)]
pub struct DiffArgs {
    /// The first run: a scenario file or a share link.
    #[arg(value_name = "A")]
    left: String,
    /// The second run: a scenario file or a share link.
    #[arg(value_name = "B")]
    right: String,
}

/// Runs both to their ends in lockstep and prints the first event where they part.
pub fn run(a: DiffArgs) -> Result<i32, String> {
    let left = load(&a.left, &[]).map_err(|e| format!("A: {e}"))?;
    let right = load(&a.right, &[]).map_err(|e| format!("B: {e}"))?;
    match first_difference(&left, &right).map_err(|e| e.to_string())? {
        None => {
            say!("Same run: A and B have the same events, log lines and metrics to the end");
            Ok(0)
        }
        Some(d) => {
            for line in d.describe() {
                say!("{line}");
            }
            Ok(1)
        }
    }
}
