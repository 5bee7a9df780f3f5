//! Stores joining and leaving the cluster: PD's view of each store's state, `add_store` and
//! `remove_store`.
//!
//! As PD (`server/cluster/cluster.go`): a new store registers and is Up (Serving) once PD has
//! its heartbeat; `pd-ctl store delete` (`RaftCluster::RemoveStore`) makes it Offline
//! (Removing), PD's replica checker moves every replica off it (`crate::pd::balance_region`), and
//! `checkStore` buries it (Tombstone) once it holds no region; then the TiKV process stops.
//!
//! Simplifications: every store that may ever join is a node of the network from the start
//! (`tikv-(stores+1)..tikv-max_stores` sit idle, Absent, until `add_store`), so node names and
//! indices never change mid-run; a store is Up as soon as it joins (upstream it is
//! Preparing until it holds enough regions or `max-store-preparing-time` passes, which only
//! matters to what PD reports); a Tombstone store's process stops at once; a killed and
//! restarted Absent or Tombstone store stays out.

use faultline_sim::Level;

use crate::cluster::Cluster;
use crate::out::Cx;
use crate::store::state::StoreState;

impl Cluster {
    /// `add_store`: store `s`'s TiKV starts, registers with PD and is Up; the balancer then
    /// moves replicas and leaders onto it. A store already in, or a Tombstone, is left alone.
    pub(crate) fn add_store(&mut self, cx: &mut Cx, s: usize) {
        if s >= self.stores.len() || self.pd.store_state[s] != StoreState::Absent {
            return;
        }
        if !cx.reach.is_up(self.store_nodes[s]) {
            let detail = format!("store_id={} reason=\"its node is down\"", s + 1);
            cx.out
                .log(Some(self.pd_node), Level::Warn, "store cannot join", detail);
            return;
        }
        self.pd.store_state[s] = StoreState::Up;
        self.pd.store_last_hb[s] = cx.now.0;
        self.store_live[s] = true;
        self.store_up[s] = true;
        self.changes.note_all();
        self.start_store_timers(cx, s);
        self.schedule_failure_detection(cx);
        let detail = format!("store_id={}", s + 1);
        cx.out
            .log(Some(self.pd_node), Level::Info, "store joined", detail);
    }

    /// `remove_store` (`pd-ctl store delete`): the store goes Offline and PD drains it. PD
    /// refuses when too few Up stores would remain to hold every region's replicas
    /// (`checkTikvReplicaBeforeOfflineStore`).
    pub(crate) fn remove_store(&mut self, cx: &mut Cx, s: usize) {
        if s >= self.stores.len() || self.pd.store_state[s] != StoreState::Up {
            return;
        }
        let up = self
            .pd
            .store_state
            .iter()
            .filter(|st| **st == StoreState::Up)
            .count();
        if up <= self.replicas as usize {
            let detail = format!(
                "store_id={} up_stores={up} max_replicas={}",
                s + 1,
                self.replicas
            );
            cx.out.log(
                Some(self.pd_node),
                Level::Warn,
                "store delete refused",
                detail,
            );
            return;
        }
        self.pd.store_state[s] = StoreState::Offline;
        let detail = format!("store_id={} region_count={}", s + 1, self.peers_of(s).len());
        cx.out.log(
            Some(self.pd_node),
            Level::Warn,
            "store has been offline",
            detail,
        );
    }

    /// PD's `checkStore`: an Offline store without replicas is buried, and its TiKV stops.
    pub(crate) fn pd_bury_empty_stores(&mut self, cx: &mut Cx) {
        for s in 0..self.stores.len() {
            if self.pd.store_state[s] != StoreState::Offline || !self.peers_of(s).is_empty() {
                continue;
            }
            self.pd.store_state[s] = StoreState::Tombstone;
            self.store_live[s] = false;
            self.store_up[s] = false;
            self.changes.note_all();
            self.stores[s].reset_volatile();
            let detail = format!("store_id={}", s + 1);
            cx.out.log(
                Some(self.pd_node),
                Level::Info,
                "store is tombstone",
                detail,
            );
        }
    }

    /// PD's state of store `s` (0-based).
    pub fn store_state(&self, s: u32) -> Option<StoreState> {
        self.pd.store_state.get(s as usize).copied()
    }

    /// Stores in `state`.
    pub fn stores_in(&self, state: StoreState) -> usize {
        self.pd.store_state.iter().filter(|s| **s == state).count()
    }
}
