//! PD moving replicas between live stores: the replica checker draining an Offline store
//! (PD `pkg/schedule/checker/replica_checker.go` `checkOfflinePeer` -> `fixPeer`) and the
//! balance-region scheduler evening out replica counts, which is what fills a store that
//! just joined (`pkg/schedule/schedulers/balance_region.go` `Schedule`).
//!
//! Each move is a move-peer operator (`operator.CreateMovePeerOperator`): PD sends it to the
//! region's leader, which adds a learner on the target, sends it a snapshot, and promotes it
//! in place of the old replica (`crate::region::learner`); it ends when the learner is a voter, or
//! when a step outlives its timeout. A store takes at most `pd.store_limit_add_peer`
//! new replicas a minute; drains run under `replica-schedule-limit` operators in flight,
//! balancing under `region-schedule-limit` (2,048, PD's default). A replica PD believes leads
//! its region is not moved: the leader is transferred off first, as a move-peer operator's
//! first step does.
//!
//! Simplifications: replica counts stand for PD's region scores (regions are the same size
//! here), and the balancer moves one replica while the fullest and emptiest Up stores differ
//! by two or more (PD weighs sizes with a tolerance); the remove-peer store limit is not
//! modelled; PD reads membership from the model; candidates are walked in store order, not
//! drawn at random.

use crate::cluster::Cluster;
use crate::ids::PeerId;
use crate::out::Cx;
use crate::pd::state::OpDesc;
use crate::pd::state::Operator;
use crate::pd::state::SLOW_STEP_WAIT_US;
use crate::store::state::StoreState;

/// PD `defaultRegionScheduleLimit`: balance-region operators in flight at most.
const REGION_SCHEDULE_LIMIT: usize = 2048;

impl Cluster {
    /// PD's replica moves for one scheduling round.
    pub(crate) fn pd_balance_regions(&mut self, cx: &mut Cx) {
        let now = cx.now.0;
        for s in 0..self.stores.len() {
            if self.pd.store_state[s] == StoreState::Offline {
                self.pd_drain(cx, s, now);
            }
        }
        self.pd_even_out(cx, now);
    }

    /// Moves replicas off Offline store `s`, leaders first.
    fn pd_drain(&mut self, cx: &mut Cx, s: usize, now: u64) {
        let limit = self.cfg.pd.replica_schedule_limit as usize;
        for pid in self.stores[s].peers.clone() {
            if self.pd.replica_ops.len() >= limit {
                return;
            }
            let r = pid.region(self.replicas).0;
            if self.pd_region_busy(r) {
                continue;
            }
            if self.pd.region_leader[r as usize].0 as usize == s {
                if let Some(to) = self.pd_leader_target(r, s, now) {
                    self.pd_order_transfer(cx, r, (s, to), OpDesc::ReplaceOfflineReplica);
                }
                continue;
            }
            if let Some(target) = self.pd_replica_target(r, now) {
                self.pd_order_move(cx, (pid, target), now, OpDesc::ReplaceOfflineReplica);
            }
        }
    }

    /// The balance-region scheduler: one replica at a time from the fullest Up store to the
    /// emptiest, on counts that include the moves just ordered (PD's operator influence).
    fn pd_even_out(&mut self, cx: &mut Cx, now: u64) {
        let up: Vec<usize> = (0..self.stores.len())
            .filter(|s| {
                self.pd.store_state[*s] == StoreState::Up && self.pd_store_connected(*s, now)
            })
            .collect();
        let mut count: Vec<i64> = (0..self.stores.len())
            .map(|s| self.stores[s].peers.len() as i64)
            .collect();
        while self.pd.replica_ops.len() < REGION_SCHEDULE_LIMIT {
            let by = |s: &&usize| (count[**s], std::cmp::Reverse(**s));
            let (Some(&from), Some(&to)) = (up.iter().max_by_key(by), up.iter().min_by_key(by))
            else {
                return;
            };
            if count[from] - count[to] < 2 || self.pd.store_next_add[to] > now {
                return;
            }
            let Some(pid) = self.pd_movable_replica(from, to) else {
                return;
            };
            self.pd_order_move(cx, (pid, to), now, OpDesc::BalanceRegion);
            count[from] -= 1;
            count[to] += 1;
        }
    }

    /// A replica on `from` of a region with no replica on `to`, not leading and not under an
    /// operator.
    fn pd_movable_replica(&self, from: usize, to: usize) -> Option<PeerId> {
        self.stores[from].peers.iter().copied().find(|pid| {
            let r = pid.region(self.replicas).0;
            !self.pd_region_busy(r)
                && self.pd.region_leader[r as usize].0 as usize != from
                && !self.has_replica_on(r, to)
        })
    }

    /// An operator of region `r` is in flight.
    fn pd_region_busy(&self, r: u32) -> bool {
        self.pd.replica_ops.contains_key(&r) || self.pd.leader_ops.contains_key(&r)
    }

    /// Where a new replica of `r` goes: the Up, connected store with the fewest replicas that
    /// has none of `r` and a store-limit token.
    fn pd_replica_target(&self, r: u32, now: u64) -> Option<usize> {
        (0..self.stores.len())
            .filter(|t| {
                self.pd.store_state[*t] == StoreState::Up
                    && self.pd_store_connected(*t, now)
                    && !self.pd.store_down[*t]
                    && self.pd.store_next_add[*t] <= now
                    && !self.has_replica_on(r, *t)
            })
            .min_by_key(|t| (self.stores[*t].peers.len(), *t))
    }

    /// PD orders the leader of `pid`'s region to move that replica to store `target` (an
    /// operator made by `desc`).
    fn pd_order_move(
        &mut self,
        cx: &mut Cx,
        (pid, target): (PeerId, usize),
        now: u64,
        desc: OpDesc,
    ) {
        let r = pid.region(self.replicas).0;
        let slot = pid.slot(self.replicas);
        self.pd.store_next_add[target] = now + self.pd_add_peer_gap();
        // The first step, adding a learner and sending it a snapshot, may take PD's
        // `SlowStepWaitTime`; the promotion then gets `FastStepWaitTime` (`crate::region::learner`).
        let op = Operator {
            target: slot,
            deadline: now + SLOW_STEP_WAIT_US,
            desc,
            from_store: self.slot_store[pid.ix()],
            to_store: target as u8,
            created: now,
            pushed: now,
        };
        self.pd.replica_ops.insert(r, op);
        self.log_operator_added(cx, r, &op, false);
        self.book.region_moves += 1;
        let leader = self.pd.region_leader[r as usize].0 as usize;
        let msg = self.pd_replica_step(r, &op);
        cx.out.send(self.pd_node, self.store_nodes[leader], msg);
    }
}
