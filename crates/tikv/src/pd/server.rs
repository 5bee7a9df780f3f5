//! PD: TSO, store and region heartbeats, Down stores and replica repair, leader balancing.
//!
//! Defaults and limits as PD 7.1 (`server/config/config.go`): a store is Down after
//! `max-store-down-time` (30 min) without heartbeats; repair and balance run as operators, at
//! most `replica-schedule-limit` (64) and `leader-schedule-limit` (4) in flight at once, and a
//! store takes at most 15 new replicas per minute (store limit `add-peer`).
//!
//! Simplifications: PD reads region membership and whether a learner has its snapshot from
//! the model (it learns both from region heartbeats in reality) but learns leaders only from
//! region heartbeats. A replica operator's steps (add learner, snapshot, promote, remove) are
//! `crate::region::learner`'s; the operator ends when the learner is a voter.

use faultline_sim::{Level, NodeId};

use crate::cluster::Cluster;
use crate::ids::PeerId;
use crate::ids::RegionId;
use crate::msg::Msg;
use crate::msg::Timer;
use crate::out::Cx;
use crate::pd::state::OpDesc;
use crate::pd::state::Operator;
use crate::pd::state::FAST_STEP_WAIT_US;
use crate::pd::state::SLOW_STEP_WAIT_US;
use crate::store::state::StoreState;

/// A store silent this long is Disconnected for PD (PD's 20 s `StoreDisconnected` rule).
const STORE_DISCONNECT_US: u64 = 20_000_000;

impl Cluster {
    /// PD handles a message.
    pub(crate) fn pd_on_message(&mut self, cx: &mut Cx, from: NodeId, msg: Msg) {
        if matches!(msg, Msg::StoreHeartbeat { .. } | Msg::RegionHeartbeats(_)) {
            self.book.pd_heartbeats += 1;
        }
        match msg {
            Msg::StoreHeartbeat { store, leaders, .. } => {
                let s = store as usize;
                self.pd.store_last_hb[s] = cx.now.0;
                self.pd.store_leaders[s] = leaders as i64;
                if self.pd.store_down[s] {
                    self.pd.store_down[s] = false;
                    cx.out.log(
                        Some(self.pd_node),
                        Level::Info,
                        "store is up",
                        format!("store_id={}", s + 1),
                    );
                }
            }
            Msg::RegionHeartbeats(v) => {
                let Some(s) = self.node_store[from.0 as usize] else {
                    return;
                };
                for (r, term) in v {
                    let known = &mut self.pd.region_leader[r as usize];
                    if term >= known.1 {
                        *known = (s as u8, term);
                    }
                }
                self.pd_evict_on_heartbeat(cx);
            }
            _ => {}
        }
    }

    /// PD's scheduling round, every second.
    pub(crate) fn pd_tick(&mut self, cx: &mut Cx) {
        let now = cx.now.0;
        let max_down = self.cfg.pd.max_store_down_time.0;
        for s in 0..self.stores.len() {
            let silent = now.saturating_sub(self.pd.store_last_hb[s]) >= max_down;
            if !self.pd.store_down[s] && silent && self.pd.store_state[s].in_cluster() {
                self.pd.store_down[s] = true;
                cx.out.log(
                    Some(self.pd_node),
                    Level::Warn,
                    "store is down",
                    format!(
                        "store_id={} down_secs={}",
                        s + 1,
                        (now - self.pd.store_last_hb[s]) / 1_000_000
                    ),
                );
            }
        }
        self.pd_retire_operators(cx);
        self.pd_push_replica_steps(cx);
        if self.pd.down_stores() > 0 {
            self.pd_repair(cx);
        }
        self.pd_balance_regions(cx);
        self.pd_bury_empty_stores(cx);
        // The evict-leader scheduler's operators are urgent: it runs before the balancer.
        self.pd_evict_leaders(cx);
        if self.cfg.pd.leader_balance {
            self.pd_balance_leaders(cx);
        }
        cx.out.set_timer(
            self.pd_node,
            faultline_sim::SimDuration::from_secs(1),
            Timer::PdTick,
        );
    }

    /// Ends the operators that finished (a transferred leader PD has heard of; a new replica
    /// that has its snapshot) or timed out (PD `Operator::CheckTimeout`), and logs each.
    pub(crate) fn pd_retire_operators(&mut self, cx: &mut Cx) {
        let now = cx.now.0;
        let mut ended = Vec::new();
        let region_leader = &self.pd.region_leader;
        self.pd.leader_ops.retain(|r, op| {
            let stays = now < op.deadline && region_leader[*r as usize].0 != op.target;
            if !stays {
                ended.push((*r, *op, true));
            }
            stays
        });
        let (slot_store, replicas) = (&self.slot_store, self.replicas);
        self.pd.replica_ops.retain(|r, op| {
            let pid = PeerId::of(RegionId(*r), op.target, replicas);
            let stays = now < op.deadline && slot_store[pid.ix()] != op.to_store;
            if !stays {
                ended.push((*r, *op, false));
            }
            stays
        });
        for (r, op, leader_op) in &ended {
            if !leader_op && now >= op.deadline {
                self.pd_drop_learner(*r);
            }
        }
        for e in ended {
            self.log_operator_ended(cx, e, now);
        }
    }

