//! A leader applies PD's membership changes: a replica on a dead store replaced (replica
//! repair), or a replica on a live store moved to another store (balance-region and the
//! drain of an Offline store).

use faultline_sim::{Kernel, Level};

use crate::hibernate::GroupState;
use crate::host::TikvHost;
use crate::ids::{PeerId, RegionId};
use crate::raft::Peer;
use crate::Cluster;

/// Why PD changes a region's membership.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Change {
    /// The replica's store is dead (PD's replica checker, `checkDownPeer`).
    Replace,
    /// The replica's store is alive (PD's `CreateMovePeerOperator`).
    Move,
}

impl Cluster {
    /// The leader on store `s` applies PD's change of `region`'s replica in `slot` to a new
    /// replica on `target`. Simplified: the membership change takes effect at once (no
    /// learner, no joint consensus, no conf-change entry); the new replica starts empty and
    /// gets a snapshot from the leader; a moved replica's old peer is destroyed at once
    /// (upstream once it applies its removal or learns it from a tombstone message).
    pub(crate) fn change_peer<H: TikvHost>(
        &mut self,
        k: &mut Kernel<H>,
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
        if stale || self.has_replica_on(region, target) {
            return;
        }
        if !self.rest_hold_every_commit(pid, slot) {
            let detail =
                format!("region_id={region} slot={slot} reason=\"a remaining replica lags\"");
            k.log(
                Some(self.store_nodes[s]),
                Level::Info,
                "peer change deferred",
                detail,
            );
            return;
        }
        if self.store_live[old_store] {
            self.destroy_peer(old, old_store);
        }
        self.stores[old_store].peers.retain(|q| *q != old);
        // A dead store's peers were left out of the GroupState counts when it crashed.
        self.slot_store[old.ix()] = target as u8;
        // Upstream the move is an add and a remove, each a conf change that bumps `conf_ver`.
        self.epochs[region as usize].conf_ver += 2;
        self.peers[old.ix()] = Peer::empty();
        self.book.group_counts[GroupState::Ordered as usize] += 1;
        self.stores[target].peers.push(old);
        let p = &mut self.peers[pid.ix()];
        p.matched[slot as usize] = 0;
        p.next[slot as usize] = p.log.last_index + 1;
        self.wake_leader(pid);
        self.send_append(pid, slot);
        let what = match change {
            Change::Replace => "add peer by pd",
            Change::Move => "move peer by pd",
        };
        let detail = format!(
            "region_id={region} from_store={} to_store={}",
            old_store + 1,
            target + 1
        );
        k.log(Some(self.store_nodes[s]), Level::Info, what, detail);
    }

    /// Whether the leader `pid` and the followers other than `slot` form a quorum of the
    /// region that holds every committed entry. Upstream the new replica is a learner until it
    /// caught up and only then replaces the old one (PD's move-peer and replace-down-peer
    /// operators: add learner, promote, remove), so the region never depends on an empty
    /// voter. The model swaps at once, and so only when the replicas that stay already hold
    /// every committed entry: otherwise an entry committed with the replica being replaced
    /// could be left on the leader alone (explore found exactly that: a new leader lacking a
    /// committed entry after the old leader died).
    fn rest_hold_every_commit(&self, pid: PeerId, slot: u8) -> bool {
        let p = &self.peers[pid.ix()];
        let own = pid.slot(self.replicas);
        let caught_up = (0..self.replicas as u8)
            .filter(|sl| *sl != own && *sl != slot)
            .filter(|sl| p.matched[*sl as usize] >= p.log.commit)
            .count();
        1 + caught_up > self.replicas as usize / 2
    }

    /// Whether `region` has a replica on store `s`.
    pub(crate) fn has_replica_on(&self, region: u32, s: usize) -> bool {
        (0..self.replicas as u8).any(|sl| {
            self.slot_store[PeerId::of(RegionId(region), sl, self.replicas).ix()] as usize == s
        })
    }

    /// A live store drops a peer it no longer hosts: out of its tick list and the counts.
    fn destroy_peer(&mut self, pid: PeerId, s: usize) {
        let p = &self.peers[pid.ix()];
        self.book.group_counts[p.group as usize] -= 1;
        if p.awake {
            self.book.awake_peers -= 1;
        }
        self.stores[s].awake.retain(|q| *q != pid);
    }
}
