//! Resolved ts behind CheckLeader, after TiKV's resolved-ts advancer
//! (`components/resolved_ts/src/advance.rs`: `AdvanceTsWorker::advance_ts_for_regions` and
//! `LeadershipResolver::resolve`). Every `min-ts-interval` (cdc default 1 s) the endpoint of a
//! store takes a min ts from PD, lowers it per region to the region's oldest lock, and asks
//! every store holding a follower, in one request per store pair, to confirm `(region, term)`.
//! A region's resolved ts is published only once a quorum (the leader included) confirmed it.
//! A leader cut from its followers therefore publishes nothing, even before check-quorum
//! makes it step down.
//!
//! The min ts comes from PD over the network (`crate::upstream::pd_client`, `store_want_ts`): a store
//! cut from PD advances no resolved ts until it reaches PD again.

use faultline_sim::NodeId;
use faultline_tikv::Cluster;

use crate::cdc::Cdc;
use crate::change::{RegionError, RegionEvent, RegionEventKind};
use crate::msg::CdcMsg;
use crate::out::Out;
use crate::ts::Ts;
use crate::upstream::txn_wire::TxnMsg;

impl Cdc {
    /// The endpoint's `min-ts-interval` tick on store `s`: subscriptions of regions it no
    /// longer leads end now; the rest wait for PD's min ts ([`Cdc::endpoint_advance`]).
    pub(crate) fn endpoint_tick(&mut self, out: &mut Out, tikv: &Cluster, s: u32) {
        let regions: Vec<u32> = self.endpoints[s as usize].subs.keys().copied().collect();
        let terms = tikv.local_leader_terms(s, &regions);
        for (region, term) in regions.into_iter().zip(terms) {
            if term.is_none() {
                self.drop_not_leader(tikv, s, region);
            }
        }
        if !self.endpoints[s as usize].subs.is_empty() {
            self.store_want_ts(out, s);
        }
    }

    /// PD answered store `s` with min ts `tso`: lower it per region to the oldest lock and
    /// start a CheckLeader round, whose requests go to `out`.
    pub(crate) fn endpoint_advance(&mut self, out: &mut Out, tikv: &Cluster, s: u32, tso: Ts) {
        let regions: Vec<u32> = self.endpoints[s as usize].subs.keys().copied().collect();
        let mut asks: Vec<Vec<(u32, u64)>> = vec![Vec::new(); self.stores.len()];
        let mut waiting = Vec::new();
        let needed = tikv.region_quorum() - 1;
        let terms = tikv.local_leader_terms(s, &regions);
        for (region, term) in regions.into_iter().zip(terms) {
            let Some(term) = term else {
                self.drop_not_leader(tikv, s, region);
                continue;
            };
            let resolved = self
                .upstream
                .oldest_lock(region)
                .map_or(tso, |l| l.min(tso));
            if needed == 0 {
                self.publish_resolved(tikv, s, vec![(region, resolved)]);
                continue;
            }
            waiting.push((region, resolved, needed as u8));
            let (stores, n) = tikv.region_stores(region);
            for t in stores[..n].iter().filter(|t| **t != s) {
                asks[*t as usize].push((region, term));
            }
        }
        let ep = &mut self.endpoints[s as usize];
        // What the last round still waits for never reached a quorum.
        ep.check.begin(waiting);
        let round = ep.check.round;
        for (t, regions) in asks.into_iter().enumerate() {
            if !regions.is_empty() {
                let msg = CdcMsg::Txn(TxnMsg::CheckLeader { round, regions });
                out.send(self.stores[s as usize], self.stores[t], msg);
            }
        }
    }

    /// The local peer no longer leads: subscriptions end with NotLeader.
    fn drop_not_leader(&mut self, tikv: &Cluster, s: u32, region: u32) {
        let leader = tikv.region_leader_store(region);
        let ep = &mut self.endpoints[s as usize];
        for sub in ep.subs.remove(&region).unwrap_or_default() {
            let kind = RegionEventKind::Error(RegionError::NotLeader { leader });
            let ev = RegionEvent {
                region,
                request: sub.request,
                kind,
            };
            ep.push(sub.to, ev);
        }
    }

    /// Sends each `(region, resolved ts)` to the region's subscribers, for the regions whose
    /// local peer still leads.
    fn publish_resolved(&mut self, tikv: &Cluster, s: u32, resolved: Vec<(u32, Ts)>) {
        let regions: Vec<u32> = resolved.iter().map(|r| r.0).collect();
        let terms = tikv.local_leader_terms(s, &regions);
        let leading: Vec<(u32, Ts)> = (resolved.into_iter().zip(terms))
            .filter_map(|(r, term)| term.map(|_| r))
            .collect();
        self.endpoints[s as usize].push_resolved(&leading);
    }

    /// A store answers a CheckLeader request (`handle_check_leaders` on the receiving store),
    /// writing the answer to `out`.
    pub(crate) fn on_check_leader(
        &self,
        out: &mut Out,
        tikv: &Cluster,
        from: NodeId,
        to: NodeId,
        round: u64,
        regions: Vec<(u32, u64)>,
    ) {
        let (Some(leader_store), Some(me)) = (self.store_of(from), self.store_of(to)) else {
            return;
        };
        let confirms = tikv.confirms_leaders(me, &regions, leader_store);
        let confirmed: Vec<u32> = (regions.iter().zip(confirms))
            .filter_map(|(&(r, _), yes)| yes.then_some(r))
            .collect();
        let msg = CdcMsg::Txn(TxnMsg::CheckLeaderResp {
            round,
            regions: confirmed,
        });
        out.send(to, from, msg);
    }

    /// Confirmations from one store: regions reaching a quorum publish their resolved ts.
    pub(crate) fn on_check_leader_resp(
        &mut self,
        tikv: &Cluster,
        _from: NodeId,
        to: NodeId,
        round: u64,
        regions: Vec<u32>,
    ) {
        let Some(s) = self.store_of(to) else {
            return;
        };
        if self.endpoints[s as usize].check.round != round {
            return;
        }
        let check = &mut self.endpoints[s as usize].check;
        let quorate: Vec<(u32, Ts)> = (regions.into_iter())
            .filter_map(|region| Some((region, check.confirm(region)?)))
            .collect();
        self.publish_resolved(tikv, s, quorate);
    }

    fn store_of(&self, n: NodeId) -> Option<u32> {
        self.stores.iter().position(|s| *s == n).map(|i| i as u32)
    }
}

#[cfg(test)]
#[path = "check_leader_tests.rs"]
mod tests;
