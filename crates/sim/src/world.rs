//! A `World` is a kernel plus a model: the whole simulated universe. Cloning it is a snapshot.

use crate::kernel::{Event, Kernel, Model, StepKind};
use crate::network::{Network, NodeId, NodeState};
use crate::time::{SimDuration, SimTime};

/// The simulated universe.
#[derive(Clone)]
pub struct World<M: Model> {
    /// Time, queue, network, trace, log and metrics.
    pub kernel: Kernel<M>,
    /// The simulated system.
    pub model: M,
    /// First invariant violation seen, with its time; the run stops checking after one.
    pub violation: Option<(SimTime, String)>,
    check_invariants: bool,
}

impl<M: Model> World<M> {
    /// Builds a world and lets the model arm its first timers.
    pub fn new(mut model: M, seed: u64, net: Network, sample_every: SimDuration) -> Self {
        let mut kernel = Kernel::new(seed, net, sample_every);
        kernel.init_metrics(model.metric_names());
        model.init(&mut kernel);
        World {
            kernel,
            model,
            violation: None,
            check_invariants: true,
        }
    }

    /// Turns per-step invariant checking on or off (benchmarks turn it off).
    pub fn set_check_invariants(&mut self, on: bool) {
        self.check_invariants = on;
    }

    /// Current simulated time.
    pub fn now(&self) -> SimTime {
        self.kernel.now()
    }

    /// True when every event at or before `t` has run and the clock stands at `t` or later.
    /// The clock alone says too little: a slice that ends on its event budget in the middle
    /// of one instant's events already reads that instant with some of them still queued.
    pub fn has_run_through(&self, t: SimTime) -> bool {
        self.now() >= t && self.kernel.next_event_time().is_none_or(|next| next > t)
    }

    /// The trace hash so far.
    pub fn trace_hash(&self) -> u64 {
        self.kernel.trace_hash()
    }

    /// Processes the next event. Returns `None` when nothing is pending.
    pub fn step(&mut self) -> Option<(SimTime, StepKind)> {
        let (at, _seq, ev) = self.kernel.pop()?;
        let kind = self.dispatch(ev);
        if self.check_invariants && self.violation.is_none() {
            if let Err(e) = self.model.check_invariants() {
                self.violation = Some((at, e));
            }
        }
        Some((at, kind))
    }

    fn dispatch(&mut self, ev: Event<M>) -> StepKind {
        match ev {
            Event::Deliver {
                sent,
                from,
                to,
                msg,
                arrived,
            } => self.deliver(sent, from, to, msg, arrived),
            Event::Timer {
                node,
                incarnation,
                timer,
            } => self.fire(node, incarnation, timer),
            Event::Fault(fault) => {
                let k = &mut self.kernel;
                let ev = Event::<M>::Fault(fault.clone());
                k.fold(3, 0, 0, &|h| ev.encode_payload(h));
                let changed = k.apply_fault(&fault);
                match changed {
                    Some((n, s)) => self.model.on_node_state(k, n, s),
                    None => {
                        if matches!(fault, crate::fault::Fault::Links { .. }) {
                            self.model.on_links_changed(k)
                        }
                    }
                }
                StepKind::Fault(fault)
            }
            Event::Sample => {
                let k = &mut self.kernel;
                let mut row = Vec::with_capacity(k.metrics.names().len());
                self.model.sample_metrics(k.now(), &mut row);
                // The sampled series are part of what a run shows (a metric can move on a
                // decision that sends nothing), so they are part of its trace.
                k.fold(5, row.len() as u64, 0, &|h| {
                    for v in &row {
                        h.word(v.to_bits());
                    }
                });
                let now = k.now();
                k.metrics.record(now, row);
                k.schedule_sample();
                StepKind::Sample
            }
        }
    }

    /// A message arrives at `to`: held while `to` is paused, lost to a crashed receiver or a
    /// cut link, else handed to the model.
    fn deliver(
        &mut self,
        sent: SimTime,
        from: NodeId,
        to: NodeId,
        msg: M::Msg,
        arrived: bool,
    ) -> StepKind {
        let k = &mut self.kernel;
        let state = k.net.node(to).state;
        if state == NodeState::Paused {
            k.hold(Event::Deliver {
                sent,
                from,
                to,
                msg,
                arrived: true,
            });
            return StepKind::Skipped;
        }
        // A message already on the wire arrives even if its sender died meanwhile
        // (that late delivery is the tikv#14547 race); a crashed receiver or a cut link
        // loses it. One that already reached a paused receiver's socket is not lost by a
        // cut made while it waited.
        if state == NodeState::Crashed || (!arrived && !k.net.link(from, to).up) {
            return StepKind::Skipped;
        }
        k.fold(1, from.0 as u64, to.0 as u64, &|h| {
            crate::trace::TraceEncode::encode(&msg, h)
        });
        if k.messages.enabled() {
            let label = M::describe_msg(&msg);
            let now = k.now();
            k.messages.record(sent, now, from, to, label);
        }
        self.model.on_message(k, from, to, msg);
        StepKind::Message { from, to }
    }

    /// A timer of `node` fires: stale after a restart, lost with a crashed node, held while
    /// it is paused, else handed to the model.
    fn fire(&mut self, node: NodeId, incarnation: u32, timer: M::Timer) -> StepKind {
        let k = &mut self.kernel;
        let info = k.net.node(node);
        if info.incarnation != incarnation || info.state == NodeState::Crashed {
            return StepKind::Skipped;
        }
        if info.state == NodeState::Paused {
            k.hold(Event::Timer {
                node,
                incarnation,
                timer,
            });
            return StepKind::Skipped;
        }
        k.fold(2, node.0 as u64, 0, &|h| {
            crate::trace::TraceEncode::encode(&timer, h)
        });
        self.model.on_timer(k, node, timer);
        StepKind::Timer { node }
    }

    /// Processes every event up to and including `until`, then sets the clock to `until`.
    pub fn run_until(&mut self, until: SimTime) {
        while let Some(t) = self.kernel.next_event_time() {
            if t > until {
                break;
            }
            self.step();
        }
        self.kernel.advance_to(until);
    }

    /// Like `run_until`, but stops after `max_events` events; returns true when `until` was
    /// reached. The browser uses it to run in short slices.
    pub fn run_slice(&mut self, until: SimTime, max_events: u64) -> bool {
        for _ in 0..max_events {
            match self.kernel.next_event_time() {
                Some(t) if t <= until => {
                    self.step();
                }
                _ => {
                    self.kernel.advance_to(until);
                    return true;
                }
            }
        }
        false
    }

    /// The network (node names and states, links).
    pub fn network(&self) -> &Network {
        &self.kernel.net
    }
}
