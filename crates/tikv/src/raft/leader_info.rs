//! What one store knows about its own peers' leadership, for the resolved-ts CheckLeader
//! round: the leader's store sends `(region, term)` per region to each store holding a peer,
//! and that store confirms the regions whose local peer has the same term and the same
//! leader (TiKV `components/raftstore/src/store/util.rs`,
//! `RegionReadProgressRegistry::handle_check_leaders` -> `RegionReadProgress::consume_leader_info`).
//! Region epochs are not modelled, so term and leader are the whole check.

use crate::cluster::Cluster;
use crate::ids::PeerId;
use crate::ids::RegionId;
use crate::ids::NO_SLOT;
use crate::raft::state::Role;
use crate::raft::state::MAX_REPLICAS;

impl Cluster {
    /// This store's peer of `region`, if any.
    pub(crate) fn local_peer(&self, s: usize, region: u32) -> Option<PeerId> {
        if self.merge.is_gone(region) {
            return None; // merged away: its peers were destroyed
        }
        (0..self.replicas as u8)
            .map(|sl| PeerId::of(RegionId(region), sl, self.replicas))
            .find(|p| self.slot_store[p.ix()] as usize == s)
    }

    /// Term of the local peer of `region` on `store` if it is leader: what TiKV's CDC endpoint
    /// and resolved-ts worker on that store know, not the cluster-wide truth.
    pub fn local_leader_term(&self, store: u32, region: u32) -> Option<u64> {
        if region >= self.region_count() || store as usize >= self.stores.len() {
            return None;
        }
        let pid = self.local_peer(store as usize, region)?;
        let p = &self.peers[pid.ix()];
        (p.role == Role::Leader && self.store_live[store as usize]).then_some(p.term)
    }

    /// [`Cluster::local_leader_term`] of each of `regions`, in order. The CDC endpoint of a
    /// store asks this of every region it serves each `min-ts-interval` (64,000 a store at
    /// full scale): the local peers of each block are loaded together first
    /// ([`Cluster::warm_block`]), so their cache misses overlap instead of coming one at a
    /// time.
    pub fn local_leader_terms(&self, store: u32, regions: &[u32]) -> Vec<Option<u64>> {
        let mut terms = Vec::with_capacity(regions.len());
        for (i, &region) in regions.iter().enumerate() {
            self.warm_block(regions, i, |&r| self.local_peer_checked(store, r));
            terms.push(self.local_leader_term(store, region));
        }
        terms
    }

    /// [`Cluster::confirms_leader`] of each `(region, term)` of a CheckLeader request from
    /// `leader_store`, in order, with the local peers warmed a block at a time as
    /// [`Cluster::local_leader_terms`] does.
    pub fn confirms_leaders(
        &self,
        store: u32,
        asks: &[(u32, u64)],
        leader_store: u32,
    ) -> Vec<bool> {
        let mut confirmed = Vec::with_capacity(asks.len());
        for (i, &(region, term)) in asks.iter().enumerate() {
            self.warm_block(asks, i, |a| self.local_peer_checked(store, a.0));
            confirmed.push(self.confirms_leader(store, region, term, leader_store));
        }
        confirmed
    }

    /// `store`'s peer of `region`, for warming: none for a region out of range or a store
    /// with no peer of it.
    fn local_peer_checked(&self, store: u32, region: u32) -> Option<PeerId> {
        let known = region < self.region_count() && (store as usize) < self.stores.len();
        known
            .then(|| self.local_peer(store as usize, region))
            .flatten()
    }

    /// Stores holding the region's replicas (`n` of them in the returned array).
    pub fn region_stores(&self, region: u32) -> ([u32; MAX_REPLICAS], usize) {
        let mut out = [0; MAX_REPLICAS];
        let n = self.replicas as usize;
        for (sl, slot) in out.iter_mut().enumerate().take(n) {
            let pid = PeerId::of(RegionId(region), sl as u8, self.replicas);
            *slot = self.slot_store[pid.ix()] as u32;
        }
        (out, n)
    }

    /// Replicas whose answers make a quorum (the leader counts itself).
    pub fn region_quorum(&self) -> usize {
        self.quorum() as usize
    }

    /// CheckLeader on `store`: does its peer of `region` follow `leader_store` in `term`?
    pub fn confirms_leader(&self, store: u32, region: u32, term: u64, leader_store: u32) -> bool {
        if region >= self.region_count() || !self.store_live[store as usize] {
            return false;
        }
        let Some(pid) = self.local_peer(store as usize, region) else {
            return false;
        };
        let p = &self.peers[pid.ix()];
        if p.term != term || p.leader == NO_SLOT {
            return false;
        }
        let leader = PeerId::of(RegionId(region), p.leader, self.replicas);
        self.slot_store[leader.ix()] as u32 == leader_store
    }
}