    /// PD's replica checker (`checker/replica_checker.go` `checkDownPeer` -> `fixPeer`): a
    /// region whose replica is on a Down store, and was silent for TiKV's
    /// `max_peer_down_duration` (a down peer in its leader's heartbeat), gets an operator that
    /// rebuilds it on a live store, while fewer than `replica_schedule_limit` are in flight and
    /// the target's store limit has a token.
    fn pd_repair(&mut self, cx: &mut Cx) {
        let now = cx.now.0;
        let regions = self.region_count();
        let n = self.stores.len();
        let limit = self.cfg.pd.replica_schedule_limit as usize;
        let peer_down = self.cfg.pd.max_peer_down_duration.0;
        for _ in 0..regions.min(50_000) {
            if self.pd.replica_ops.len() >= limit {
                break;
            }
            let r = self.pd.repair_cursor;
            self.pd.repair_cursor = (r + 1) % regions;
            let (leader, _) = self.pd.region_leader[r as usize];
            if self.pd.store_down[leader as usize]
                || self.pd.replica_ops.contains_key(&r)
                || self.merge.is_gone(r)
            {
                continue;
            }
            let members: Vec<u8> = (0..self.replicas as u8)
                .map(|sl| self.slot_store[PeerId::of(RegionId(r), sl, self.replicas).ix()])
                .collect();
            let Some(slot) = members.iter().position(|s| {
                let s = *s as usize;
                self.pd.store_down[s] && now.saturating_sub(self.pd.store_last_hb[s]) >= peer_down
            }) else {
                continue;
            };
            // Placement: the first live store without a replica whose store limit allows one.
            let target = (0..n).map(|i| (r as usize + i) % n).find(|t| {
                !self.pd.store_down[*t]
                    && self.pd.store_state[*t] == StoreState::Up
                    && !members.contains(&(*t as u8))
                    && self.pd.store_next_add[*t] <= now
            });
            let Some(target) = target else { continue };
            self.pd.store_next_add[target] = now + self.pd_add_peer_gap();
            let op = Operator {
                target: slot as u8,
                deadline: now + SLOW_STEP_WAIT_US,
                desc: OpDesc::ReplaceDownReplica,
                from_store: members[slot],
                to_store: target as u8,
                created: now,
                pushed: now,
            };
            self.pd.replica_ops.insert(r, op);
            self.log_operator_added(cx, r, &op, false);
            let msg = self.pd_replica_step(r, &op);
            cx.out
                .send(self.pd_node, self.store_nodes[leader as usize], msg);
        }
    }

    /// Moves leaders from the store with most to the one with fewest while they differ by more
    /// than 5% of the mean (PD's balance-leader scheduler, simplified to a tolerance), while
    /// fewer than `leader_schedule_limit` transfers are in flight (PD
    /// `OperatorController::OperatorCount` against `GetLeaderScheduleLimit`: a concurrency cap,
    /// not a rate; a transfer ends when a region heartbeat shows the new leader).
    ///
    /// The pair is chosen again before every transfer, on counts that already include the
    /// transfers PD just ordered (PD's operator influence). Spending a round's whole budget on
    /// one pair overshoots whenever the gap is smaller than twice the budget: 20/23 leaders
    /// became 24/19, the next round moved them back, and leaders ping-ponged (four elections a
    /// second) for as long as the cluster ran.
    fn pd_balance_leaders(&mut self, cx: &mut Cx) {
        // PD only schedules onto and away from stores that heartbeat (not Disconnected).
        let now = cx.now.0;
        // An evicting store takes no leaders (PD `PauseLeaderTransfer(store, In)`).
        // Nor onto or away from an Offline store: draining it moves its leaders.
        let live: Vec<usize> = (0..self.stores.len())
            .filter(|s| {
                self.pd_store_connected(*s, now)
                    && !self.pd.evicting[*s]
                    && self.pd.store_state[*s] == StoreState::Up
            })
            .collect();
        if live.len() < 2 {
            return;
        }
        let total: i64 = live.iter().map(|s| self.pd.store_leaders[*s]).sum();
        let tolerance = (total / live.len() as i64 / 20).max(2);
        let limit = self.cfg.pd.leader_schedule_limit as usize;
        // Bounds the work of one round on a 256k-region cluster; a small cluster may walk its
        // regions several times, once per source and target pair it tries.
        let mut scan = 20_000;
        while self.pd.leader_ops.len() < limit && scan > 0 {
            let Some((from, to, r)) = self.pd_leader_move(&live, tolerance, &mut scan) else {
                return;
            };
            self.pd_order_transfer(cx, r, (from, to), OpDesc::BalanceLeader);
        }
    }

