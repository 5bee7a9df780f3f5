//! The first event where two runs differ: both runs step in lockstep, one traced event at a
//! time, and the first position where their trace hashes part is the first difference.
//!
//! Every processed message, timer and fault, every log line they write and every metrics
//! sample is folded into the trace hash (crates/sim `World::dispatch`, `Kernel::log`), so after
//! the same number of traced events two runs have equal hashes exactly while they processed
//! the same events, logged the same lines and sampled the same values. Where two events look
//! alike, the difference names the first log line or metric that differs. Deterministic: no
//! wall clock.

use faultline_sim::{describe_fault, SimTime, StepKind};

use crate::build::SimWorld;
use crate::error::ScenarioError;
use crate::format::Scenario;
use crate::run::Run;

/// One traced event of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TracedEvent {
    /// When it was processed.
    pub time: SimTime,
    /// The node it happened at (the receiver of a message, the owner of a timer; faults name
    /// their targets in `what`).
    pub node: String,
    /// What it was: `message MsgAppend from tikv-1`, `timer`, `fault: kill tikv-2`,
    /// `metrics sample`.
    pub what: String,
    /// What the event showed: the log lines it wrote, or for a metrics sample each series'
    /// value (`name = value`). Filled for the events where two runs part.
    pub shown: Vec<String>,
}

impl std::fmt::Display for TracedEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} at {}: {}", self.time, self.node, self.what)
    }
}

/// Where two runs part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FirstDifference {
    /// Traced events the runs have in common before they part.
    pub common_events: u64,
    /// Run A's event there (`None`: run A ended first).
    pub a: Option<TracedEvent>,
    /// Run B's event there (`None`: run B ended first).
    pub b: Option<TracedEvent>,
}

impl FirstDifference {
    /// The earlier of the two events' times: where both runs' views show the parting.
    pub fn time(&self) -> SimTime {
        let times = [&self.a, &self.b];
        let t = times
            .iter()
            .filter_map(|e| e.as_ref().map(|e| e.time))
            .min();
        t.unwrap_or(SimTime::ZERO)
    }

    /// Lines for the CLI and the page: the common prefix, then each run's event.
    pub fn describe(&self) -> Vec<String> {
        let side = |e: &Option<TracedEvent>| match e {
            Some(e) => e.to_string(),
            None => "(the run ended here)".to_string(),
        };
        let mut out = vec![
            format!(
                "the runs first differ at {}, after {} events in common",
                self.time(),
                self.common_events
            ),
            format!("A: {}", side(&self.a)),
            format!("B: {}", side(&self.b)),
        ];
        if let (Some(a), Some(b)) = (&self.a, &self.b) {
            if (&a.node, &a.what) == (&b.node, &b.what) {
                out.push(same_event_differs(a, b));
            }
        }
        out
    }
}

/// Words for two alike events that part the runs: the first log line or metric that differs.
fn same_event_differs(a: &TracedEvent, b: &TracedEvent) -> String {
    let none = "(nothing)".to_string();
    let n = a.shown.len().max(b.shown.len());
    let first = (0..n).find(|&i| a.shown.get(i) != b.shown.get(i));
    match first {
        Some(i) => format!(
            "the same event, but it showed: A: {} | B: {}",
            a.shown.get(i).unwrap_or(&none),
            b.shown.get(i).unwrap_or(&none)
        ),
        None => "(the same kind of event at the same node, with different contents)".into(),
    }
}

/// Runs both scenarios to their ends and returns where they first differ (`None`: the same
/// run, event for event).
pub fn first_difference(
    a: &Scenario,
    b: &Scenario,
) -> Result<Option<FirstDifference>, ScenarioError> {
    let mut run_a = Run::new(a)?;
    let mut run_b = Run::new(b)?;
    let (end_a, end_b) = (run_a.end(), run_b.end());
    for world in [&mut run_a.world, &mut run_b.world] {
        // One record is enough to label the event just processed.
        world.kernel.messages.set_capacity(1);
    }
    let mut common_events = 0;
    loop {
        let step_a = next_traced(&mut run_a.world, end_a);
        let step_b = next_traced(&mut run_b.world, end_b);
        if step_a.is_none() && step_b.is_none() {
            return Ok(None);
        }
        if step_a.is_none() || step_b.is_none() || run_a.trace_hash() != run_b.trace_hash() {
            // What each event showed is put in words only here, where the runs part: every
            // common event before it showed the same.
            return Ok(Some(FirstDifference {
                common_events,
                a: step_a.map(|s| s.shown_in(&run_a.world)),
                b: step_b.map(|s| s.shown_in(&run_b.world)),
            }));
        }
        common_events += 1;
    }
}

/// A traced step just taken, with what is needed to say what it showed.
struct TracedStep {
    event: TracedEvent,
    kind: StepKind,
    /// Log lines written before the step.
    logged_before: u64,
}

impl TracedStep {
    /// The event, with the log lines or metrics it showed in `world`, which has just taken it.
    fn shown_in(mut self, world: &SimWorld) -> TracedEvent {
        self.event.shown = shown_by_step(world, &self.kind, self.logged_before);
        self.event
    }
}

/// Steps until one event is folded into the trace hash, or the run reaches `end`.
fn next_traced(world: &mut SimWorld, end: SimTime) -> Option<TracedStep> {
    loop {
        match world.kernel.next_event_time() {
            Some(t) if t <= end => {}
            _ => return None,
        }
        let logged_before = world.kernel.log.total();
        let (time, kind) = world.step()?;
        if let Some((node, what)) = describe_step(world, &kind) {
            let event = TracedEvent {
                time,
                node,
                what,
                shown: Vec::new(),
            };
            return Some(TracedStep {
                event,
                kind,
                logged_before,
            });
        }
    }
}

/// The log lines a step wrote (those still kept), or the metrics a sample recorded.
fn shown_by_step(world: &SimWorld, kind: &StepKind, logged_before: u64) -> Vec<String> {
    let k = &world.kernel;
    if matches!(kind, StepKind::Sample) {
        return k
            .metrics
            .names()
            .iter()
            .map(|name| format!("{name} = {}", k.metrics.last(name).unwrap_or(f64::NAN)))
            .collect();
    }
    let new = (k.log.total() - logged_before) as usize;
    let kept = new.min(k.log.entries().len());
    k.log
        .entries()
        .skip(k.log.entries().len() - kept)
        .map(|e| format!("{} {}", e.message, e.detail))
        .collect()
}

/// The node and words of a traced step; `None` for steps the trace hash does not fold.
fn describe_step(world: &SimWorld, kind: &StepKind) -> Option<(String, String)> {
    let net = world.network();
    let name = |n: faultline_sim::NodeId| net.node(n).name.clone();
    match kind {
        StepKind::Message { from, to } => {
            let label = world
                .kernel
                .messages
                .records()
                .next_back()
                .map(|r| r.label.clone())
                .unwrap_or_else(|| "message".into());
            Some((name(*to), format!("message {label} from {}", name(*from))))
        }
        StepKind::Timer { node } => Some((name(*node), "timer".to_string())),
        StepKind::Fault(f) => Some((
            "-".to_string(),
            format!("fault: {}", describe_fault(net, f)),
        )),
        StepKind::Sample => Some(("-".to_string(), "metrics sample".to_string())),
        StepKind::Skipped => None,
    }
}
