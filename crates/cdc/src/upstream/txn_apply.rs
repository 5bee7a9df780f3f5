//! What TiKV does when a Percolator entry is applied, and how stores answer the client.
//!
//! - Prewrite applied: the keys are locked (TiKV `src/storage/txn/actions/prewrite.rs`,
//!   `prewrite` writes a lock per key); resolved ts cannot pass the lock from now on.
//! - Commit applied: the rows get their new version and the locks go (`actions/commit.rs`,
//!   `commit`); the leader's CDC endpoint emits the row change now, as TiKV's CDC observer sees
//!   the applied write batch (`components/cdc/src/delegate.rs`, `Delegate::on_batch` ->
//!   `sink_data`), not when the client decided to commit.
//! - Rollback applied: the locks go.
//!
//! An entry may be applied although its client gave up on it (a timed-out request whose entry
//! a new leader still committed); applying is idempotent per region and phase, as Percolator's
//! checks on the existing lock make it.

use faultline_tikv::{Cluster, OpEvent, OpOutcome};

use crate::cdc::Cdc;
use crate::change::{RegionEventKind, RowChange};
use crate::keyspace::{Key, Keyspace};
use crate::out::Cx;
use crate::ts::Ts;
use crate::upstream::txn_wire::TxnFailure;
use crate::upstream::workload::Phase;

impl Cdc {
    /// One outcome: an applied entry takes effect, a store answers the client, a ReadIndex
    /// answers a registration.
    pub(crate) fn on_op_event(&mut self, cx: &mut Cx, tikv: &Cluster, e: OpEvent) {
        if self.lock_resolution_event(tikv, e) {
            return;
        }
        match e.outcome {
            OpOutcome::Applied => self.apply_op(tikv, e),
            OpOutcome::Done => self.send_txn_reply(&mut cx.out, e.store, e.op, None),
            OpOutcome::Stale => {
                self.send_txn_reply(&mut cx.out, e.store, e.op, Some(TxnFailure::Stale))
            }
            OpOutcome::EpochNotMatch => {
                let failure = Some(TxnFailure::EpochNotMatch);
                self.send_txn_reply(&mut cx.out, e.store, e.op, failure)
            }
            OpOutcome::Split {
                first,
                added,
                version,
                at,
            } => {
                let at = at.map(|key| key as crate::keyspace::Key);
                self.on_region_split(&mut cx.out, e.region, (first, added, version), at);
            }
            OpOutcome::MergingMode => {
                self.send_txn_reply(&mut cx.out, e.store, e.op, Some(TxnFailure::MergingMode))
            }
            OpOutcome::RegionNotFound => {
                self.send_txn_reply(&mut cx.out, e.store, e.op, Some(TxnFailure::RegionNotFound))
            }
            OpOutcome::PrepareMerge { version } => {
                self.on_prepare_merge(&mut cx.out, e.region, version)
            }
            OpOutcome::CommitMerge { source, version } => {
                self.on_commit_merge(&mut cx.out, e.region, source, version)
            }
            OpOutcome::RollbackMerge { version } => {
                self.on_rollback_merge(&mut cx.out, e.region, version)
            }
            OpOutcome::NotLeader { leader } => {
                let failure = Some(TxnFailure::NotLeader { leader });
                self.send_txn_reply(&mut cx.out, e.store, e.op, failure)
            }
            OpOutcome::ReadReady | OpOutcome::ReadNotLeader { .. } | OpOutcome::ReadStale => {
                self.endpoint_read_answered(cx, tikv, e);
            }
        }
    }

    fn apply_op(&mut self, tikv: &Cluster, e: OpEvent) {
        let Some(r) = self.workload.ops.get(&e.op).copied() else {
            return; // its transaction ended (or its client died)
        };
        let Some(txn) = self.workload.open.get_mut(&r.txn) else {
            return;
        };
        let (start_ts, commit_ts) = (txn.start_ts, txn.commit_ts);
        let req = txn.req_mut(r.region).expect("a request per touched region");
        match r.phase {
            Phase::Prewrite if !req.locked && !req.written => {
                // TiKV locks each mutation of the request (`actions/prewrite.rs`, `prewrite`);
                // the entry applied at the epoch it was grouped with, so its keys are here.
                req.locked = true;
                let keys: Vec<Key> = (req.keys.iter().copied())
                    .filter(|key| self.ks.region_of(*key) == r.region)
                    .collect();
                self.upstream.lock(r.region, start_ts, &keys);
            }
            Phase::Commit if req.locked => {
                req.locked = false;
                req.written = true;
                let mut rows =
                    rows_in_region(&self.ks, &txn.writes, r.region, (start_ts, commit_ts));
                // Percolator's commit of a key already committed is a no-op: after a merge, a
                // request may carry keys whose commit applied in the region they left.
                rows.retain(|row| !self.upstream.has_version(row.key, commit_ts));
                self.upstream.unlock_txn(r.region, start_ts);
                self.write_committed_rows(tikv, e.store, r.region, rows);
            }
            Phase::Rollback if req.locked => {
                req.locked = false;
                self.upstream.unlock_txn(r.region, start_ts);
            }
            _ => {}
        }
    }

    /// Committed `rows` of `region` applied on `store`: each row gets its version, and the
    /// store's CDC endpoint sends them on.
    pub(crate) fn write_committed_rows(
        &mut self,
        tikv: &Cluster,
        store: u32,
        region: u32,
        rows: Vec<RowChange>,
    ) {
        let safe_point = self.gc_safe_point();
        for row in &rows {
            (self.upstream).commit(row.key, row.value, row.commit_ts, safe_point);
        }
        self.emit_applied_rows(tikv, store, region, rows);
    }

    /// TiKV's GC safe point as far as the model needs it: TiCDC's service safe point, the
    /// lowest checkpoint its changefeeds persisted. With no changefeed nothing reads an old
    /// version, so only the latest is kept (TiDB's `tikv_gc_life_time`, 10 min, which would
    /// keep more, is not modelled).
    fn gc_safe_point(&self) -> Ts {
        let feeds = 0..self.cfg.changefeeds.len();
        let lowest = feeds.map(|cf| self.persisted_checkpoint(cf)).min();
        lowest.unwrap_or(Ts(u64::MAX))
    }

    /// The CDC endpoint of the applying store sends the rows to the region's subscribers, if
    /// that store's peer leads (only leaders have CDC delegates).
    fn emit_applied_rows(&mut self, tikv: &Cluster, store: u32, region: u32, rows: Vec<RowChange>) {
        if tikv.local_leader_term(store, region).is_none() {
            return;
        }
        self.endpoints[store as usize].push_to_subscribers(region, RegionEventKind::Entries(rows));
    }
}

/// The row changes a transaction's commit writes in `region`: its writes to keys there.
pub(crate) fn rows_in_region(
    ks: &Keyspace,
    writes: &[(Key, u64)],
    region: u32,
    (start_ts, commit_ts): (Ts, Ts),
) -> Vec<RowChange> {
    writes
        .iter()
        .filter(|(key, _)| ks.region_of(*key) == region)
        .map(|(key, value)| RowChange {
            key: *key,
            value: *value,
            start_ts,
            commit_ts,
        })
        .collect()
}
