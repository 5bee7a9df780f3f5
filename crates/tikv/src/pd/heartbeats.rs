//! A store's heartbeats to PD: the store heartbeat (its leader and peer counts) every
//! `pd.store_heartbeat`, and region heartbeats of the leaders it holds, batched per store,
//! every `pd.region_heartbeat` and whenever a leader changes.

use faultline_sim::Level;

use crate::cluster::Cluster;
use crate::msg::Msg;
use crate::msg::Timer;
use crate::out::Cx;

impl Cluster {
    /// Store `s` sends PD its store heartbeat and sets the next one.
    pub(crate) fn send_store_heartbeat(&mut self, cx: &mut Cx, s: usize) {
        let node = self.store_nodes[s];
        let leaders = self.book.leaders_per_store[s];
        let msg = Msg::StoreHeartbeat {
            store: s as u32,
            leaders: leaders as u32,
            peers: self.stores[s].peers.len() as u32,
        };
        let detail = format!("store_id={} leaders={leaders}", s + 1);
        cx.out
            .log(Some(node), Level::Info, "store heartbeat", detail);
        cx.out.send(node, self.pd_node, msg);
        cx.out
            .set_timer(node, self.cfg.pd.store_heartbeat, Timer::StoreHeartbeat);
    }

    /// Store `s` reports every awake leader it holds to PD and sets the next round (a
    /// hibernated leader reports from its stale-state check instead).
    pub(crate) fn send_awake_region_heartbeats(&mut self, cx: &mut Cx, s: usize) {
        let awake = self.stores[s].awake.clone();
        for pid in awake {
            if self.peers[pid.ix()].is_leader() && self.slot_store[pid.ix()] as usize == s {
                let r = pid.region(self.replicas).0;
                let term = self.peers[pid.ix()].term;
                self.stores[s].region_hb.push((r, term));
            }
        }
        self.send_region_heartbeats(cx, s);
        let node = self.store_nodes[s];
        cx.out
            .set_timer(node, self.cfg.pd.region_heartbeat, Timer::RegionHeartbeat);
    }

    /// Store `s` sends the region heartbeats it has batched, if any.
    pub(crate) fn send_region_heartbeats(&mut self, cx: &mut Cx, s: usize) {
        let v = std::mem::take(&mut self.stores[s].region_hb);
        if !v.is_empty() {
            cx.out
                .send(self.store_nodes[s], self.pd_node, Msg::RegionHeartbeats(v));
        }
    }
}
