//! Lifecycle states of changefeeds, their sinks and their processors (tiflow#4241, seed 003),
//! the owner's exponential backoff before restarting a failed changefeed, and [`Lifecycle`],
//! all of them together with the owner loop's progress (driven by `owner_loop.rs`).
//!
//! The states and their numeric codes (the `changefeed_state.<cf>`, `sink_state.<cf>` and
//! `processor_state.<cf>.<capture>` metrics) are documented in docs/scenario-format.md.

use faultline_sim::{SimDuration, SimRng, SimTime};

/// Prefix of the per-changefeed state metric, `changefeed_state.<cf>` ([`FeedStatus::code`]):
/// the owner loop records it and explore's liveness check reads it.
pub const CHANGEFEED_STATE_METRIC: &str = "changefeed_state.";

use crate::config::BackoffConfig;
use crate::ids::CfIx;
use crate::ts::Ts;

/// A changefeed's state as `cdc cli changefeed list` shows it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum FeedStatus {
    /// Replicating.
    #[default]
    Normal,
    /// Restarted after an error; back to `Normal` once the checkpoint passes the retry point.
    Warning,
    /// Stopped by an error, waiting for the backoff to elapse (TiCDC 7.x calls this
    /// `pending` internally; 5.x/6.x showed `error`).
    Error,
    /// Retried for longer than `changefeed-error-stuck-duration`: not restarted any more.
    Failed,
    /// Paused by the user.
    Stopped,
    /// Reached its target ts.
    Finished,
}

impl FeedStatus {
    /// Every state, in code order.
    pub const ALL: [FeedStatus; 6] = [
        FeedStatus::Normal,
        FeedStatus::Warning,
        FeedStatus::Error,
        FeedStatus::Failed,
        FeedStatus::Stopped,
        FeedStatus::Finished,
    ];

    /// The numeric code of the `changefeed_state` metric.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The name `cdc cli` prints.
    pub fn name(self) -> &'static str {
        match self {
            FeedStatus::Normal => "normal",
            FeedStatus::Warning => "warning",
            FeedStatus::Error => "error",
            FeedStatus::Failed => "failed",
            FeedStatus::Stopped => "stopped",
            FeedStatus::Finished => "finished",
        }
    }

    /// True when the changefeed should be replicating (its sink and processors running).
    pub fn should_run(self) -> bool {
        matches!(self, FeedStatus::Normal | FeedStatus::Warning)
    }
}

/// The owner-side sink of a changefeed (the seed PR's `changeFeedRunningStatus`):
/// Closed -> Running -> Closing -> Closed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum SinkState {
    /// No sink (never initialised, or fully closed).
    #[default]
    Closed,
    /// Initialised and writing.
    Running,
    /// Being closed; it cannot be re-initialised or closed again until `Closed`.
    Closing,
}

impl SinkState {
    /// Every state, in code order.
    pub const ALL: [SinkState; 3] = [SinkState::Closed, SinkState::Running, SinkState::Closing];

    /// The numeric code of the `sink_state` metric.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// A lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            SinkState::Closed => "closed",
            SinkState::Running => "running",
            SinkState::Closing => "closing",
        }
    }
}

/// A processor's sink manager (the seed PR's `processorRunningStatus`):
/// Closed -> Initializing -> Running -> Closing -> Closed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum ProcessorState {
    /// No sink manager.
    #[default]
    Closed,
    /// The sink manager is being created; no table pipelines yet.
    Initializing,
    /// Tables replicate.
    Running,
    /// The sink manager is being closed.
    Closing,
}

impl ProcessorState {
    /// Every state, in code order.
    pub const ALL: [ProcessorState; 4] = [
        ProcessorState::Closed,
        ProcessorState::Initializing,
        ProcessorState::Running,
        ProcessorState::Closing,
    ];

    /// The numeric code of the `processor_state` metric.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// A lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            ProcessorState::Closed => "closed",
            ProcessorState::Initializing => "initializing",
            ProcessorState::Running => "running",
            ProcessorState::Closing => "closing",
        }
    }
}

/// Why a lifecycle request was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// The sink is still closing: re-initialising now would run two sinks, closing again
    /// would close the clients twice.
    Closing,
    /// Already in the requested state.
    AlreadyThere,
}

