//! What the KV client asks its host to do: requests to send, timers to arm, rows for the
//! sorter. The client itself is sans-I/O; the capture turns these into messages and timers.

use crate::change::RowChange;
use crate::keyspace::RegionSpan;
use crate::ts::Ts;

/// What the client asks its host to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KvAction {
    /// Send an EventFeed request for `region` on the stream to `store`.
    Register {
        /// Store.
        store: u32,
        /// Stream generation.
        stream: u64,
        /// Region.
        region: u32,
        /// Request id.
        request: u64,
        /// Scan from.
        checkpoint: Ts,
        /// The epoch version the region had when it was tracked.
        version: u64,
    },
    /// Arm a request timer for `region`; `backoff` says whether to wait the retry backoff.
    Retry {
        /// Region.
        region: u32,
        /// Wait the backoff first.
        backoff: bool,
    },
    /// Arm the worker-exit timer of a stream.
    WorkerExit {
        /// Store.
        store: u32,
        /// Stream generation.
        stream: u64,
    },
    /// Arm the receive-loop-exit timer of a stream.
    RecvLoopExit {
        /// Store.
        store: u32,
        /// Stream generation.
        stream: u64,
    },
    /// Committed rows for the puller's sorter.
    Rows(Vec<RowChange>),
    /// `span`'s region split: subscribe each region now holding part of it, from `from`
    /// (tiflow 7.1 `cdc/kv/client.go`, `handleError` on EpochNotMatch ->
    /// `scheduleDivideRegionAndRequest` -> `divideAndSendEventFeedToRegions`, which loads the
    /// span's regions from PD and resumes each from the range's checkpoint ts; no backoff).
    Redivide {
        /// The split region's span when it was subscribed.
        span: RegionSpan,
        /// Its resolved ts: the new subscriptions scan from here.
        from: Ts,
    },
    /// A region was orphaned (for the log).
    Orphaned {
        /// Region.
        region: u32,
    },
}
