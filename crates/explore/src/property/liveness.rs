//! Liveness after faults heal, judged from metric series.

use faultline_scenario::{Dur, FaultAction, Run, Scenario};
use faultline_sim::SimTime;

use super::Check;

/// How long after the last fault heals every region must have a leader again.
pub const LEADER_BOUND: Dur = Dur::secs(60);

/// Metric: how long the region that has been without a leader longest has been so, in seconds
/// (0 when every region has one).
pub const LEADERLESS_AGE: &str = "max_leaderless_secs";

/// `liveness.leader`: from `healed + LEADER_BOUND` to the end, no region has been without a
/// leader for longer than [`LEADER_BOUND`]. A region between leaders for a moment (a PD leader
/// transfer, an election won within a timeout) is not a failure; a region still leaderless from
/// the faults, or one that loses its leader later and stays so, is.
pub fn leader(run: &Run) -> Check {
    let metrics = &run.world.kernel.metrics;
    metrics.index(LEADERLESS_AGE)?;
    let from = Dur(last_heal(&run.scenario)?.0.saturating_add(LEADER_BOUND.0));
    let end = run.scenario.duration;
    if from > end {
        return None;
    }
    let series = metrics.series(LEADERLESS_AGE)?;
    let late: Vec<&(SimTime, f64)> = series
        .iter()
        .filter(|(t, _)| *t >= from.to_time() && *t <= end.to_time())
        .collect();
    if late.is_empty() {
        return None;
    }
    let bound = LEADER_BOUND.0 as f64 / 1e6;
    Some(match late.iter().find(|(_, age)| *age > bound) {
        Some((t, age)) => Err(format!(
            "a region without a leader for {age} s at {t}, more than {LEADER_BOUND} after the last fault healed ({})",
            Dur(from.0 - LEADER_BOUND.0)
        )),
        None => Ok(()),
    })
}

/// How long after the last fault heals every changefeed's checkpoint lag must be back under
/// [`CHECKPOINT_LAG_MAX`]: resubscribing every region and draining the backlog fits easily.
pub const CHECKPOINT_BOUND: Dur = Dur::secs(120);

/// The checkpoint lag that counts as caught up: TiCDC's "no progress for 1 min" alert.
pub const CHECKPOINT_LAG_MAX: f64 = 60.0;

/// Prefix of per-changefeed checkpoint lag series.
pub const CHECKPOINT_LAG_PREFIX: &str = "checkpoint_lag.";

/// `liveness.checkpoint`: from `healed + CHECKPOINT_BOUND` to the end, every changefeed's
/// checkpoint lag stays under [`CHECKPOINT_LAG_MAX`] (a changefeed stuck for good, as in
/// tiflow#9595, fails it).
pub fn checkpoint(run: &Run) -> Check {
    let metrics = &run.world.kernel.metrics;
    let lags: Vec<&String> = metrics
        .names()
        .iter()
        .filter(|n| n.starts_with(CHECKPOINT_LAG_PREFIX))
        .collect();
    if lags.is_empty() {
        return None;
    }
    let from = Dur(last_heal(&run.scenario)?
        .0
        .saturating_add(CHECKPOINT_BOUND.0));
    if from > run.scenario.duration {
        return None;
    }
    let window = metrics.window(lags[0], from.to_time(), run.scenario.duration.to_time());
    if window.is_empty() {
        return None;
    }
    for name in lags {
        let series = metrics.series(name)?;
        let late = series
            .iter()
            .find(|(t, v)| *t >= from.to_time() && *v >= CHECKPOINT_LAG_MAX);
        if let Some((t, v)) = late {
            return Some(Err(format!(
                "{name} = {v} s at {t}, more than {CHECKPOINT_BOUND} after the last fault healed ({})",
                Dur(from.0 - CHECKPOINT_BOUND.0)
            )));
        }
    }
    Some(Ok(()))
}

/// Run time left after the last heal beyond a bound, so the late window holds samples.
pub const JUDGING_MARGIN: Dur = Dur::secs(10);

/// How long after the last heal a run must go on for every liveness property that applies to
/// `s` to be judged: the leader bound always, the checkpoint bound when it has changefeeds.
pub fn recovery_needed(s: &Scenario) -> Dur {
    let bound = if s.changefeeds.is_empty() {
        LEADER_BOUND
    } else {
        CHECKPOINT_BOUND.max(LEADER_BOUND)
    };
    Dur(bound.0 + JUDGING_MARGIN.0)
}

/// When the last fault of the script is undone, or `None` if one never is. A fault without a
/// duration counts as undone by the first later restart/resume/heal of the same target; a
/// leader transfer or a store joining or leaving leaves nothing to undo, so it is over when it
/// is ordered (PD's moves after it are the cluster's normal work, which liveness must allow).
pub fn last_heal(s: &Scenario) -> Option<Dur> {
    let mut last = Dur(0);
    for (i, f) in s.faults.iter().enumerate() {
        let undo = match f.action {
            FaultAction::Restart
            | FaultAction::Resume
            | FaultAction::Heal
            | FaultAction::TransferLeader
            | FaultAction::AddStore
            | FaultAction::RemoveStore => Some(f.at),
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
