//! PD's evict-leader scheduler (PD `pkg/schedule/schedulers/evict_leader.go`,
//! `scheduleEvictLeaderOnce`): while a store is under it, PD picks regions that store leads and
//! orders each a leader transfer to one of its followers, with at most `leader-schedule-limit`
//! leader operators in flight (`IsScheduleAllowed`); the store takes no leaders meanwhile
//! (`PauseLeaderTransfer(store, In)`, which the balancer in `pd.rs` honours). A rolling
//! restart adds it before each store's restart and removes it after.
//!
//! Simplifications: PD schedules on its 1 s tick and whenever a region heartbeat ends one of
//! its operators (upstream the scheduler runs every 10 ms while it finds work, backing off to
//! 5 s when it finds none); it walks regions in key order from a cursor instead of picking
//! them at random; the target is the first follower, in replica order, on a store that is
//! connected, Up (not Offline), not Down and not evicting (upstream: a random one among the healthy followers);
//! regions with a down or pending peer are not left for last.

use faultline_sim::Level;

use crate::cluster::Cluster;
use crate::ids::PeerId;
use crate::ids::RegionId;
use crate::out::Cx;
use crate::pd::state::OpDesc;
use crate::store::state::StoreState;

/// Regions one scheduling pass looks at, at most (bounds a pass on a 256,000-region cluster).
const SCAN_PER_PASS: u32 = 20_000;

impl Cluster {
    /// Adds (`on`) or removes the evict-leader scheduler of store `s`.
    pub(crate) fn pd_set_evict(&mut self, cx: &mut Cx, s: usize, on: bool) {
        if s >= self.stores.len() || self.pd.evicting[s] == on {
            return;
        }
        self.pd.evicting[s] = on;
        let what = if on {
            "evict-leader scheduler added"
        } else {
            "evict-leader scheduler removed"
        };
        cx.out.log(
            Some(self.pd_node),
            Level::Info,
            what,
            format!("store_id={}", s + 1),
        );
        if on {
            self.pd_evict_leaders(cx);
        }
    }

    /// One scheduling pass: transfers leaders off every evicting store while the leader
    /// operator limit allows.
    pub(crate) fn pd_evict_leaders(&mut self, cx: &mut Cx) {
        if !self.pd.evicting.iter().any(|e| *e) {
            return;
        }
        let now = cx.now.0;
        let limit = self.cfg.pd.leader_schedule_limit as usize;
        let regions = self.region_count();
        let mut scan = regions.min(SCAN_PER_PASS);
        while self.pd.leader_ops.len() < limit && scan > 0 {
            scan -= 1;
            let r = self.pd.evict_cursor;
            self.pd.evict_cursor = (r + 1) % regions;
            let from = self.pd.region_leader[r as usize].0 as usize;
            if !self.pd.evicting[from]
                || self.pd.leader_ops.contains_key(&r)
                || self.merge.is_gone(r)
            {
                continue;
            }
            let Some(to) = self.pd_leader_target(r, from, now) else {
                continue;
            };
            self.book.evict_leader_ops += 1;
            self.pd_order_transfer(cx, r, (from, to), OpDesc::EvictLeader);
        }
    }

    /// A region heartbeat arrived while a store is evicting: end the operators it completed
    /// and schedule the next transfers at once (upstream PD checks operators on every region
    /// heartbeat, and the scheduler runs again within 10 ms).
    pub(crate) fn pd_evict_on_heartbeat(&mut self, cx: &mut Cx) {
        if !self.pd.evicting.iter().any(|e| *e) {
            return;
        }
        let before = self.pd.leader_ops.len();
        self.pd_retire_operators(cx);
        if self.pd.leader_ops.len() < before {
            self.pd_evict_leaders(cx);
        }
    }

    /// The store to move region `r`'s leadership to, away from `from`: the first follower,
    /// in replica order, on an Up store that heartbeats, is not Down and is not evicting.
    /// Shared by this scheduler and the drain of an Offline store (`crate::pd::balance_region`).
    pub(crate) fn pd_leader_target(&self, r: u32, from: usize, now: u64) -> Option<usize> {
        (0..self.replicas as u8)
            .map(|sl| self.slot_store[PeerId::of(RegionId(r), sl, self.replicas).ix()] as usize)
            .find(|s| {
                *s != from
                    && self.pd.store_state[*s] == StoreState::Up
                    && !self.pd.evicting[*s]
                    && !self.pd.store_down[*s]
                    && self.pd_store_connected(*s, now)
            })
    }
}
