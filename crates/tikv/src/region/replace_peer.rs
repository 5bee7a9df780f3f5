//! A leader takes PD's membership changes: a replica on a dead store replaced (replica
//! repair), or a replica on a live store moved to another store (balance-region and the
//! drain of an Offline store). Both go through a learner (`crate::region::learner`).

use faultline_sim::Level;

use crate::cluster::Cluster;
use crate::ids::PeerId;
use crate::ids::RegionId;
use crate::out::Cx;
use crate::raft::state::Peer;
use crate::raft::state::PeerTail;
use crate::region::state::Change;

impl Cluster {
    /// The leader on store `s` accepts PD's change of `region`'s replica in `slot` to a new
    /// replica on `target`, and starts it with a learner (`crate::region::learner`). A stale order
    /// (the store came back, the replica moved, the region already has a learner or a
    /// replica there) is dropped and PD's operator times out.
    pub(crate) fn change_peer(
        &mut self,
        cx: &mut Cx,
        s: usize,
        (region, slot, target): (u32, u8, usize),
        change: Change,
    ) {
        let Some(pid) = self.local_peer(s, region) else {
            return;
        };
        if !self.peers[pid.ix()].is_leader() || slot == pid.slot(self.replicas) {
            return;
        }
        let old = PeerId::of(RegionId(region), slot, self.replicas);
        let old_store = self.slot_store[old.ix()] as usize;
        let stale = match change {
            // The store came back: nothing to replace.
            Change::Replace => self.store_live[old_store],
            // A deposed leader of an older term still on the old store keeps its slot.
            Change::Move => old_store == target || self.peers[old.ix()].is_leader(),
        };
        let busy = self.learners.contains_key(&region) || self.conf_change_in_flight(region);
        if stale || busy || self.has_replica_on(region, target) {
            return;
        }
        self.propose_add_learner(cx, (s, pid), slot, target);
        let what = match change {
            Change::Replace => "add peer by pd",
            Change::Move => "move peer by pd",
        };
        let detail = format!(
            "region_id={region} from_store={} to_store={}",
            old_store + 1,
            target + 1
        );
        cx.out
            .log(Some(self.store_nodes[s]), Level::Info, what, detail);
    }

    /// Whether `region` has a replica (a voter or its learner) on store `s`.
    pub(crate) fn has_replica_on(&self, region: u32, s: usize) -> bool {
        let learner = self.learners.get(&region).map(|l| l.store as usize);
        learner == Some(s)
            || (0..self.replicas as u8).any(|sl| {
                self.slot_store[PeerId::of(RegionId(region), sl, self.replicas).ix()] as usize == s
            })
    }

    /// Replaces a peer and its tail by a new one in the same place; the new one probes nothing.
    pub(crate) fn put_peer(&mut self, pid: PeerId, (peer, tail): (Peer, PeerTail)) {
        self.peers[pid.ix()] = peer;
        self.tails[pid.ix()] = tail;
        self.probing[pid.ix()] = 0;
    }

    /// Store `s` drops a peer it no longer hosts: off its peer list and, if the store is live,
    /// off its tick list and out of the counts (a dead store's peers left the counts when it
    /// crashed).
    pub(crate) fn destroy_peer(&mut self, pid: PeerId, s: usize) {
        self.changes.note(pid.region(self.replicas));
        if self.store_live[s] {
            let p = &self.peers[pid.ix()];
            self.book.group_counts[p.group as usize] -= 1;
            if p.awake {
                self.book.awake_peers -= 1;
            }
            self.stores[s].awake.retain(|q| *q != pid);
        }
        self.stores[s].peers.retain(|q| *q != pid);
    }
}
