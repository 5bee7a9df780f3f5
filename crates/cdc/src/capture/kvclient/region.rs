//! What the KV client knows about one subscribed region.

use crate::keyspace::RegionSpan;
use crate::ts::Ts;

/// Who is responsible for a region's subscription right now. A region whose range is locked
/// must always have one; `Lost` is the state tiflow#9595 leaves a region in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    /// Waiting for a (re)request timer.
    Retrying,
    /// Request sent on a stream; waiting for the region's first event.
    Pending {
        /// Store of the stream.
        store: u32,
        /// Request id.
        request: u64,
    },
    /// Its events are processed by the stream's region worker.
    Worker {
        /// Store of the stream.
        store: u32,
        /// Request id.
        request: u64,
    },
    /// Handed to a region worker that had already exited: nobody will process or re-request
    /// it, and its range stays locked (the orphaned region of tiflow#9595).
    Lost,
}

/// A region the KV client holds a range lock for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegionTrack {
    /// The range and epoch the region had when it was tracked: what its subscription covers,
    /// and what is divided again over the regions it became if it splits.
    pub span: RegionSpan,
    /// Highest resolved ts applied (only after initialisation; never goes back).
    pub resolved: Ts,
    /// Incremental scan finished on the current subscription.
    pub initialized: bool,
    /// Who handles it.
    pub owner: Owner,
    /// Resolved-ts events in a row that did not move it (tiflow `cdc/kv/resolvedts_heap.go`,
    /// `regionTsManager.Upsert`); the lock resolver waits for ten.
    pub penalty: u32,
}

impl RegionTrack {
    /// A region covering `span`, to subscribe from `from`.
    pub fn new(span: RegionSpan, from: Ts) -> Self {
        RegionTrack {
            span,
            resolved: from,
            initialized: false,
            owner: Owner::Retrying,
            penalty: 0,
        }
    }
}
