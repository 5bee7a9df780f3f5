//! Helpers shared by the integration tests.
#![allow(dead_code)]

use faultline_sim::{Network, SimDuration, SimTime, World};
use faultline_tikv::{Cluster, TikvConfig};

/// A world with the TiKV model; 1-2 ms network delay, metrics every second.
pub fn world(cfg: &TikvConfig, seed: u64) -> World<Cluster> {
    let mut net = Network::new((SimDuration::from_millis(1), SimDuration::from_millis(2)));
    let cluster = Cluster::new(cfg, &mut net);
    World::new(cluster, seed, net, SimDuration::from_secs(1))
}

/// Seconds as a `SimTime`.
pub fn at(secs: u64) -> SimTime {
    SimTime(secs * 1_000_000)
}

/// Runs to `secs`, panicking with the seed on an invariant violation.
pub fn run_to(w: &mut World<Cluster>, secs: u64, seed: u64) {
    w.run_until(at(secs));
    if let Some((t, v)) = &w.violation {
        panic!("invariant violated at {t:?} (seed {seed}): {v}");
    }
}

/// Last sample of a series.
pub fn last(w: &World<Cluster>, name: &str) -> f64 {
    w.kernel
        .metrics
        .last(name)
        .unwrap_or_else(|| panic!("no series {name}"))
}
