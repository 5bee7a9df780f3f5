//! Liveness after faults heal, judged from metric series.

use faultline_cdc::owner::lifecycle::{FeedStatus, CHANGEFEED_STATE_METRIC};
use faultline_scenario::{Dur, Run, Scenario};
use faultline_sim::SimTime;

use super::check::Check;

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

/// How long after a changefeed may retry, once the last fault has healed, its checkpoint lag
/// must be back under [`CHECKPOINT_LAG_MAX`]: resubscribing every region and draining the
/// backlog fits easily.
pub const CHECKPOINT_BOUND: Dur = Dur::secs(120);

/// The checkpoint lag that counts as caught up: TiCDC's "no progress for 1 min" alert.
pub const CHECKPOINT_LAG_MAX: f64 = 60.0;

/// Prefix of per-changefeed checkpoint lag series (defined once, where the model records it).
pub use faultline_cdc::check::metrics::CHECKPOINT_LAG_METRIC as CHECKPOINT_LAG_PREFIX;

/// `liveness.checkpoint`: every changefeed's checkpoint lag is under [`CHECKPOINT_LAG_MAX`] from
/// [`CHECKPOINT_BOUND`] after its first chance to recover to the end of the run (a changefeed
/// stuck for good, as in tiflow#9595, fails it).
///
/// The first chance is the heal of the last fault, or, for a changefeed then in `error` state,
/// its owner's next retry: TiCDC restarts a failed changefeed only when its exponential backoff
/// elapses (`cdc/owner/feed_state_manager.go`, `shouldRetry`: 10 s doubling up to 10 min), so
/// after a 3-minute Kafka outage the retry due at the heal can be nearly 3 minutes away. A
/// changefeed still waiting near the end is not judged, and then neither is the property
/// unless another changefeed fails it.
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
    let healed = last_heal(&run.scenario)?.to_time();
    let end = run.scenario.duration.to_time();
    let mut unjudged = false;
    for name in lags {
        match changefeed_checkpoint(metrics, name, healed, end) {
            Some(Err(why)) => return Some(Err(why)),
            Some(Ok(())) => {}
            None => unjudged = true,
        }
    }
    (!unjudged).then_some(Ok(()))
}

/// [`checkpoint`] for the changefeed whose lag series is `lag`, given when the last fault
/// healed.
fn changefeed_checkpoint(
    metrics: &faultline_sim::MetricStore,
    lag: &str,
    healed: SimTime,
    end: SimTime,
) -> Check {
    let cf = &lag[CHECKPOINT_LAG_PREFIX.len()..];
    let chance = first_chance(metrics, cf, healed, end)?;
    let from = SimTime(chance.0.saturating_add(CHECKPOINT_BOUND.0));
    let series = metrics.series(lag)?;
    let mut late = series
        .iter()
        .filter(|(t, _)| *t >= from && *t <= end)
        .peekable();
    late.peek()?;
    let Some((t, v)) = late.find(|(_, v)| *v >= CHECKPOINT_LAG_MAX) else {
        return Some(Ok(()));
    };
    let healed_at = Dur(healed.as_micros());
    let since = if chance == healed {
        format!("the last fault healed ({healed_at})")
    } else {
        let retry = Dur(chance.as_micros());
        format!("its retry at {retry} (the last fault healed at {healed_at})")
    };
    Some(Err(format!(
        "{lag} = {v} s at {t}, more than {CHECKPOINT_BOUND} after {since}"
    )))
}

/// When changefeed `cf` can first recover after `healed`: at once, unless it is then in `error`
/// state waiting for its backoff, in which case the first sample after that where it is not;
/// `None` if it waits to the end.
fn first_chance(
    metrics: &faultline_sim::MetricStore,
    cf: &str,
    healed: SimTime,
    end: SimTime,
) -> Option<SimTime> {
    let Some(states) = metrics.series(&format!("{CHANGEFEED_STATE_METRIC}{cf}")) else {
        return Some(healed);
    };
    let waiting = f64::from(FeedStatus::Error.code());
    states
        .iter()
        .filter(|(t, _)| *t >= healed && *t <= end)
        .find(|(_, state)| *state != waiting)
        .map(|(t, _)| *t)
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
/// duration counts as undone by the first later step of the same target whose verb undoes it
/// (restart, resume, heal: `Verb::undoes`); a leader transfer, a split or a store joining or
/// leaving leaves nothing to undo, so it is over when it is ordered
/// (`Verb::over_when_ordered`: PD's moves after it are the cluster's normal work, which
/// liveness must allow).
pub fn last_heal(s: &Scenario) -> Option<Dur> {
    let mut last = Dur(0);
    for (i, f) in s.faults.iter().enumerate() {
        let undo = if f.action.verb().over_when_ordered() {
            Some(f.at)
        } else {
            match f.duration {
                Some(d) => Some(Dur(f.at.0.saturating_add(d.0))),
                None => s.faults[i + 1..]
                    .iter()
                    .find(|g| g.target == f.target && g.action.verb().undoes(f.action))
                    .map(|g| g.at),
            }
        };
        last = last.max(undo?);
    }
    Some(last)
}
