//! A leader applies PD's replica replacement for a replica on a dead store.

use faultline_sim::{Kernel, Level};

use crate::hibernate::GroupState;
use crate::host::TikvHost;
use crate::ids::{PeerId, RegionId};
use crate::raft::Peer;
use crate::Cluster;

impl Cluster {
    /// The leader applies PD's replica replacement. Simplified: the membership change takes
    /// effect at once (no joint consensus, no conf-change entry); the new replica starts empty
    /// and gets a snapshot from the leader.
    pub(crate) fn replace_peer<H: TikvHost>(
        &mut self,
        k: &mut Kernel<H>,
        s: usize,
        region: u32,
        slot: u8,
        target: usize,
    ) {
        let Some(pid) = self.local_peer(s, region) else {
            return;
        };
        if !self.peers[pid.ix()].is_leader() || slot == pid.slot(self.replicas) {
            return;
        }
        let old = PeerId::of(RegionId(region), slot, self.replicas);
        let old_store = self.slot_store[old.ix()] as usize;
        if self.store_live[old_store]
            || (0..self.replicas as u8).any(|sl| {
                self.slot_store[PeerId::of(RegionId(region), sl, self.replicas).ix()] as usize
                    == target
            })
        {
            return;
        }
        // The old replica lived on a crashed store and was not counted in GroupState counts.
        self.slot_store[old.ix()] = target as u8;
        self.peers[old.ix()] = Peer::empty();
        self.book.group_counts[GroupState::Ordered as usize] += 1;
        self.stores[target].peers.push(old);
        let p = &mut self.peers[pid.ix()];
        p.matched[slot as usize] = 0;
        p.next[slot as usize] = p.log.last_index + 1;
        self.wake_leader(pid);
        self.send_append(pid, slot);
        k.log(
            Some(self.store_nodes[s]),
            Level::Info,
            "add peer by pd",
            format!(
                "region_id={region} from_store={} to_store={}",
                old_store + 1,
                target + 1
            ),
        );
    }
}
