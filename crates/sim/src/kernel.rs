//! The kernel and the contract of the models it drives ([`Model`]). The kernel owns simulated
//! time, the event queue, the network and its randomness, the trace hash, the log and the metric
//! store. Models are sans-I/O: they react to a delivered message, a timer or a node state change
//! by mutating their own state and asking the [`Kernel`] to send messages or arm timers. Only the
//! kernel moves time and messages. The two name each other (a model acts through
//! `&mut Kernel<Self>`, the kernel queues the model's messages and timers), so they share a file.

use std::collections::BTreeMap;

use crate::fault::{Fault, LinkChange};
use crate::log::{EventLog, Level, LogEntry};
use crate::metrics::MetricStore;
use crate::network::{Network, NodeId, NodeState};
use crate::queue::EventQueue;
use crate::rng::SimRng;
use crate::time::{SimDuration, SimTime};
use crate::trace::{TraceEncode, TraceHasher};

/// Linux's minimum TCP retransmission timeout (`TCP_RTO_MIN`, 200 ms): with sub-millisecond
/// round trips inside a data centre, the first retransmission comes this long after a loss.
pub const TCP_RTO_MIN: SimDuration = SimDuration::from_millis(200);

/// Linux's maximum TCP retransmission timeout (`TCP_RTO_MAX`, 120 s).
pub const TCP_RTO_MAX: SimDuration = SimDuration::from_secs(120);

/// Linux's `net.ipv4.tcp_retries2` default (15): retransmissions before TCP breaks the
/// connection (about 15 minutes of backoff).
pub const TCP_RETRIES2: u32 = 15;

/// Most log entries kept in memory.
pub const LOG_CAPACITY: usize = 20_000;

/// A simulated system driven by the kernel.
pub trait Model: Clone + Sized {
    /// A message between nodes (a batch, if the system batches per connection).
    type Msg: Clone + TraceEncode;
    /// A timer payload.
    type Timer: Clone + TraceEncode;

    /// Called once when the world is built: arm the first timers.
    fn init(&mut self, k: &mut Kernel<Self>);

    /// A message from `from` reached `to`.
    fn on_message(&mut self, k: &mut Kernel<Self>, from: NodeId, to: NodeId, msg: Self::Msg);

    /// A timer armed by `node` fired.
    fn on_timer(&mut self, k: &mut Kernel<Self>, node: NodeId, timer: Self::Timer);

    /// A node was killed, restarted, paused or resumed.
    fn on_node_state(&mut self, k: &mut Kernel<Self>, node: NodeId, state: NodeState);

    /// Links changed (partition, heal, loss). Connection-oriented models use this to notice
    /// broken connections. Default: nothing.
    fn on_links_changed(&mut self, _k: &mut Kernel<Self>) {}

    /// Names of the metric series this model samples.
    fn metric_names(&self) -> Vec<String>;

    /// One sample of every series, in `metric_names` order.
    fn sample_metrics(&self, now: SimTime, out: &mut Vec<f64>);

    /// A short label for a message, for the message log and the space-time diagram (only
    /// called while message recording is on).
    fn describe_msg(_msg: &Self::Msg) -> String {
        "message".to_string()
    }

    /// Checks safety invariants; an `Err` names the violated property and what broke it.
    fn check_invariants(&self) -> Result<(), String> {
        Ok(())
    }
}

/// A pending event.
#[derive(Clone)]
pub enum Event<M: Model> {
    /// A message arrives.
    Deliver {
        /// When it was sent (for the space-time diagram).
        sent: SimTime,
        /// Sender.
        from: NodeId,
        /// Receiver.
        to: NodeId,
        /// Payload.
        msg: M::Msg,
        /// It reached a paused receiver and waited in its socket buffer: a link cut after
        /// that cannot lose it any more (only the receiver's death can).
        arrived: bool,
    },
    /// A timer fires.
    Timer {
        /// Owner of the timer.
        node: NodeId,
        /// The owner's incarnation when armed; a restart makes older timers stale.
        incarnation: u32,
        /// Payload.
        timer: M::Timer,
    },
    /// A scheduled fault.
    Fault(Fault),
    /// Take a metrics sample.
    Sample,
}

