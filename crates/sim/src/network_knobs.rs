//! The network's knobs: the base one-way latency every message gets, uniform in
//! `[delay_min, delay_max)` (see [`crate::Network::new`]).

use crate::knob::Knob;
use crate::time::SimDuration;

/// Longest base delay a scenario may ask for.
const MAX_DELAY: SimDuration = SimDuration::from_secs(60);

/// `network.delay_min`.
pub const DELAY_MIN: Knob = Knob::duration(
    "network.delay_min",
    SimDuration::from_micros(500),
    SimDuration::ZERO,
    MAX_DELAY,
    "Shortest one-way delay of every message.",
);

/// `network.delay_max`.
pub const DELAY_MAX: Knob = Knob::duration(
    "network.delay_max",
    SimDuration::from_millis(2),
    SimDuration::from_micros(1),
    MAX_DELAY,
    "Longest one-way delay (exclusive); must exceed delay_min.",
);

/// Both, in the order of the format reference.
pub const ALL: &[Knob] = &[DELAY_MIN, DELAY_MAX];
