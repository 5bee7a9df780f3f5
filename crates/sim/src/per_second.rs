//! A counter of events per whole simulated second that keeps only what a "per second" metric
//! sample needs: the count of the current second and of the one before it. A map of every
//! second would grow with the run; this is two numbers.

use crate::SimTime;

/// Counts per whole simulated second, for metrics that report the last complete second.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PerSecond {
    /// The second `current` counts.
    sec: u64,
    current: u64,
    /// The count of second `sec - 1`.
    previous: u64,
}

impl PerSecond {
    /// Adds `n` events at `now`. Times never go back in a run, so a new second only rolls
    /// forward.
    pub fn add(&mut self, now: SimTime, n: u64) {
        let sec = now.as_micros() / 1_000_000;
        if sec != self.sec {
            self.previous = if sec == self.sec + 1 { self.current } else { 0 };
            self.current = 0;
            self.sec = sec;
        }
        self.current += n;
    }

    /// The count of the whole second before `now`'s (what a sample at `now` reports).
    pub fn last_second(&self, now: SimTime) -> u64 {
        let sec = now.as_micros() / 1_000_000;
        if sec == self.sec {
            self.previous
        } else if sec == self.sec + 1 {
            self.current
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(ms: u64) -> SimTime {
        SimTime(ms * 1_000)
    }

    #[test]
    fn a_sample_reports_the_whole_second_before_it() {
        let mut c = PerSecond::default();
        c.add(at(1_100), 2);
        c.add(at(1_900), 3);
        c.add(at(2_050), 7);
        // At 2.5 s the last whole second is [1 s, 2 s): 5 events; the 7 at 2.05 s come later.
        assert_eq!(c.last_second(at(2_500)), 5);
        assert_eq!(c.last_second(at(3_000)), 7);
    }

    #[test]
    fn quiet_seconds_count_zero() {
        let mut c = PerSecond::default();
        c.add(at(1_500), 4);
        assert_eq!(
            c.last_second(at(3_200)),
            0,
            "nothing happened in [2 s, 3 s)"
        );
        c.add(at(5_000), 1);
        assert_eq!(
            c.last_second(at(5_500)),
            0,
            "the 4 at 1.5 s are not in [4 s, 5 s)"
        );
        assert_eq!(c.last_second(at(6_000)), 1);
    }
}
