//! The one place the web app touches the simulation: load a scenario from a link (or the
//! default), run it in slices, read its clock and trace hash.
//!
//! TEMPORARY STUB: until `faultline-scenario` compiles, this runs a tiny ping model on the
//! kernel so the wasm pipeline can be proven end to end. The public shape matches the real
//! API so the swap only touches this file.

use crate::slicer::Steppable;
use faultline_sim::{
    Kernel, Model, Network, NodeId, NodeState, SimDuration, SimTime, TraceEncode, TraceHasher,
    World,
};

/// A scenario loaded for the page, plus what went wrong with the link, if anything.
pub struct Loaded {
    /// The run, ready to step.
    pub engine: Engine,
    /// A user-facing message when the link could not be used and the default runs instead.
    pub link_error: Option<String>,
}

/// A running scenario.
pub struct Engine {
    name: String,
    description: String,
    world: World<Ping>,
    end: SimTime,
}

/// Loads the scenario named by a URL hash (`#v1.…`, or empty for the default). A bad link
/// falls back to the default scenario with an explanation; the page is never blank.
pub fn load(hash: &str) -> Result<Loaded, String> {
    let link = hash.trim_start_matches('#');
    if link.is_empty() {
        return Ok(Loaded {
            engine: Engine::new(1),
            link_error: None,
        });
    }
    match link.strip_prefix("v1.").and_then(|s| s.parse::<u64>().ok()) {
        Some(seed) => Ok(Loaded {
            engine: Engine::new(seed),
            link_error: None,
        }),
        None => Ok(Loaded {
            engine: Engine::new(1),
            link_error: Some(format!(
                "This link could not be opened: `{link}` is not a v1 link. Showing the default scenario instead."
            )),
        }),
    }
}

impl Engine {
    fn new(seed: u64) -> Engine {
        let mut net = Network::new((SimDuration::from_millis(1), SimDuration::from_millis(5)));
        net.add_node("a", "ping");
        net.add_node("b", "ping");
        Engine {
            name: "ping (stub)".into(),
            description: "Two nodes bounce a counter until the scenario API lands.".into(),
            world: World::new(Ping, seed, net, SimDuration::from_secs(1)),
            end: SimTime(10_000_000),
        }
    }

    /// Scenario name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Scenario description.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// Simulated time reached so far.
    pub fn now(&self) -> SimTime {
        self.world.now()
    }

    /// Simulated time at which the scenario ends.
    pub fn end(&self) -> SimTime {
        self.end
    }

    /// Trace hash of the events processed so far.
    pub fn trace_hash(&self) -> u64 {
        self.world.trace_hash()
    }
}

impl Steppable for Engine {
    fn step_events(&mut self, max_events: u64) -> bool {
        self.world.run_slice(self.end, max_events)
    }
}

/// Stub model: each node answers a counter with counter + 1.
#[derive(Clone)]
struct Ping;

#[derive(Clone)]
struct Count(u64);

impl TraceEncode for Count {
    fn encode(&self, h: &mut TraceHasher) {
        h.word(self.0)
    }
}

impl Model for Ping {
    type Msg = Count;
    type Timer = ();

    fn init(&mut self, k: &mut Kernel<Self>) {
        k.set_timer(NodeId(0), SimDuration::from_millis(1), ());
    }

    fn on_message(&mut self, k: &mut Kernel<Self>, from: NodeId, to: NodeId, msg: Count) {
        k.send(to, from, Count(msg.0 + 1));
    }

    fn on_timer(&mut self, k: &mut Kernel<Self>, node: NodeId, _timer: ()) {
        k.send(node, NodeId(1), Count(0));
    }

    fn on_node_state(&mut self, _k: &mut Kernel<Self>, _node: NodeId, _state: NodeState) {}

    fn metric_names(&self) -> Vec<String> {
        Vec::new()
    }

    fn sample_metrics(&self, _now: SimTime, _out: &mut Vec<f64>) {}
}
