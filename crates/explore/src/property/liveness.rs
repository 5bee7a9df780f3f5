//! Liveness after faults heal, judged from metric series.

use faultline_scenario::{Dur, FaultAction, Run, Scenario};
use faultline_sim::SimTime;

use super::Check;

/// How long after the last fault heals every region must have a leader again.
pub const LEADER_BOUND: Dur = Dur::secs(60);

/// Metric: regions without a leader.
pub const LEADERLESS: &str = "leaderless_regions";

/// `liveness.leader`: from `healed + LEADER_BOUND` to the end, no region lacks a leader.
pub fn leader(run: &Run) -> Check {
    let metrics = &run.world.kernel.metrics;
    metrics.index(LEADERLESS)?;
    let from = Dur(last_heal(&run.scenario)?.0.saturating_add(LEADER_BOUND.0));
    let end = run.scenario.duration;
    if from > end {
        return None;
    }
    let series = metrics.series(LEADERLESS)?;
    let late: Vec<&(SimTime, f64)> = series
        .iter()
        .filter(|(t, _)| *t >= from.to_time() && *t <= end.to_time())
        .collect();
    if late.is_empty() {
        return None;
    }
    Some(match late.iter().find(|(_, v)| *v > 0.0) {
        Some((t, v)) => Err(format!(
            "{v} regions without a leader at {t}, more than {LEADER_BOUND} after the last fault healed ({})",
            Dur(from.0 - LEADER_BOUND.0)
        )),
        None => Ok(()),
    })
}

/// When the last fault of the script is undone, or `None` if one never is. A fault without a
/// duration counts as undone by the first later restart/resume/heal of the same target.
pub fn last_heal(s: &Scenario) -> Option<Dur> {
    let mut last = Dur(0);
    for (i, f) in s.faults.iter().enumerate() {
        let undo = match f.action {
            FaultAction::Restart | FaultAction::Resume | FaultAction::Heal => Some(f.at),
            _ => match f.duration {
                Some(d) => Some(Dur(f.at.0.saturating_add(d.0))),
                None => s.faults[i + 1..]
                    .iter()
                    .find(|g| g.target == f.target && undoes(g.action, f.action))
                    .map(|g| g.at),
            },
        };
        last = last.max(undo?);
    }
    Some(last)
}

fn undoes(undo: FaultAction, fault: FaultAction) -> bool {
    use FaultAction::*;
    matches!(
        (undo, fault),
        (Restart, Kill) | (Resume, Pause) | (Heal, Partition | Loss | Delay)
    )
}