/// The owner's lifecycle state of one changefeed.
#[derive(Clone, Debug, Default)]
pub struct FeedLifecycle {
    /// Changefeed state.
    pub status: FeedStatus,
    /// Owner-side sink state.
    pub sink: SinkState,
    /// Last error, as `cdc cli` shows it.
    pub error: Option<String>,
    /// An error reported by a processor and not yet handled by the owner (the processor
    /// writes it to etcd; the owner reads it on its next tick).
    pub pending_error: Option<String>,
    /// Backoff between retries.
    pub backoff: ErrBackoff,
    /// True from the first error until the checkpoint advances after a retry.
    pub retrying: bool,
    /// Checkpoint when the last retry started (`lastErrorRetryCheckpointTs`).
    pub retry_checkpoint: Ts,
    /// When the last retry started (`lastErrorRetryTime`); `None` = retry at once.
    pub last_retry: Option<SimTime>,
    /// Times the sink was closed (a double close would be a bug; tests check it).
    pub closes: u32,
    /// Last checkpoint emitted to a Kafka topic's partitions.
    pub emitted_checkpoint: Ts,
}

impl FeedLifecycle {
    /// Closed -> Running. Refused while `Closing` (the seed PR's guard) or when running.
    pub fn start_sink(&mut self) -> Result<(), Refused> {
        match self.sink {
            SinkState::Closed => {
                self.sink = SinkState::Running;
                Ok(())
            }
            SinkState::Closing => Err(Refused::Closing),
            SinkState::Running => Err(Refused::AlreadyThere),
        }
    }

    /// Running -> Closing. Refused unless running, so a sink is never closed twice.
    pub fn begin_close(&mut self) -> Result<(), Refused> {
        match self.sink {
            SinkState::Running => {
                self.sink = SinkState::Closing;
                self.closes += 1;
                Ok(())
            }
            SinkState::Closing => Err(Refused::Closing),
            SinkState::Closed => Err(Refused::AlreadyThere),
        }
    }

    /// Closing -> Closed.
    pub fn finish_close(&mut self) {
        if self.sink == SinkState::Closing {
            self.sink = SinkState::Closed;
        }
    }
}

/// `cenkalti/backoff`'s ExponentialBackOff as TiCDC configures it: each interval is the
/// current one randomised by +-10 %, then the current one doubles up to 10 min; after
/// `max_elapsed` since the reset it says stop.
#[derive(Clone, Debug, Default)]
pub struct ErrBackoff {
    current: SimDuration,
    started: SimTime,
    /// Interval before the next retry.
    pub interval: SimDuration,
}

impl ErrBackoff {
    /// Starts over at the initial interval (`resetErrRetry`).
    pub fn reset(&mut self, cfg: &BackoffConfig, now: SimTime, rng: &mut SimRng) {
        self.current = cfg.initial;
        self.started = now;
        self.interval = self.next(cfg, now, rng).unwrap_or(cfg.initial);
    }

    /// The next interval, or `None` once `max_elapsed` has passed since the reset.
    pub fn next(
        &mut self,
        cfg: &BackoffConfig,
        now: SimTime,
        rng: &mut SimRng,
    ) -> Option<SimDuration> {
        if now.since(self.started) > cfg.max_elapsed {
            return None;
        }
        let cur = self.current.0;
        let delta = cur * cfg.jitter_percent / 100;
        let interval = SimDuration(rng.range(cur - delta, cur + delta + 1));
        self.current = SimDuration((cur * cfg.multiplier).min(cfg.max.0));
        Some(interval)
    }
}

/// The owner loop's progress through one pass.
#[derive(Clone, Debug)]
pub(crate) struct Pass {
    /// The owner capture's node running the pass.
    pub(crate) node: faultline_sim::NodeId,
    /// When the pass began.
    pub(crate) started: SimTime,
    /// The changefeed to tick next.
    pub(crate) next_cf: usize,
    /// When the current changefeed's tick began.
    pub(crate) cf_started: SimTime,
}

/// One capture's processor manager (tiflow `cdc/processor/manager.go`): its processors'
/// states and whether it waits for a sync close.
#[derive(Clone, Debug)]
pub struct ProcessorManager {
    /// Per changefeed, the state of this capture's processor.
    pub states: Vec<ProcessorState>,
    /// The manager waits for a sync producer close and ticks no processor meanwhile.
    pub blocked: bool,
}