/// What one processed event was, for step-by-step UIs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// A message was handled by `to`.
    Message {
        /// Sender.
        from: NodeId,
        /// Receiver.
        to: NodeId,
    },
    /// A timer of `node` fired.
    Timer {
        /// Owner.
        node: NodeId,
    },
    /// A fault was applied.
    Fault(Fault),
    /// Metrics were sampled.
    Sample,
    /// The event was dropped (crashed receiver, cut link, stale timer) or held (paused node).
    Skipped,
}

/// Kernel state. `Clone` gives a snapshot for rewind.
#[derive(Clone)]
pub struct Kernel<M: Model> {
    now: SimTime,
    queue: EventQueue<Event<M>>,
    /// Nodes and links.
    pub net: Network,
    net_rng: SimRng,
    seed: u64,
    hasher: TraceHasher,
    processed: u64,
    /// Notable events in the systems' own wording.
    pub log: EventLog,
    /// Sampled metrics.
    pub metrics: MetricStore,
    sample_every: SimDuration,
    held: Vec<Event<M>>,
    /// Recent deliveries, when recording is on (see `record_messages`).
    pub messages: crate::message_trace::MessageTrace,
    /// Latest delivery time scheduled per ordered connection (see `send_ordered`).
    fifo_last: BTreeMap<(NodeId, NodeId), SimTime>,
    /// Every link fault scheduled so far, by time: a retransmission meets the link as it will
    /// be when it is sent, so a loss that heals lets the retries through.
    link_plan: Vec<(SimTime, Fault)>,
}

impl<M: Model> Kernel<M> {
    /// A kernel at time zero.
    pub fn new(seed: u64, net: Network, sample_every: SimDuration) -> Self {
        Kernel {
            now: SimTime::ZERO,
            queue: EventQueue::default(),
            net,
            net_rng: SimRng::stream(seed, "network"),
            seed,
            hasher: TraceHasher::default(),
            processed: 0,
            log: EventLog::new(LOG_CAPACITY),
            metrics: MetricStore::default(),
            sample_every: if sample_every.0 == 0 {
                SimDuration::from_secs(1)
            } else {
                sample_every
            },
            held: Vec::new(),
            fifo_last: BTreeMap::new(),
            link_plan: Vec::new(),
            messages: crate::message_trace::MessageTrace::default(),
        }
    }

    /// Current simulated time.
    pub fn now(&self) -> SimTime {
        self.now
    }

    /// The run's seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// A fresh RNG stream for a component, derived from the run's seed.
    pub fn rng_stream(&self, component: &str) -> SimRng {
        SimRng::stream(self.seed, component)
    }

    /// Events processed so far.
    pub fn processed(&self) -> u64 {
        self.processed
    }

    /// The trace hash so far.
    pub fn trace_hash(&self) -> u64 {
        self.hasher.finish()
    }

    /// Pending events.
    pub fn pending(&self) -> usize {
        self.queue.len()
    }

    /// Time of the next pending event.
    pub fn next_event_time(&self) -> Option<SimTime> {
        self.queue.peek_time()
    }

    /// True if `from` can currently send to `to`: both up (or paused) and the link not cut.
    /// Models use it to emulate a connection failing.
    pub fn reachable(&self, from: NodeId, to: NodeId) -> bool {
        self.net.node(to).state != NodeState::Crashed
            && self.net.node(from).state != NodeState::Crashed
            && self.net.link(from, to).up
    }

    /// Sends `msg` over the network: it may be lost or delayed by the link's state.
    ///
    /// Takes `impl Into` so a sub-model (TiKV inside the full stack) can send its own message
    /// type through a kernel whose message type wraps it.
    pub fn send(&mut self, from: NodeId, to: NodeId, msg: impl Into<M::Msg>) {
        self.transmit(from, to, msg.into(), false);
    }

    /// Sends `msg` over an ordered connection (a gRPC stream over TCP): like [`Kernel::send`],
    /// but never delivered before an earlier ordered message from `from` to `to`.
    pub fn send_ordered(&mut self, from: NodeId, to: NodeId, msg: impl Into<M::Msg>) {
        self.transmit(from, to, msg.into(), true);
    }

