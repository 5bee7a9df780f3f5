//! Evaluating `[[expect]]` checks against a run's metrics and log, at the end or live at any
//! cursor.

use faultline_sim::{MetricStore, Model, SimTime, World};

use crate::dur::Dur;
use crate::format::{Agg, Expectation, Scenario};

/// Where an expectation stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Holds.
    Pass,
    /// Does not hold.
    Fail,
    /// The window has not been fully simulated yet and the answer could still change.
    Pending,
}

/// The outcome of one expectation.
#[derive(Clone, Debug, PartialEq)]
pub struct ExpectResult {
    /// Index in the scenario's `expect` list.
    pub index: usize,
    /// Its name, or a description generated from the check.
    pub name: String,
    /// The check in words: `max of leaderless_regions over 1m1s..10m >= 1`.
    pub check: String,
    /// Pass, fail or pending.
    pub verdict: Verdict,
    /// The value that decided it (none before any sample).
    pub observed: Option<f64>,
}

impl ExpectResult {
    /// True when it passed.
    pub fn passed(&self) -> bool {
        self.verdict == Verdict::Pass
    }
}

/// Evaluates every expectation of `s` against the world as it is now.
pub fn evaluate<M: Model>(s: &Scenario, world: &World<M>) -> Vec<ExpectResult> {
    let end = s.duration.to_time();
    let now = world.now();
    s.expect
        .iter()
        .enumerate()
        .map(|(i, e)| evaluate_one(i, e, world, now, end))
        .collect()
}

/// One expectation against the world at `now`, for a run ending at `end`.
pub(crate) fn evaluate_one<M: Model>(
    index: usize,
    e: &Expectation,
    world: &World<M>,
    now: SimTime,
    end: SimTime,
) -> ExpectResult {
    let from = e.from.map(Dur::to_time).unwrap_or(SimTime::ZERO);
    let to = e.to.map(Dur::to_time).unwrap_or(end);
    let complete = now >= to;
    let check = describe(e, from, to, end);
    let name = if e.name.is_empty() {
        check.clone()
    } else {
        e.name.clone()
    };
    let (verdict, observed) = match (&e.metric, &e.log) {
        (_, Some(text)) => {
            let count = world.kernel.log.count_containing(text) as f64;
            let ok = e.op.holds(count, e.value);
            // Log counts only grow: a passing `>`/`>=` cannot be undone.
            let decided =
                complete || (ok && matches!(e.op, crate::format::Cmp::Gt | crate::format::Cmp::Ge));
            (verdict(ok, decided), Some(count))
        }
        (Some(metric), None) => metric_verdict(
            e,
            &world.kernel.metrics,
            metric,
            from,
            to.min(now),
            complete,
        ),
        (None, None) => (Verdict::Fail, None),
    };
    ExpectResult {
        index,
        name,
        check,
        verdict,
        observed,
    }
}

fn verdict(ok: bool, decided: bool) -> Verdict {
    match (ok, decided) {
        (true, true) => Verdict::Pass,
        (false, true) => Verdict::Fail,
        _ => Verdict::Pending,
    }
}

fn metric_verdict(
    e: &Expectation,
    metrics: &MetricStore,
    metric: &str,
    from: SimTime,
    to: SimTime,
    complete: bool,
) -> (Verdict, Option<f64>) {
    if e.agg == Agg::Last {
        let v = metrics.at(metric, to);
        return match v {
            Some(v) => (verdict(e.op.holds(v, e.value), complete), Some(v)),
            None => (verdict(false, complete), None),
        };
    }
    let samples = metrics.window(metric, from, to);
    if samples.is_empty() {
        return (verdict(false, complete), None);
    }
    let max = samples.iter().cloned().fold(f64::MIN, f64::max);
    let min = samples.iter().cloned().fold(f64::MAX, f64::min);
    match e.agg {
        Agg::Max => (extremum_verdict(e, max, complete, true), Some(max)),
        Agg::Min => (extremum_verdict(e, min, complete, false), Some(min)),
        Agg::All => {
            let worst = samples.iter().cloned().find(|v| !e.op.holds(*v, e.value));
            match worst {
                Some(w) => (Verdict::Fail, Some(w)),
                None => (verdict(true, complete), Some(extreme(e, max, min, false))),
            }
        }
        Agg::Any => {
            let hit = samples.iter().cloned().find(|v| e.op.holds(*v, e.value));
            match hit {
                Some(h) => (Verdict::Pass, Some(h)),
                None => (verdict(false, complete), Some(extreme(e, max, min, true))),
            }
        }
        Agg::Last => unreachable!("handled above"),
    }
}

/// A window's max only grows (its min only shrinks) as more of it is simulated, so some
/// answers are final before the window ends: `max >= v` once it holds, `max <= v` once it
/// fails (mirrored for min). The live expectations panel shows them decided at once.
fn extremum_verdict(e: &Expectation, value: f64, complete: bool, is_max: bool) -> Verdict {
    let ok = e.op.holds(value, e.value);
    let upward = matches!(e.op, crate::format::Cmp::Gt | crate::format::Cmp::Ge);
    let downward = matches!(e.op, crate::format::Cmp::Lt | crate::format::Cmp::Le);
    // Moving with the extremum (max and >=, min and <=) a pass is final; against it a fail is.
    let with_extremum = if is_max { upward } else { downward };
    let against_extremum = if is_max { downward } else { upward };
    let settled = (ok && with_extremum) || (!ok && against_extremum);
    verdict(ok, complete || settled)
}

/// The sample closest to passing (`best`) or to failing (`!best`).
fn extreme(e: &Expectation, max: f64, min: f64, best: bool) -> f64 {
    let wants_high = matches!(e.op, crate::format::Cmp::Gt | crate::format::Cmp::Ge);
    if wants_high == best {
        max
    } else {
        min
    }
}

fn describe(e: &Expectation, from: SimTime, to: SimTime, end: SimTime) -> String {
    let at = |t: SimTime| {
        if t == end {
            "end".to_string()
        } else {
            Dur(t.0).to_string()
        }
    };
    let subject = match (&e.metric, &e.log) {
        (_, Some(text)) => format!("count of log lines containing \"{text}\""),
        (Some(m), None) => match e.agg {
            Agg::Last => format!("{m} at {}", at(to)),
            agg => format!("{} of {m} over {}..{}", agg_name(agg), Dur(from.0), at(to)),
        },
        (None, None) => "nothing".into(),
    };
    format!("{subject} {} {}", e.op.symbol(), e.value)
}

fn agg_name(a: Agg) -> &'static str {
    match a {
        Agg::Last => "last",
        Agg::Max => "max",
        Agg::Min => "min",
        Agg::All => "every sample",
        Agg::Any => "some sample",
    }
}