/// Lifecycle state of the owner, changefeeds and processors.
#[derive(Clone, Debug)]
pub struct Lifecycle {
    /// Per changefeed, its lifecycle as the owner sees it (its watermarks are `Cdc.watermarks`).
    pub feeds: Vec<FeedLifecycle>,
    /// Per capture, its processor manager.
    pub managers: Vec<ProcessorManager>,
    /// Duration of the last finished owner pass.
    pub last_owner_tick: SimDuration,
    /// Longest owner pass so far.
    pub max_owner_tick: SimDuration,
    pub(crate) pass: Option<Pass>,
    /// Changefeed whose tick is waiting for a sync close.
    pub(crate) blocked_on: Option<CfIx>,
    pub(crate) rng: SimRng,
}

impl Lifecycle {
    /// Every changefeed Normal with a running sink, every processor Running: the model starts
    /// with the changefeeds already initialised.
    pub fn new(captures: usize, changefeeds: usize, seed: u64) -> Self {
        let feed = FeedLifecycle {
            sink: SinkState::Running,
            ..FeedLifecycle::default()
        };
        Lifecycle {
            feeds: vec![feed; changefeeds],
            managers: vec![
                ProcessorManager {
                    states: vec![ProcessorState::Running; changefeeds],
                    blocked: false,
                };
                captures
            ],
            last_owner_tick: SimDuration::ZERO,
            max_owner_tick: SimDuration::ZERO,
            pass: None,
            blocked_on: None,
            rng: SimRng::stream(seed, "cdc.backoff"),
        }
    }

    /// How long the current owner pass has run (or the last one took, between passes).
    pub fn owner_tick_duration(&self, now: SimTime) -> SimDuration {
        match &self.pass {
            Some(p) => now.since(p.started),
            None => self.last_owner_tick,
        }
    }

    /// True while the owner waits for a sync close.
    pub fn owner_blocked(&self) -> bool {
        self.blocked_on.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closing_sink_cannot_be_reinitialised_or_closed_twice() {
        let mut f = FeedLifecycle::default();
        assert_eq!(f.start_sink(), Ok(()));
        assert_eq!(f.begin_close(), Ok(()));
        assert_eq!(f.start_sink(), Err(Refused::Closing));
        assert_eq!(f.begin_close(), Err(Refused::Closing));
        assert_eq!(f.closes, 1);
        f.finish_close();
        assert_eq!(f.sink, SinkState::Closed);
        assert_eq!(f.start_sink(), Ok(()));
    }

    #[derive(Clone, Copy, Debug)]
    enum Request {
        Start,
        BeginClose,
        FinishClose,
    }

    #[test]
    fn every_sink_transition_from_every_state() {
        use Request::*;
        use SinkState::*;
        // (from, request, answer, to, closes counted)
        let cases = [
            (Closed, Start, Ok(()), Running, 0),
            (Closed, BeginClose, Err(Refused::AlreadyThere), Closed, 0),
            (Closed, FinishClose, Ok(()), Closed, 0),
            (Running, Start, Err(Refused::AlreadyThere), Running, 0),
            (Running, BeginClose, Ok(()), Closing, 1),
            (Running, FinishClose, Ok(()), Running, 0),
            (Closing, Start, Err(Refused::Closing), Closing, 0),
            (Closing, BeginClose, Err(Refused::Closing), Closing, 0),
            (Closing, FinishClose, Ok(()), Closed, 0),
        ];
        for (from, request, answer, to, closes) in cases {
            let mut f = FeedLifecycle {
                sink: from,
                ..FeedLifecycle::default()
            };
            let got = match request {
                Start => f.start_sink(),
                BeginClose => f.begin_close(),
                FinishClose => {
                    f.finish_close();
                    Ok(())
                }
            };
            assert_eq!(got, answer, "{from:?} {request:?}");
            assert_eq!(f.sink, to, "{from:?} {request:?}");
            assert_eq!(f.closes, closes, "{from:?} {request:?}");
        }
    }

    #[test]
    fn backoff_doubles_with_jitter_up_to_the_cap_then_stops() {
        let cfg = BackoffConfig::default();
        let mut rng = SimRng::stream(1, "test");
        let mut b = ErrBackoff::default();
        b.reset(&cfg, SimTime::ZERO, &mut rng);
        assert!(
            (9_000_000..=11_000_000).contains(&b.interval.0),
            "{:?}",
            b.interval
        );
        let mut last = 0;
        for _ in 0..8 {
            last = b.next(&cfg, SimTime(1), &mut rng).unwrap().0;
        }
        assert!((540_000_000..=660_000_000).contains(&last), "{last}");
        assert!(b.next(&cfg, SimTime(1_801_000_000), &mut rng).is_none());
    }
}