    fn transmit(&mut self, from: NodeId, to: NodeId, msg: M::Msg, ordered: bool) {
        let link = self.net.link(from, to);
        let loss_ppm = link.loss_ppm as u64;
        let mut retransmit_delay = 0;
        if loss_ppm > 0 && self.net_rng.chance(loss_ppm, 1_000_000) {
            if !ordered {
                return;
            }
            match self.retransmissions(from, to) {
                Some(d) => retransmit_delay = d,
                None => return,
            }
        }
        let (lo, hi) = self.net.base_delay;
        let delay =
            self.net_rng.range(lo.0, hi.0.max(lo.0 + 1)) + link.extra_delay.0 + retransmit_delay;
        let mut at = self.now.plus(SimDuration(delay));
        if ordered {
            let last = self.fifo_last.entry((from, to)).or_insert(SimTime::ZERO);
            at = at.max(*last);
            *last = at;
        }
        let sent = self.now;
        self.queue.push(
            at,
            Event::Deliver {
                sent,
                from,
                to,
                msg,
                arrived: false,
            },
        );
    }

    /// How much later a lost segment of an ordered connection gets through: TCP retransmits
    /// it after the retransmission timeout, doubling the timeout on each further loss, so a
    /// stream delays a lost message (and, being ordered, everything behind it) rather than
    /// dropping it. Each retry meets the link as the scheduled faults will have left it then
    /// (a cut loses every try; a heal lets the next one through). `None` once TCP would give
    /// up and break the connection.
    fn retransmissions(&mut self, from: NodeId, to: NodeId) -> Option<u64> {
        let mut rto = TCP_RTO_MIN.0;
        let mut waited = 0;
        for _ in 0..TCP_RETRIES2 {
            waited += rto;
            rto = (rto * 2).min(TCP_RTO_MAX.0);
            let loss = self.loss_ppm_at(from, to, self.now.plus(SimDuration(waited)));
            if loss == 0 || !self.net_rng.chance(loss, 1_000_000) {
                return Some(waited);
            }
        }
        None
    }

    /// The share of `from -> to` packets lost at `t` (a cut link loses all), from the link's
    /// state now and the link faults scheduled up to `t`.
    fn loss_ppm_at(&self, from: NodeId, to: NodeId, t: SimTime) -> u64 {
        let mut link = self.net.link(from, to);
        for (at, fault) in &self.link_plan {
            if *at <= self.now {
                continue;
            }
            if *at > t {
                break;
            }
            if let Fault::Links {
                from: f,
                to: tt,
                both_ways,
                change,
            } = fault
            {
                let hits = (f.contains(&from) && tt.contains(&to))
                    || (*both_ways && f.contains(&to) && tt.contains(&from));
                if hits {
                    apply_change(&mut link, *change);
                }
            }
        }
        if link.up {
            link.loss_ppm as u64
        } else {
            1_000_000
        }
    }

    /// Arms a timer for `node` after `after`.
    pub fn set_timer(&mut self, node: NodeId, after: SimDuration, timer: impl Into<M::Timer>) {
        let timer = timer.into();
        let incarnation = self.net.node(node).incarnation;
        self.queue.push(
            self.now.plus(after),
            Event::Timer {
                node,
                incarnation,
                timer,
            },
        );
    }

    /// Schedules a fault at an absolute time (not before now).
    pub fn schedule_fault(&mut self, at: SimTime, fault: Fault) {
        let at = at.max(self.now);
        if matches!(fault, Fault::Links { .. }) {
            // Stable by time: faults at the same instant apply in the order scheduled.
            let i = self.link_plan.partition_point(|(t, _)| *t <= at);
            self.link_plan.insert(i, (at, fault.clone()));
        }
        self.queue.push(at, Event::Fault(fault));
    }

    /// Writes a log entry.
    pub fn log(
        &mut self,
        node: Option<NodeId>,
        level: Level,
        message: &'static str,
        detail: String,
    ) {
        // A log line is part of what a run shows: two runs that differ only in a decision that
        // sends nothing (a broadcast that wakes no one, a counter) still differ in their logs.
        let node_word = node.map_or(u64::MAX, |n| n.0 as u64);
        self.fold(4, node_word, level as u64, &|h| {
            h.bytes(message.as_bytes());
            h.bytes(detail.as_bytes());
        });
        self.log.push(LogEntry {
            at: self.now,
            node,
            level,
            message,
            detail,
        });
    }

