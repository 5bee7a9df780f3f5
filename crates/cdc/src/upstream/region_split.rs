//! A region split, as the layers above TiKV's Raft see it.
//!
//! - **The layout.** When the `BatchSplit` entry applies, the parent's key range is cut and
//!   every part's epoch version changes (TiKV `fsm/apply.rs` `exec_batch_split`); the key
//!   layout ([`crate::keyspace::Keyspace::split`]) follows at once, as PD's region info does
//!   once the leader reports the split.
//! - **The locks.** A lock is a key's: the parent's locks now belong to the regions their keys
//!   fell in, so a lock still holds back the resolved ts of the region that holds its key.
//! - **The client.** Its requests carry the epoch version their keys were grouped with. A
//!   request for the split region answers EpochNotMatch; client-go puts the current regions
//!   from the error into its region cache (`internal/locate/region_cache.go`
//!   `OnRegionEpochNotMatch`), groups the batch's keys again and sends each group at once,
//!   without a backoff (`txnkv/transaction/prewrite.go` `handleRegionErr` ->
//!   `retry.MayBackoffForRegionError`, then `2pc.go` `doActionOnMutations`).
//! - **TiCDC.** The endpoint ends the parent's subscriptions with EpochNotMatch
//!   (`crate::endpoint::endpoint_host::end_epoch_subscriptions`); the KV client divides the
//!   old span over the new regions ([`crate::capture::kvclient::KvAction::Redivide`]).
//!
//! Simplification: the client learns the new regions' epochs from the layout at once (the
//! error's `current_regions`, which TiKV fills with the region and its split siblings); a
//! request that reached a store before the split and applied before it is not affected.

use faultline_sim::Level;
use faultline_tikv::Cluster;

use crate::cdc::Cdc;
use crate::endpoint::endpoint_host::end_epoch_subscriptions;
use crate::keyspace::Key;
use crate::out::{Cx, Out};
use crate::upstream::workload::RegionReq;

impl Cdc {
    /// Region `parent` split: `added` new regions from id `first`, every part at epoch version
    /// `version`.
    pub(crate) fn on_region_split(
        &mut self,
        out: &mut Out,
        parent: u32,
        split: (u32, u32, u64),
        at: Option<Key>,
    ) {
        let (first, added, version) = split;
        self.ks.split(parent, (first, added, version), at);
        for _ in 0..added {
            self.upstream.add_region();
        }
        self.move_split_locks(parent);
        if self.enabled() {
            end_epoch_subscriptions(&mut self.endpoints, parent);
            let detail = format!("region_id={parent} regions={first}..={}", first + added - 1);
            out.log(Some(self.pd), Level::Info, "region split reported", detail);
        }
    }

    /// The locks of `parent` go to the regions now holding their keys: a split only cuts the
    /// range, each lock stays with its key (TiKV `fsm/apply.rs` `exec_batch_split` writes the
    /// new regions' states, no data moves; the resolved-ts endpoint re-registers a region
    /// whose epoch version changed and scans the locks in its new range,
    /// `components/resolved_ts/src/endpoint.rs` `region_updated`). Only the keys still locked
    /// move: a key of the transaction whose commit already applied holds no lock. An orphan
    /// is now locked in the regions its locked keys went to.
    fn move_split_locks(&mut self, parent: u32) {
        for (start_ts, keys) in self.upstream.take_locks(parent) {
            for key in &keys {
                self.upstream
                    .lock(self.ks.region_of(*key), start_ts, &[*key]);
            }
            let Some(orphan) = self.workload.orphans.get_mut(&start_ts) else {
                continue;
            };
            if let Some(i) = orphan.locked.iter().position(|r| *r == parent) {
                let now = self.ks.regions_of_keys(&keys);
                orphan.locked.splice(i..=i, now);
            }
        }
    }

    /// A store answered EpochNotMatch (or RegionNotFound: the region merged away) to
    /// transaction `id`'s request for `region`: its keys
    /// are grouped by the regions they are in now and sent again at once, each group keeping
    /// what the old request's entries did (a lock a prewrite left is on every part).
    pub(crate) fn regroup_split_request(
        &mut self,
        cx: &mut Cx,
        tikv: &Cluster,
        id: u64,
        region: u32,
    ) {
        let Some(txn) = self.workload.open.get_mut(&id) else {
            return;
        };
        let Some(i) = txn.reqs.iter().position(|r| r.region == region) else {
            return;
        };
        let old = txn.reqs.remove(i);
        let parts: Vec<RegionReq> = self
            .group_by_region(&old.keys)
            .into_iter()
            .map(|r| RegionReq {
                locked: old.locked,
                written: old.written,
                ..r
            })
            .collect();
        let regions: Vec<u32> = parts.iter().map(|r| r.region).collect();
        let txn = self.workload.open.get_mut(&id).expect("open");
        let mut fresh = Vec::new();
        for part in parts {
            match txn.req_mut(part.region) {
                Some(have) => join_request(have, part),
                None => fresh.push(part),
            }
        }
        txn.reqs.splice(i..i, fresh);
        for r in regions {
            self.send_txn_request(cx, tikv, id, r);
        }
    }
}

/// After a merge, a transaction's keys grouped again may fall in a region it already has a
/// request for: client-go would send a second batch there; the model has one request per
/// region, so the keys join it and the phase is sent there again. Applying is idempotent per
/// key (a commit writes only keys without this commit's version, see
/// `crate::upstream::txn_apply`), so keys already done there are not done twice.
fn join_request(have: &mut RegionReq, part: RegionReq) {
    for key in part.keys {
        if !have.keys.contains(&key) {
            have.keys.push(key);
        }
    }
    have.locked |= part.locked;
    have.written &= part.written;
    have.done = false;
    have.op = 0;
}

#[cfg(test)]
#[path = "region_split_tests.rs"]
mod tests;
