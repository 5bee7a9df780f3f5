//! The shrinking passes. Each takes the current failing scenario and returns a smaller one
//! that still fails (or the same one).

use faultline_scenario::{Dur, Scenario};

use super::ddmin::ddmin;
use super::shrinker::Shrinker;

/// Removes faults with ddmin.
pub(crate) fn drop_faults(sh: &mut Shrinker, s: Scenario, log: &mut dyn FnMut(&str)) -> Scenario {
    let before = s.faults.len();
    let kept = ddmin(&s.faults, &mut |subset| {
        let mut c = s.clone();
        c.faults = subset.to_vec();
        sh.fails(&c).is_some()
    });
    if kept.len() == before {
        return s;
    }
    log(&format!("faults: {before} -> {}", kept.len()));
    Scenario { faults: kept, ..s }
}

/// The scenario cut at `end`: faults and guide steps after it dropped (they would never act).
fn cut_at(s: &Scenario, end: Dur) -> Scenario {
    let mut c = s.clone();
    c.duration = end;
    c.faults.retain(|f| f.at <= end);
    c.guide.retain(|g| g.at <= end);
    c
}

/// Stops the run as early as it still fails: just after the failure if its time is known,
/// then a binary search over whole seconds.
pub(crate) fn stop_earlier(sh: &mut Shrinker, s: Scenario, log: &mut dyn FnMut(&str)) -> Scenario {
    let before = s.duration;
    let second = Dur::secs(1).0;
    let mut best = s.clone();
    if let Some(at) = sh.fails(&s).and_then(|f| f.at) {
        let end = Dur((at.0 / second + 1) * second);
        if end < best.duration {
            let c = cut_at(&s, end);
            if sh.fails(&c).is_some() {
                best = c;
            }
        }
    }
    // Failing is close to monotonic in the end time; the search only keeps ends that failed.
    let (mut lo, mut hi) = (1, best.duration.0.div_ceil(second));
    while lo < hi && !sh.capped() {
        let mid = lo + (hi - lo) / 2;
        let c = cut_at(&s, Dur(mid * second));
        if c.duration < best.duration && sh.fails(&c).is_some() {
            best = c;
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    if best.duration != before {
        log(&format!("duration: {before} -> {}", best.duration));
    }
    best
}

/// Halves each fault's duration while the property still fails.
pub(crate) fn shorten_faults(
    sh: &mut Shrinker,
    mut s: Scenario,
    log: &mut dyn FnMut(&str),
) -> Scenario {
    for i in 0..s.faults.len() {
        let before = s.faults[i].duration;
        while let Some(shorter) = s.faults[i].duration.and_then(halve) {
            let mut c = s.clone();
            c.faults[i].duration = Some(shorter);
            if sh.fails(&c).is_none() {
                break;
            }
            s = c;
        }
        if let (Some(a), Some(b)) = (before, s.faults[i].duration) {
            if a != b {
                log(&format!("faults[{i}].duration: {a} -> {b}"));
            }
        }
    }
    s
}

/// `d` halved, in whole seconds from one second up, in whole milliseconds below; `None` once
/// it cannot get shorter.
fn halve(d: Dur) -> Option<Dur> {
    let unit = if d.0 >= Dur::secs(2).0 {
        Dur::secs(1).0
    } else {
        Dur::millis(1).0
    };
    let h = Dur(d.0 / 2 / unit * unit);
    (h.0 > 0 && h < d).then_some(h)
}

/// A count in the scenario that shrinking may lower.
pub(crate) struct Knob {
    /// Field name for the log.
    pub label: &'static str,
    /// Reads it.
    pub get: fn(&Scenario) -> u32,
    /// Writes it.
    pub set: fn(&mut Scenario, u32),
    /// The next smaller value to try.
    pub next: fn(u32) -> u32,
}

/// Regions halve, stores and captures go one at a time (each is a node with its own role),
/// tables halve. Validation rejects what the rest of the scenario cannot live with: fewer
/// stores than replicas, faults aimed at a removed node, changefeeds without captures.
pub(crate) const KNOBS: [Knob; 4] = [
    Knob {
        label: "regions",
        get: |s| s.topology.regions,
        set: |s, v| s.topology.regions = v,
        next: |v| v / 2,
    },
    Knob {
        label: "stores",
        get: |s| s.topology.stores,
        set: |s, v| s.topology.stores = v,
        next: |v| v - 1,
    },
    Knob {
        label: "captures",
        get: |s| s.topology.captures,
        set: |s, v| s.topology.captures = v,
        next: |v| v - 1,
    },
    Knob {
        label: "workload.tables",
        get: |s| s.workload.tables,
        set: |s, v| s.workload.tables = v,
        next: |v| v / 2,
    },
];

/// Lowers one count while the property still fails.
pub(crate) fn lower(
    sh: &mut Shrinker,
    mut s: Scenario,
    knob: &Knob,
    log: &mut dyn FnMut(&str),
) -> Scenario {
    let before = (knob.get)(&s);
    while (knob.get)(&s) > 0 {
        let mut c = s.clone();
        (knob.set)(&mut c, (knob.next)((knob.get)(&s)));
        if sh.fails(&c).is_none() {
            break;
        }
        s = c;
    }
    let after = (knob.get)(&s);
    if after != before {
        log(&format!("{}: {before} -> {after}", knob.label));
    }
    s
}

/// Steps fault start times are rounded to, coarsest first.
const ROUNDINGS: [u64; 3] = [1_000_000, 100_000, 10_000];

/// Rounds each fault's start time to the coarsest step (1 s, 100 ms, 10 ms) that still fails,
/// so a shrunk scenario reads `at = "56s"` rather than `"56198ms"` when the timing does not
/// matter. Explore draws start times to the millisecond; races that need a fault inside a
/// short window keep their odd times.
pub(crate) fn round_fault_times(
    sh: &mut Shrinker,
    mut s: Scenario,
    log: &mut dyn FnMut(&str),
) -> Scenario {
    for i in 0..s.faults.len() {
        let before = s.faults[i].at;
        for step in ROUNDINGS {
            let rounded = Dur((before.0 + step / 2) / step * step);
            if rounded == before {
                break;
            }
            let mut c = s.clone();
            c.faults[i].at = rounded;
            if sh.fails(&c).is_some() {
                log(&format!("faults[{i}].at: {before} -> {rounded}"));
                s = c;
                break;
            }
        }
    }
    s
}
