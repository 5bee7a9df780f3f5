//! Periodic copies of a run, so rewinding costs a replay of at most one interval instead of
//! a replay from t = 0.
//!
//! Memory is capped: when there are more than `max` snapshots, every other one is dropped
//! (the first, t = 0, always stays) and the interval doubles, so the snapshots stay spread
//! over the whole run.

use faultline_scenario::Run;
use faultline_sim::SimTime;

/// Simulated time between snapshots at the start.
pub const FIRST_INTERVAL_US: u64 = 10_000_000;

/// The snapshots of one run, ordered by time.
#[derive(Clone)]
pub struct Snapshots {
    every_us: u64,
    max: usize,
    items: Vec<Run>,
}

impl Snapshots {
    /// Starts with `first` (normally the freshly built run at t = 0). The interval starts at
    /// [`FIRST_INTERVAL_US`] or at the run's length over `max`, whichever is longer: a full-scale
    /// world takes most of a second to copy, and copies later thinned away were wasted (a seek
    /// from 30 s to 6 min used to take 13 copies and keep 5; now it takes 2).
    pub fn new(first: &Run, max: usize) -> Snapshots {
        let max = max.max(2);
        let end_us = first.end().as_micros();
        Snapshots {
            every_us: FIRST_INTERVAL_US.max(end_us / max as u64),
            max,
            items: vec![first.clone()],
        }
    }

    /// How many snapshots are kept for a world of `regions` regions: a big cluster's world is
    /// large, so it gets fewer copies.
    pub fn budget_for(regions: u32) -> usize {
        match regions {
            0..=20_000 => 40,
            20_001..=100_000 => 12,
            _ => 6,
        }
    }

    /// Takes a copy of `run` if the newest snapshot is at least one interval older. Rewinding
    /// can leave later snapshots in place (the run is deterministic, they stay valid), so
    /// this only ever appends past the newest one.
    pub fn maybe_take(&mut self, run: &Run) {
        let newest = self.items.last().map_or(0, |r| r.now().as_micros());
        if run.now().as_micros() < newest + self.every_us {
            return;
        }
        self.items.push(run.clone());
        if self.items.len() > self.max {
            let mut i = 0;
            self.items.retain(|_| {
                i += 1;
                i % 2 == 1
            });
            self.every_us *= 2;
        }
    }

    /// The latest snapshot at or before `t`.
    pub fn at_or_before(&self, t: SimTime) -> Option<&Run> {
        self.items.iter().rev().find(|r| r.now() <= t)
    }

    /// How many snapshots are held.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Never true: the t = 0 snapshot is always kept.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}
