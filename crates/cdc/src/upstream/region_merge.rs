//! A region merge, as the layers above TiKV's Raft see it (TiKV's side is
//! `faultline_tikv`'s `merge` module).
//!
//! - **PrepareMerge applied.** The source's epoch version grows (`fsm/apply.rs`
//!   `exec_prepare_merge`); the layout's version follows, as PD's region info does once the
//!   leader reports it. TiKV's CDC endpoint ends the source's subscriptions with EpochNotMatch
//!   (`components/cdc/src/delegate.rs` `Delegate::sink_admin`, which does so for
//!   `PrepareMerge`, `CommitMerge` and `RollbackMerge` as for splits); the KV client divides the
//!   span again, which finds the source still there. Writes to the source now answer
//!   `ProposalInMergingMode`, and client-go backs off (`BoRegionScheduling`) and retries.
//! - **CommitMerge applied.** The target takes the source's range ([`Keyspace::merge`]); the
//!   source's locks are the target's now (a lock is a key's). The target's subscriptions end
//!   with EpochNotMatch, and the source's with RegionNotFound as its peers are destroyed
//!   (`components/cdc/src/observer.rs` `CdcObserver::on_region_changed`, `Destroy`); tiflow
//!   divides the span again on both (`cdc/kv/client.go` `handleError`), so the model sends
//!   both as EpochNotMatch, the error its KV client divides on. A write to the source answers
//!   `RegionNotFound`; client-go drops the region from its cache and the 2PC groups the keys
//!   again (`prewrite.go` `handleSingleBatch` -> `doActionOnMutations`).
//! - **RollbackMerge applied.** The source's version grows again and it takes writes again.
//!
//! Simplification: client-go backs off `BoRegionMiss` (2 ms the first time) before grouping
//! the keys again after RegionNotFound; the model groups them at once, as for EpochNotMatch.
//!
//! [`Keyspace::merge`]: crate::keyspace::Keyspace::merge

use faultline_sim::Level;

use crate::cdc::Cdc;
use crate::endpoint::endpoint_host::end_epoch_subscriptions;
use crate::out::Out;

impl Cdc {
    /// PrepareMerge applied on `source`: its epoch version is now `version`.
    pub(crate) fn on_prepare_merge(&mut self, out: &mut Out, source: u32, version: u64) {
        self.ks.set_version(source, version);
        if self.enabled() {
            end_epoch_subscriptions(&mut self.endpoints, source);
            let detail = format!("region_id={source} version={version}");
            out.log(Some(self.pd), Level::Info, "prepare merge reported", detail);
        }
    }

    /// RollbackMerge applied on `source`: its epoch version is now `version`.
    pub(crate) fn on_rollback_merge(&mut self, out: &mut Out, source: u32, version: u64) {
        self.ks.set_version(source, version);
        if self.enabled() {
            end_epoch_subscriptions(&mut self.endpoints, source);
            let detail = format!("region_id={source} version={version}");
            out.log(
                Some(self.pd),
                Level::Info,
                "rollback merge reported",
                detail,
            );
        }
    }

    /// CommitMerge applied on `target`: it took `source`'s range at epoch version `version`.
    pub(crate) fn on_commit_merge(
        &mut self,
        out: &mut Out,
        target: u32,
        source: u32,
        version: u64,
    ) {
        if !self.ks.merge(source, target, version) {
            // TiKV merged two regions the layout does not hold side by side: PD checked
            // adjacency with this layout, so this is a bug in the model.
            let detail = format!("region_id={target} source_region_id={source}");
            out.log(
                Some(self.pd),
                Level::Error,
                "merge of regions that are not adjacent",
                detail,
            );
            return;
        }
        for (start_ts, keys) in self.upstream.take_locks(source) {
            self.upstream.lock(target, start_ts, &keys);
        }
        for orphan in self.workload.orphans.values_mut() {
            if let Some(i) = orphan.locked.iter().position(|r| *r == source) {
                orphan.locked.remove(i);
                if !orphan.locked.contains(&target) {
                    orphan.locked.push(target);
                }
            }
        }
        if self.enabled() {
            end_epoch_subscriptions(&mut self.endpoints, source);
            end_epoch_subscriptions(&mut self.endpoints, target);
            let detail = format!("region_id={target} source_region_id={source} version={version}");
            out.log(Some(self.pd), Level::Info, "region merge reported", detail);
        }
    }
}