    pub(crate) fn init_metrics(&mut self, names: Vec<String>) {
        self.metrics = MetricStore::new(names);
        self.queue.push(self.now, Event::Sample);
    }

    pub(crate) fn pop(&mut self) -> Option<(SimTime, u64, Event<M>)> {
        let (at, seq, ev) = self.queue.pop()?;
        self.now = at;
        self.processed += 1;
        Some((at, seq, ev))
    }

    pub(crate) fn advance_to(&mut self, t: SimTime) {
        if t > self.now {
            self.now = t;
        }
    }

    pub(crate) fn fold(&mut self, tag: u64, a: u64, b: u64, payload: &dyn Fn(&mut TraceHasher)) {
        self.hasher.word(self.now.0);
        self.hasher.word(tag);
        self.hasher.word(a);
        self.hasher.word(b);
        payload(&mut self.hasher);
    }

    pub(crate) fn hold(&mut self, ev: Event<M>) {
        self.held.push(ev);
    }

    pub(crate) fn schedule_sample(&mut self) {
        let at = self.now.plus(self.sample_every);
        self.queue.push(at, Event::Sample);
    }

    /// Applies a fault to node or link state; returns the nodes whose state changed.
    pub(crate) fn apply_fault(&mut self, fault: &Fault) -> Option<(NodeId, NodeState)> {
        let detail = crate::fault_words::describe_fault(&self.net, fault);
        self.log(None, Level::Warn, "fault injected", detail);
        match fault {
            Fault::Crash(n) => self.set_state(*n, NodeState::Crashed),
            Fault::Restart(n) => self.set_state(*n, NodeState::Up),
            Fault::Pause(n) => self.set_state(*n, NodeState::Paused),
            Fault::Resume(n) => self.set_state(*n, NodeState::Up),
            Fault::Links {
                from,
                to,
                both_ways,
                change,
            } => {
                for a in from {
                    for b in to {
                        if a == b {
                            continue;
                        }
                        self.net.update_link(*a, *b, |l| apply_change(l, *change));
                        if *both_ways {
                            self.net.update_link(*b, *a, |l| apply_change(l, *change));
                        }
                    }
                }
                None
            }
        }
    }

    fn set_state(&mut self, n: NodeId, new: NodeState) -> Option<(NodeId, NodeState)> {
        let old = self.net.node(n).state;
        let legal = matches!(
            (old, new),
            (NodeState::Up, NodeState::Crashed)
                | (NodeState::Paused, NodeState::Crashed)
                | (NodeState::Crashed, NodeState::Up)
                | (NodeState::Up, NodeState::Paused)
                | (NodeState::Paused, NodeState::Up)
        );
        if !legal {
            return None;
        }
        let info = self.net.node_mut(n);
        info.state = new;
        if new == NodeState::Crashed {
            info.incarnation += 1;
        }
        if old == NodeState::Paused {
            // Release what waited for this node, in arrival order, at the current instant.
            let (mine, others): (Vec<_>, Vec<_>) = std::mem::take(&mut self.held)
                .into_iter()
                .partition(|ev| event_node(ev) == Some(n));
            self.held = others;
            if new == NodeState::Up {
                for ev in mine {
                    self.queue.push(self.now, ev);
                }
            }
        }
        Some((n, new))
    }
}

/// The node an event is addressed to.
pub(crate) fn event_node<M: Model>(ev: &Event<M>) -> Option<NodeId> {
    match ev {
        Event::Deliver { to, .. } => Some(*to),
        Event::Timer { node, .. } => Some(*node),
        _ => None,
    }
}

fn apply_change(l: &mut crate::network::LinkState, change: LinkChange) {
    match change {
        LinkChange::Cut => l.up = false,
        LinkChange::Restore => *l = crate::network::LinkState::HEALTHY,
        LinkChange::LossPpm(p) => l.loss_ppm = p.min(1_000_000),
        LinkChange::Delay(d) => l.extra_delay = d,
    }
}

impl<M: Model> Event<M> {
    pub(crate) fn encode_payload(&self, h: &mut TraceHasher) {
        match self {
            Event::Deliver { msg, .. } => msg.encode(h),
            Event::Timer { timer, .. } => timer.encode(h),
            Event::Fault(f) => f.encode(h),
            Event::Sample => {}
        }
    }
}
