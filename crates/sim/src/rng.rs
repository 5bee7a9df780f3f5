//! The one random number generator of the simulation.
//!
//! ChaCha8 (rand_chacha) has a documented, value-stable output stream on every platform, so a
//! seed gives the same numbers natively and in wasm. Each component draws from its own stream
//! (same seed, a stream id derived from the component's name), so adding draws in one component
//! does not shift the numbers another sees. Ranges are drawn by our own rejection sampling over
//! `next_u64` so a change in rand's sampling algorithms can never change a run.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

/// A seeded, deterministic random stream.
#[derive(Clone, Debug)]
pub struct SimRng {
    inner: ChaCha8Rng,
}

impl SimRng {
    /// The stream named `component` under `seed`.
    pub fn stream(seed: u64, component: &str) -> Self {
        let mut inner = ChaCha8Rng::seed_from_u64(seed);
        inner.set_stream(stable_hash(component.as_bytes()));
        SimRng { inner }
    }

    /// A raw 64-bit draw.
    pub fn next_u64(&mut self) -> u64 {
        self.inner.next_u64()
    }

    /// Uniform in `[0, n)`; `n == 0` gives 0.
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        // Rejection sampling: discard the top sliver that would bias the modulo.
        let zone = u64::MAX - (u64::MAX % n);
        loop {
            let v = self.next_u64();
            if v < zone {
                return v % n;
            }
        }
    }

    /// Uniform in `[lo, hi)`; returns `lo` when the range is empty.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        if hi <= lo {
            return lo;
        }
        lo + self.below(hi - lo)
    }

    /// True with probability `num / den` (integer ratio, as TigerBeetle does, so no float
    /// rounding can differ between platforms).
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        if num == 0 || den == 0 {
            return false;
        }
        num >= den || self.below(den) < num
    }
}

/// FNV-1a over bytes: a fixed, documented hash used for stream ids and names.
pub fn stable_hash(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= *b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream_different_names_differ() {
        let mut a = SimRng::stream(7, "net");
        let mut b = SimRng::stream(7, "net");
        let mut c = SimRng::stream(7, "raft");
        let xa: Vec<u64> = (0..8).map(|_| a.next_u64()).collect();
        let xb: Vec<u64> = (0..8).map(|_| b.next_u64()).collect();
        let xc: Vec<u64> = (0..8).map(|_| c.next_u64()).collect();
        assert_eq!(xa, xb);
        assert_ne!(xa, xc);
    }

    #[test]
    fn value_stable_stream() {
        // Pinned: if this changes, every share link replays differently. Bump the link version.
        let mut r = SimRng::stream(42, "pinned");
        let got: Vec<u64> = (0..3).map(|_| r.below(1000)).collect();
        assert_eq!(got, [107, 476, 673]);
    }

    #[test]
    fn ranges_stay_in_bounds() {
        let mut r = SimRng::stream(1, "bounds");
        for _ in 0..1000 {
            let v = r.range(10, 20);
            assert!((10..20).contains(&v));
        }
        assert_eq!(r.range(5, 5), 5);
        assert!(!r.chance(0, 10));
        assert!(r.chance(10, 10));
    }
}
