//! TiDB timestamps (TSO): physical milliseconds << 18 | logical counter.

use faultline_sim::SimTime;

/// A TSO timestamp.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ts(pub u64);

/// Bits of the logical part.
pub const LOGICAL_BITS: u32 = 18;

/// The simulated run starts at this physical time (2023-08-16, the seed report's day), so
/// timestamps look like the real ones in logs.
pub const EPOCH_MS: u64 = 1_692_215_141_280;

impl Ts {
    /// The zero timestamp.
    pub const ZERO: Ts = Ts(0);

    /// The timestamp of physical time `t` with logical part `logical`.
    pub fn at(t: SimTime, logical: u64) -> Ts {
        Ts(((EPOCH_MS + t.0 / 1_000) << LOGICAL_BITS) | (logical & ((1 << LOGICAL_BITS) - 1)))
    }

    /// The simulated instant of the physical part.
    pub fn sim_time(self) -> SimTime {
        SimTime(((self.0 >> LOGICAL_BITS).saturating_sub(EPOCH_MS)) * 1_000)
    }

    /// Lag of this watermark at `now`, in seconds (0 if it is ahead).
    pub fn lag_secs(self, now: SimTime) -> f64 {
        if self == Ts::ZERO {
            return now.as_secs_f64();
        }
        now.since(self.sim_time()).as_secs_f64()
    }
}

/// PD's timestamp oracle: strictly increasing timestamps from simulated time.
#[derive(Clone, Debug, Default)]
pub struct Tso {
    last: Ts,
}

impl Tso {
    /// A fresh timestamp at `now`, strictly greater than every earlier one.
    pub fn next(&mut self, now: SimTime) -> Ts {
        let candidate = Ts::at(now, 0);
        self.last = if candidate > self.last {
            candidate
        } else {
            Ts(self.last.0 + 1)
        };
        self.last
    }

    /// `count` (at least one) consecutive fresh timestamps at `now`; returns the first. PD
    /// answers a batched `TsoRequest` this way (tikv/pd `pkg/tso/tso.go`
    /// `getTimestamp(count)`: the logical part advances by `count`).
    pub fn next_batch(&mut self, now: SimTime, count: u32) -> Ts {
        let first = self.next(now);
        self.last = Ts(first.0 + u64::from(count.max(1)) - 1);
        first
    }

    /// The current timestamp without allocating one (for resolved ts).
    pub fn peek(&self, now: SimTime) -> Ts {
        Ts::at(now, 0).max(self.last)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strictly_increasing_and_maps_back_to_time() {
        let mut tso = Tso::default();
        let a = tso.next(SimTime(5_000_000));
        let b = tso.next(SimTime(5_000_000));
        assert!(b > a);
        assert_eq!(a.sim_time(), SimTime(5_000_000));
        assert_eq!(a.lag_secs(SimTime(7_000_000)), 2.0);
    }

    #[test]
    fn a_batch_takes_consecutive_timestamps_and_the_next_one_follows_it() {
        let mut tso = Tso::default();
        let first = tso.next_batch(SimTime(1_000), 3);
        let after = tso.next(SimTime(1_000));
        assert_eq!(after, Ts(first.0 + 3));
    }
}
