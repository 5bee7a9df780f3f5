//! Progress for a reader without a terminal: a CI log, a file, a job a timeout will kill. The
//! bars of [`crate::progress`] draw only on a terminal, so without one a long run printed
//! nothing until it ended, and a run killed half-way left no trace of how far it got. Here one
//! plain line goes to stderr now and then instead.
//!
//! Wall-clock time decides only when a line is printed; it never reaches the simulation.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Wall time between two lines.
const EVERY: Duration = Duration::from_secs(10);

/// Overrides [`EVERY`], in seconds (`0`: a line at every step); the tests use it to see
/// lines without waiting.
const EVERY_VAR: &str = "FAULTLINE_PROGRESS_SECS";

/// Prints a line on stderr at most once per interval, and only when stderr is no terminal
/// (where a bar shows progress instead).
pub struct PlainProgress {
    enabled: bool,
    every: Duration,
    started: Instant,
    last: Mutex<Instant>,
}

impl PlainProgress {
    /// Starts the clock; the first line comes one interval from now.
    pub fn new() -> PlainProgress {
        let every = std::env::var(EVERY_VAR)
            .ok()
            .and_then(|v| v.parse::<u64>().ok())
            .map_or(EVERY, Duration::from_secs);
        let now = Instant::now();
        PlainProgress {
            enabled: !std::io::stderr().is_terminal(),
            every,
            started: now,
            last: Mutex::new(now),
        }
    }

    /// Prints `faultline: {line(elapsed)}` if an interval has passed since the last line;
    /// `line` is called only then. Safe to call from worker threads.
    pub fn tick(&self, line: impl FnOnce(Duration) -> String) {
        if !self.enabled {
            return;
        }
        let now = Instant::now();
        let Ok(mut last) = self.last.lock() else {
            return;
        };
        if now.duration_since(*last) < self.every {
            return;
        }
        *last = now;
        let elapsed = now.duration_since(self.started);
        crate::out::warn(&format!("faultline: {}", line(elapsed)));
    }
}

/// `37%` of `done` out of `total`, rounded down (`total` 0 reads as done).
pub fn percent(done: u64, total: u64) -> u64 {
    if total == 0 {
        return 100;
    }
    (u128::from(done) * 100 / u128::from(total)) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_rounds_down_and_never_divides_by_zero() {
        assert_eq!(percent(1, 3), 33);
        assert_eq!(percent(3, 3), 100);
        assert_eq!(percent(0, 0), 100);
        assert_eq!(percent(u64::MAX, u64::MAX), 100);
    }
}
