//! A per-region event trace for one watched region: GroupState changes, messages its peers
//! handled, StoreUnreachable broadcasts that reached them. The UI's region panel and the
//! tikv#14547 message-level test read it. Off by default; costs one comparison per event.

use crate::cluster::Cluster;
use crate::ids::PeerId;
use crate::observe::state::WatchEvent;
use crate::observe::state::WatchWhat;
use crate::observe::state::WATCH_CAPACITY;

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
