//! `invariant`: the model's own safety checks, run after every event by the kernel.

use faultline_scenario::Run;

use super::check::Check;

/// Fails with the first violation and its time.
pub fn check(run: &Run) -> Check {
    Some(match &run.world.violation {
        Some((at, what)) => Err(format!("at {at}: {what}")),
        None => Ok(()),
    })
}
