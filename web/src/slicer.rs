//! Running a simulation in short slices of wall-clock time, so the browser can paint and
//! handle input between slices.
//!
//! Slicing never changes the result: events are processed in the same order whatever the
//! slice boundaries, so the trace hash equals an uninterrupted native run.

/// Events run between two clock reads; reading the clock per event would cost more than
/// small events do.
const EVENTS_PER_CHECK: u64 = 256;

/// Something that can advance by at most `max_events` and say whether it is done.
pub trait Steppable {
    /// Runs up to `max_events` events; returns true when the run has reached its end.
    fn step_events(&mut self, max_events: u64) -> bool;
}

/// Runs `sim` until it finishes or `budget_ms` of wall time (read by `now_ms`) have passed.
/// Returns true when the run finished.
pub fn run_for<S: Steppable>(sim: &mut S, budget_ms: f64, now_ms: impl Fn() -> f64) -> bool {
    let start = now_ms();
    loop {
        if sim.step_events(EVENTS_PER_CHECK) {
            return true;
        }
        if now_ms() - start >= budget_ms {
            return false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    struct Counter {
        left: u64,
    }

    impl Steppable for Counter {
        fn step_events(&mut self, max: u64) -> bool {
            self.left = self.left.saturating_sub(max);
            self.left == 0
        }
    }

    #[test]
    fn stops_on_budget_then_finishes_later() {
        let mut c = Counter { left: 10_000 };
        let clock = Cell::new(0.0);
        // Each clock read advances 1 ms, so a 3 ms budget allows a few chunks only.
        let tick = || {
            clock.set(clock.get() + 1.0);
            clock.get()
        };
        assert!(!run_for(&mut c, 3.0, tick));
        assert!(c.left > 0);
        assert!(run_for(&mut c, f64::INFINITY, || 0.0));
    }
}
