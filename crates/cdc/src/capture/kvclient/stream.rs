//! One gRPC stream to a store: its pending regions, its region worker and its receive loop.
//!
//! Real TiCDC runs the receive loop and the region worker as two goroutines; here each is a
//! flag plus timers for the moments they exit, so the interleaving is explicit and seeded.

use std::collections::BTreeMap;
use std::num::NonZeroU64;

use super::region_map::RegionMap;

/// The region worker of a stream.
#[derive(Clone, Debug, Default)]
pub struct Worker {
    /// Still running.
    pub alive: bool,
    /// Exit already scheduled (it became empty or the stream failed).
    pub exiting: bool,
    /// Regions it processes: region -> request id. Looked up for every event the stream
    /// brings (64,000 a second per store at full scale), so kept by region id, 8 bytes a
    /// slot (request ids start at 1).
    pub regions: RegionMap<NonZeroU64>,
    /// Regions the receive loop handed to it after it exited (nobody reads them).
    pub handed_after_exit: Vec<(u32, u64)>,
}

/// A stream to one store.
#[derive(Clone, Debug)]
pub struct Stream {
    /// Generation, unique per client; stale events carry an older one.
    pub generation: u64,
    /// Requests sent, first event not yet received: region -> request id.
    pub pending: BTreeMap<u32, u64>,
    /// The region worker.
    pub worker: Worker,
    /// The receive loop still runs.
    pub recv_alive: bool,
    /// Receive loop exit already scheduled.
    pub recv_exiting: bool,
}

impl Stream {
    /// A freshly connected stream.
    pub fn new(generation: u64) -> Self {
        Stream {
            generation,
            pending: BTreeMap::new(),
            worker: Worker {
                alive: true,
                ..Worker::default()
            },
            recv_alive: true,
            recv_exiting: false,
        }
    }

    /// True once teardown has begun: new requests wait for the next stream.
    pub fn closing(&self) -> bool {
        !self.worker.alive || self.worker.exiting || !self.recv_alive || self.recv_exiting
    }
}
