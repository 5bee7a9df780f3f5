//! A changefeed's state transitions, as the owner's feed state manager makes them (tiflow
//! `cdc/owner/feed_state_manager.go`: `handleError`, the retry in `tick` once the backoff
//! elapsed, and the way back from `warning` once the checkpoint moves past
//! `lastErrorRetryCheckpointTs`). Pure transitions on [`FeedLifecycle`]; `owner_loop.rs`
//! logs them and closes or starts the sink they ask for.

use faultline_sim::{SimDuration, SimRng, SimTime};

use crate::config::BackoffConfig;
use crate::owner::lifecycle::{FeedLifecycle, FeedStatus, SinkState};
use crate::ts::Ts;

/// What a failed changefeed's tick decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Retry {
    /// Its old sink is still closing, or its backoff has not elapsed.
    Wait,
    /// It failed for too long: `Failed`, never restarted.
    GiveUp,
    /// Restarted (`Warning`); the retry after this one waits `next`.
    Restart {
        /// The next backoff interval.
        next: SimDuration,
    },
}

impl FeedLifecycle {
    /// `handleError`: the changefeed goes to `Error` with `err`, its backoff starts on the
    /// first error of a run of them, and its sink is released. Returns true when a sink close
    /// begins (never twice: a closed or closing sink is left alone).
    pub fn on_error(
        &mut self,
        err: String,
        cfg: &BackoffConfig,
        now: SimTime,
        rng: &mut SimRng,
    ) -> bool {
        self.status = FeedStatus::Error;
        self.error = Some(err);
        if !self.retrying {
            self.backoff.reset(cfg, now, rng);
            self.last_retry = None;
            self.retrying = true;
        }
        self.begin_close().is_ok()
    }

    /// A failed changefeed's tick at `now`: once its old sink is closed and its backoff
    /// elapsed, it is restarted from `checkpoint` (`Warning`), or given up on (`Failed`)
    /// after failing for too long.
    pub fn retry(
        &mut self,
        cfg: &BackoffConfig,
        now: SimTime,
        rng: &mut SimRng,
        checkpoint: Ts,
    ) -> Retry {
        if self.sink == SinkState::Closing {
            return Retry::Wait;
        }
        let due = self
            .last_retry
            .is_none_or(|t| now.since(t) >= self.backoff.interval);
        if !due {
            return Retry::Wait;
        }
        match self.backoff.next(cfg, now, rng) {
            None => {
                self.status = FeedStatus::Failed;
                Retry::GiveUp
            }
            Some(next) => {
                self.backoff.interval = next;
                self.last_retry = Some(now);
                self.status = FeedStatus::Warning;
                self.retry_checkpoint = checkpoint;
                Retry::Restart { next }
            }
        }
    }

    /// A restarted changefeed whose checkpoint moved past where the retry started is
    /// `Normal` again, its error and retry run cleared. Returns true when that happened.
    pub fn maybe_recover(&mut self, checkpoint: Ts) -> bool {
        if self.status != FeedStatus::Warning || checkpoint <= self.retry_checkpoint {
            return false;
        }
        self.status = FeedStatus::Normal;
        self.retrying = false;
        self.error = None;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: u64) -> SimTime {
        SimTime(s * 1_000_000)
    }

    /// A normal changefeed with a running sink.
    fn running() -> FeedLifecycle {
        FeedLifecycle {
            sink: SinkState::Running,
            ..FeedLifecycle::default()
        }
    }

    #[test]
    fn an_error_fails_the_changefeed_and_closes_its_sink_once() {
        let cfg = BackoffConfig::default();
        let mut rng = SimRng::stream(1, "test");
        // (sink before, close begins, sink after)
        let cases = [
            (SinkState::Running, true, SinkState::Closing),
            (SinkState::Closing, false, SinkState::Closing),
            (SinkState::Closed, false, SinkState::Closed),
        ];
        for (before, closes, after) in cases {
            let mut f = FeedLifecycle {
                sink: before,
                ..FeedLifecycle::default()
            };
            assert_eq!(f.on_error("boom".into(), &cfg, secs(5), &mut rng), closes);
            assert_eq!((f.status, f.sink), (FeedStatus::Error, after), "{before:?}");
            assert_eq!(f.error.as_deref(), Some("boom"));
            assert!(f.retrying && f.last_retry.is_none(), "a retry run starts");
        }
    }

    #[test]
    fn a_second_error_of_a_retry_run_keeps_its_backoff() {
        let cfg = BackoffConfig::default();
        let mut rng = SimRng::stream(1, "test");
        let mut f = running();
        f.on_error("first".into(), &cfg, secs(0), &mut rng);
        f.finish_close();
        assert!(matches!(
            f.retry(&cfg, secs(1), &mut rng, Ts(7)),
            Retry::Restart { .. }
        ));
        let (interval, last) = (f.backoff.interval, f.last_retry);
        f.sink = SinkState::Running;
        f.on_error("second".into(), &cfg, secs(2), &mut rng);
        assert_eq!((f.backoff.interval, f.last_retry), (interval, last));
    }

    #[test]
    fn a_failed_changefeed_waits_for_its_close_and_backoff_then_restarts_or_gives_up() {
        let cfg = BackoffConfig::default();
        let mut rng = SimRng::stream(1, "test");
        let mut f = running();
        f.on_error("boom".into(), &cfg, secs(0), &mut rng);
        assert_eq!(
            f.retry(&cfg, secs(1), &mut rng, Ts(7)),
            Retry::Wait,
            "sink closing"
        );
        f.finish_close();
        let Retry::Restart { next } = f.retry(&cfg, secs(1), &mut rng, Ts(7)) else {
            panic!("the first retry goes at once");
        };
        assert_eq!((f.status, f.retry_checkpoint), (FeedStatus::Warning, Ts(7)));
        let next_s = next.0.div_ceil(1_000_000);
        assert_eq!(
            f.retry(&cfg, secs(1), &mut rng, Ts(7)),
            Retry::Wait,
            "backoff"
        );
        let due = secs(1 + next_s);
        assert!(matches!(
            f.retry(&cfg, due, &mut rng, Ts(7)),
            Retry::Restart { .. }
        ));
        let late = secs(cfg.max_elapsed.0 / 1_000_000 + 3_600);
        assert_eq!(f.retry(&cfg, late, &mut rng, Ts(7)), Retry::GiveUp);
        assert_eq!(f.status, FeedStatus::Failed);
    }

    #[test]
    fn a_restarted_changefeed_is_normal_once_its_checkpoint_passes_the_retry_point() {
        // (status, checkpoint against a retry point of 10, recovers)
        let cases = [
            (FeedStatus::Warning, Ts(10), false),
            (FeedStatus::Warning, Ts(11), true),
            (FeedStatus::Error, Ts(11), false),
            (FeedStatus::Normal, Ts(11), false),
        ];
        for (status, cp, recovers) in cases {
            let mut f = FeedLifecycle {
                status,
                retrying: true,
                retry_checkpoint: Ts(10),
                error: Some("boom".into()),
                ..FeedLifecycle::default()
            };
            assert_eq!(f.maybe_recover(cp), recovers, "{status:?} at {cp:?}");
            if recovers {
                assert_eq!(f.status, FeedStatus::Normal);
                assert!(!f.retrying && f.error.is_none());
            } else {
                assert_eq!(f.status, status);
            }
        }
    }
}
