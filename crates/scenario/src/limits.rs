//! Hard limits on the sizes of a scenario's lists and text, so no file or link can make the
//! simulator (or a browser tab) run out of memory. Error messages quote these numbers. The
//! ranges of the parameters (stores, regions, replicas, rates, timings) are not here: each is
//! part of its knob's definition in the crate that models it (`faultline_tikv::knobs`,
//! `faultline_cdc::knobs`, `faultline_sim::network_knobs`).

/// Largest scenario file, in bytes.
pub const MAX_SOURCE_BYTES: usize = 1 << 20;
/// Longest run.
pub const MAX_DURATION_SECS: u64 = 24 * 3600;
/// Most faults in a script.
pub const MAX_FAULTS: usize = 256;
/// Most expectations.
pub const MAX_EXPECTATIONS: usize = 64;
/// Most key metrics a scenario's `[view]` names (the charts that come first).
pub const MAX_KEY_METRICS: usize = 8;
/// Most guide steps.
pub const MAX_GUIDE_STEPS: usize = 64;
/// Longest name, in characters.
pub const MAX_NAME_CHARS: usize = 200;
/// Longest description or caption, in characters.
pub const MAX_TEXT_CHARS: usize = 4_000;
/// Longest network delay.
pub const MAX_DELAY_SECS: u64 = 60;
/// Most changefeeds.
pub const MAX_CHANGEFEEDS: usize = 16;
