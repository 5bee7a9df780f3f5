//! The client's retry sleeps, after client-go's `Backoffer` (`config/retry/config.go`:
//! `newBackoffFn`, and the `Bo*` configs below; `config/retry/backoff.go`, `Backoffer.Backoff`).
//! Each kind keeps its own attempt count; the sleep is `min(cap, base * 2^attempts)`, halved
//! and topped up at random for EqualJitter. The sum of sleeps is checked against the phase's
//! budget (`txnkv/transaction/2pc.go`: `PrewriteMaxBackoff` = 40 s).

use faultline_sim::SimRng;

/// A reason to back off, each with client-go's `(base ms, cap ms, equal jitter)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackoffKind {
    /// `BoTiKVRPC` (100, 2000, EqualJitter): the request timed out or could not be sent
    /// (`RegionRequestSender.onSendFail`).
    TikvRpc,
    /// `BoRegionScheduling` (2, 500, NoJitter): NotLeader without a leader hint
    /// (`RegionRequestSender.onRegionError`).
    RegionScheduling,
    /// `BoStaleCmd` (2, 1000, NoJitter): the proposal's entry was overwritten.
    StaleCmd,
    /// `BoRegionMiss` (2, 500, NoJitter): the region cache has no leader for the region.
    RegionMiss,
    /// `BoPDRPC` (500, 3000, EqualJitter): a PD request failed (a region load timed out).
    PdRpc,
}

impl BackoffKind {
    fn config(self) -> (u64, u64, bool) {
        match self {
            BackoffKind::TikvRpc => (100, 2_000, true),
            BackoffKind::RegionScheduling => (2, 500, false),
            BackoffKind::StaleCmd => (2, 1_000, false),
            BackoffKind::RegionMiss => (2, 500, false),
            BackoffKind::PdRpc => (500, 3_000, true),
        }
    }
}

/// `PrewriteMaxBackoff`: total sleep after which a prewrite gives up (ms).
pub const PREWRITE_MAX_BACKOFF_MS: u64 = 40_000;
/// `client.ReadTimeoutShort`: how long a prewrite or commit request waits for its answer.
pub const READ_TIMEOUT_SHORT_MS: u64 = 30_000;

/// Attempts per kind and the total slept, for one transaction phase.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Backoffer {
    attempts: [u32; 5],
    /// Milliseconds slept so far.
    pub slept_ms: u64,
}

impl Backoffer {
    /// The next sleep for `kind`, in milliseconds; counts it.
    pub fn next_sleep_ms(&mut self, kind: BackoffKind, rng: &mut SimRng) -> u64 {
        let (base, cap, equal_jitter) = kind.config();
        let n = &mut self.attempts[kind as usize];
        let expo = base.saturating_mul(1 << (*n).min(30)).min(cap);
        *n += 1;
        let sleep = if equal_jitter {
            expo / 2 + rng.below((expo / 2).max(1))
        } else {
            expo
        };
        self.slept_ms += sleep;
        sleep
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sleeps_double_up_to_the_cap_per_kind() {
        let mut rng = SimRng::stream(1, "test");
        let mut b = Backoffer::default();
        let s: Vec<u64> = (0..10)
            .map(|_| b.next_sleep_ms(BackoffKind::RegionScheduling, &mut rng))
            .collect();
        assert_eq!(s, [2, 4, 8, 16, 32, 64, 128, 256, 500, 500]);
        let rpc = b.next_sleep_ms(BackoffKind::TikvRpc, &mut rng);
        assert!(
            (50..100).contains(&rpc),
            "first BoTiKVRPC sleep is 100/2 + jitter: {rpc}"
        );
        assert_eq!(b.slept_ms, s.iter().sum::<u64>() + rpc);
    }
}
