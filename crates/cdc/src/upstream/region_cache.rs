//! The workload client's region cache, sans-I/O, after client-go
//! `internal/locate/region_cache.go`: a lookup that misses loads the region from PD
//! (`findRegionByKey` -> `loadRegion` -> PD `GetRegion`); concurrent misses on one region
//! share one load; a failed request invalidates the entry (`InvalidateCachedRegion`) and
//! a NotLeader hint replaces the leader (`UpdateLeader`). A client that cannot reach PD
//! keeps using what it cached but cannot load anything new.
//!
//! Other request paths (the follower side of a stale cache) call [`RegionCache::leader`],
//! [`RegionCache::update_leader`] and [`RegionCache::invalidate`]; the kernel side that sends
//! `GetRegion` is `crate::upstream::pd_client`.

use std::collections::BTreeMap;

/// One outstanding `GetRegion`: its id and who waits for it.
#[derive(Clone, Debug, Default)]
struct Load {
    id: u64,
    waiters: Vec<u64>,
}

/// The cache: region -> leader store, plus the loads in flight.
#[derive(Clone, Debug, Default)]
pub struct RegionCache {
    leaders: BTreeMap<u32, u32>,
    loading: BTreeMap<u32, Load>,
    next_load: u64,
    /// Lookups that found nothing cached.
    pub misses: u64,
    /// `GetRegion` requests sent to PD.
    pub loads: u64,
    /// Loads that got no answer within the PD client's timeout.
    pub loads_failed: u64,
}

impl RegionCache {
    /// The cached leader store of `region`.
    pub fn leader(&self, region: u32) -> Option<u32> {
        self.leaders.get(&region).copied()
    }

    /// A NotLeader hint or a load named `store` as the leader.
    pub fn update_leader(&mut self, region: u32, store: u32) {
        self.leaders.insert(region, store);
    }

    /// A request to the cached leader failed: forget it, so the next lookup loads again.
    pub fn invalidate(&mut self, region: u32) {
        self.leaders.remove(&region);
    }

    /// A lookup for `waiter` missed: returns the id of a `GetRegion` to send, or `None`
    /// when one for that region is already in flight (the waiter joins it).
    pub fn miss(&mut self, region: u32, waiter: u64) -> Option<u64> {
        self.misses += 1;
        if let Some(load) = self.loading.get_mut(&region) {
            if !load.waiters.contains(&waiter) {
                load.waiters.push(waiter);
            }
            return None;
        }
        self.next_load += 1;
        self.loads += 1;
        let id = self.next_load;
        self.loading.insert(
            region,
            Load {
                id,
                waiters: vec![waiter],
            },
        );
        Some(id)
    }

    /// PD answered the load of `region`: caches the leader (if PD knows one) and returns
    /// the waiters.
    pub fn loaded(&mut self, region: u32, leader: Option<u32>) -> Vec<u64> {
        let Some(load) = self.loading.remove(&region) else {
            return Vec::new();
        };
        if let Some(store) = leader {
            self.leaders.insert(region, store);
        }
        load.waiters
    }

    /// The load `id` of `region` timed out: its waiters, if it was still outstanding.
    pub fn load_timed_out(&mut self, region: u32, id: u64) -> Vec<u64> {
        if self.loading.get(&region).map(|l| l.id) != Some(id) {
            return Vec::new();
        }
        self.loads_failed += 1;
        self.loading
            .remove(&region)
            .map_or(Vec::new(), |l| l.waiters)
    }

    /// The client died: its memory is gone.
    pub fn clear(&mut self) {
        self.leaders.clear();
        self.loading.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misses_on_one_region_share_a_load_and_a_hit_needs_none() {
        let mut c = RegionCache::default();
        let id = c.miss(4, 1).expect("first miss loads");
        assert_eq!(c.miss(4, 2), None, "second miss joins the load");
        assert_eq!(c.loads, 1);
        assert_eq!(c.loaded(4, Some(2)), vec![1, 2]);
        assert_eq!(c.leader(4), Some(2));
        c.invalidate(4);
        assert_eq!(c.leader(4), None);
        assert!(c.miss(4, 3).is_some_and(|next| next != id));
    }

    #[test]
    fn a_timed_out_load_returns_its_waiters_once() {
        let mut c = RegionCache::default();
        let id = c.miss(1, 9).expect("loads");
        assert_eq!(c.load_timed_out(1, id), vec![9]);
        assert!(c.load_timed_out(1, id).is_empty());
        assert!(
            c.loaded(1, Some(0)).is_empty(),
            "a late answer wakes nobody"
        );
        assert_eq!(c.loads_failed, 1);
    }
}
