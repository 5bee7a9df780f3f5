//! A per-region event trace for one watched region: GroupState changes, messages its peers
//! handled, StoreUnreachable broadcasts that reached them. The UI's region panel and the
//! tikv#14547 message-level test read it. Off by default; costs one comparison per event.

use crate::cluster::Cluster;
use crate::ids::PeerId;
use crate::msg::Kind;
use crate::store::hibernate::GroupState;

/// Most events kept for the watched region.
pub const WATCH_CAPACITY: usize = 10_000;

/// What happened to a peer of the watched region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WatchWhat {
    /// GroupState changed.
    Group {
        /// Before.
        from: GroupState,
        /// After.
        to: GroupState,
    },
    /// The peer handled a raft message.
    Handled {
        /// Message type.
        kind: Kind,
        /// Sender slot.
        from_slot: u8,
        /// Sender's store (0-based).
        from_store: u32,
        /// Message term.
        term: u64,
    },
    /// Its store broadcast StoreUnreachable for `store` (0-based) to it.
    Unreachable {
        /// The unreachable store.
        store: u32,
    },
    /// It became leader.
    BecameLeader {
        /// Term.
        term: u64,
    },
}

/// One event of the watched region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WatchEvent {
    /// Simulated time (µs).
    pub at: u64,
    /// Replica slot.
    pub slot: u8,
    /// Store of the peer (0-based).
    pub store: u32,
    /// What.
    pub what: WatchWhat,
}

impl Cluster {
    /// Starts recording events of `region` (replacing any previous watch).
    pub fn watch_region(&mut self, region: u32) {
        self.watched = Some(region);
        self.watch_log.clear();
    }

    /// Recorded events of the watched region, oldest first.
    pub fn watch_events(&self) -> &[WatchEvent] {
        &self.watch_log
    }

    pub(crate) fn watch(&mut self, pid: PeerId, what: WatchWhat) {
        if self.watched != Some(pid.region(self.replicas).0)
            || self.watch_log.len() >= WATCH_CAPACITY
        {
            return;
        }
        self.watch_log.push(WatchEvent {
            at: self.now,
            slot: pid.slot(self.replicas),
            store: self.slot_store[pid.ix()] as u32,
            what,
        });
    }
}
