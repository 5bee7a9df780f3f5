//! Faultline's deterministic simulation kernel.
//!
//! Simulated time ([`SimTime`]), events ordered by (time, sequence), one seeded ChaCha8 RNG
//! stream per component ([`SimRng`]), a network of named nodes with per-direction link state
//! ([`Network`]), faults scheduled as events ([`Fault`]), and a 64-bit trace hash over every
//! processed event. It knows nothing about TiKV or TiCDC: those are [`Model`]s.

mod cache_lines;
pub mod cow_vec;
pub mod fault;
pub mod fault_words;
pub mod heap;
pub mod kernel;
pub mod knob;
pub mod log;
pub mod message_trace;
pub mod metrics;
pub mod network;
pub mod network_knobs;
pub mod per_second;
pub mod queue;
pub mod reach;
pub mod rng;
pub mod time;
pub mod trace;
pub mod world;

pub use cow_vec::CowVec;
pub use fault::{Fault, LinkChange};
pub use fault_words::describe_fault;
pub use kernel::{Event, Kernel, Model, StepKind};
pub use knob::{Knob, KnobUnit};
pub use log::{EventLog, Level, LogEntry};
pub use message_trace::{MessageRecord, MessageTrace};
pub use metrics::MetricStore;
pub use network::{LinkState, Network, NodeId, NodeInfo, NodeState};
pub use per_second::PerSecond;
pub use reach::Reach;
pub use rng::{stable_hash, SimRng};
pub use time::{parse_duration, SimDuration, SimTime};
pub use trace::{format_hash, TraceEncode, TraceHasher};
pub use world::World;