    /// The next leader transfer: the store with the most leaders to the one with the fewest,
    /// or, when no region PD believes the first leads has a replica on the second (a store
    /// that just joined holds few regions), the next pair in that order, as PD's
    /// balance-leader scheduler walks its source and target candidates.
    fn pd_leader_move(
        &mut self,
        live: &[usize],
        tolerance: i64,
        scan: &mut u32,
    ) -> Option<(usize, usize, u32)> {
        let mut sources = live.to_vec();
        // Most leaders first; among equals the higher store index, as `max_by_key` picked.
        sources.sort_by_key(|s| {
            (
                std::cmp::Reverse(self.pd.store_leaders[*s]),
                std::cmp::Reverse(*s),
            )
        });
        let mut targets = live.to_vec();
        targets.sort_by_key(|s| (self.pd.store_leaders[*s], *s));
        for &from in &sources {
            for &to in &targets {
                if self.pd.store_leaders[from] - self.pd.store_leaders[to] <= tolerance {
                    break;
                }
                if let Some(r) = self.pd_next_region_led_by(from, to, scan) {
                    return Some((from, to, r));
                }
            }
        }
        None
    }

    /// A leader-transfer operator (made by `desc`) for region `r` from store `from` to `to`:
    /// counted in PD's leader counts at once (operator influence) and sent to the leader's
    /// store.
    pub(crate) fn pd_order_transfer(
        &mut self,
        cx: &mut Cx,
        r: u32,
        (from, to): (usize, usize),
        desc: OpDesc,
    ) {
        self.pd.store_leaders[from] -= 1;
        self.pd.store_leaders[to] += 1;
        let now = cx.now.0;
        let op = Operator {
            target: to as u8,
            deadline: now + FAST_STEP_WAIT_US,
            desc,
            from_store: from as u8,
            to_store: to as u8,
            created: now,
            pushed: now,
        };
        self.pd.leader_ops.insert(r, op);
        self.log_operator_added(cx, r, &op, true);
        let msg = Msg::TransferLeader {
            region: r,
            to_store: to as u32,
        };
        cx.out.send(self.pd_node, self.store_nodes[from], msg);
    }

    /// Time (µs) the add-peer store limit puts between two new replicas on one store.
    pub(crate) fn pd_add_peer_gap(&self) -> u64 {
        60_000_000 / self.cfg.pd.store_limit_add_peer_per_min.max(1) as u64
    }

    /// The store is in the cluster and heartbeats PD (not Disconnected: PD's 20 s rule).
    pub(crate) fn pd_store_connected(&self, s: usize, now: u64) -> bool {
        self.pd.store_state[s].in_cluster()
            && now.saturating_sub(self.pd.store_last_hb[s]) < STORE_DISCONNECT_US
    }

    /// Advances the balance cursor to the next region PD believes `from` leads and that has a
    /// replica on `to`, looking at no more than `scan` regions (decremented as it goes) and
    /// once at each.
    fn pd_next_region_led_by(&mut self, from: usize, to: usize, scan: &mut u32) -> Option<u32> {
        let regions = self.region_count();
        for _ in 0..regions {
            if *scan == 0 {
                break;
            }
            *scan -= 1;
            let r = self.pd.balance_cursor;
            self.pd.balance_cursor = (r + 1) % regions;
            if self.pd.region_leader[r as usize].0 as usize != from
                || self.pd.leader_ops.contains_key(&r)
                || self.merge.is_gone(r)
            {
                continue;
            }
            if self.has_replica_on(r, to) {
                return Some(r);
            }
        }
        None
    }

    /// The store whose peer leads `region` with the highest term among Up stores (what a
    /// client's region cache converges to). Used for routing writes and region heartbeats.
    pub(crate) fn leader_store_truth(&self, region: RegionId) -> Option<usize> {
        let mut best: Option<(u64, usize)> = None;
        for sl in 0..self.replicas as u8 {
            let pid = PeerId::of(region, sl, self.replicas);
            let s = self.slot_store[pid.ix()] as usize;
            let p = &self.peers[pid.ix()];
            if p.is_leader() && self.store_up[s] && best.is_none_or(|(t, _)| p.term > t) {
                best = Some((p.term, s));
            }
        }
        best.map(|(_, s)| s)
    }

    /// The PD node.
    pub fn pd_node(&self) -> NodeId {
        self.pd_node
    }
}
