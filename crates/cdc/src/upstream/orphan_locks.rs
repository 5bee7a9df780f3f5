//! Locks whose client died, and TiKV resolving them when a lock resolver asks.
//!
//! - The client dies: each open transaction that holds locks becomes an orphan. Its locks
//!   stay, and so the resolved ts of its regions stays at its start ts, until someone
//!   resolves them; TiCDC's KV client does for the regions it watches
//!   (`crate::capture::lock_resolver`).
//! - A `ResolveLock` request reaches a region's leader: TiKV's `ScanLock` returns the locks up
//!   to `max_version`, and client-go's `ResolveLocks` checks each lock's primary
//!   (`txnkv/txnlock/lock_resolver.go`, `getTxnStatusFromLock` -> `CheckTxnStatus`): a
//!   primary whose TTL has not run out is left alone; an expired one is rolled back, unless
//!   its commit was applied, in which case the secondaries are committed.
//!
//! Simplifications: the primary is the transaction's first region; only orphans' locks are
//! resolved (a live client's transaction keeps its locks fresh, as client-go's TTL manager
//! does for long ones); the resolution takes effect when the leader handles the request,
//! where upstream it is a Raft write of its own; entries the dead client had proposed but
//! not yet applied are not applied.

use faultline_sim::{SimDuration, SimTime};
use faultline_tikv::Cluster;

use crate::cdc::Cdc;
use crate::change::RowChange;
use crate::ts::Ts;
use crate::upstream::workload::{OrphanTxn, Phase};

/// client-go `defaultLockTTL`: a small transaction's lock TTL.
const DEFAULT_LOCK_TTL: SimDuration = SimDuration::from_millis(3_000);
/// client-go `ManagedLockTTL`: the TTL a large transaction's TTL manager keeps renewing.
const MANAGED_LOCK_TTL: SimDuration = SimDuration::from_millis(20_000);

impl Cdc {
    /// The client died: each open transaction holding locks is left to a lock resolver.
    pub(crate) fn orphan_open_txns(&mut self, now: SimTime) {
        for (id, txn) in std::mem::take(&mut self.workload.open) {
            self.workload.aborted += 1;
            let locked: Vec<u32> = txn
                .reqs
                .iter()
                .filter(|r| r.locked)
                .map(|r| r.region)
                .collect();
            if locked.is_empty() {
                continue;
            }
            let ttl_expires = if self.cfg.workload.is_large_txn(id) {
                // The TTL manager's last renewal reached this far ahead.
                SimTime(now.0 + MANAGED_LOCK_TTL.0)
            } else {
                SimTime(txn.start_ts.sim_time().0 + DEFAULT_LOCK_TTL.0)
            };
            let primary_written = txn.reqs.first().is_some_and(|r| r.written);
            let orphan = OrphanTxn {
                commit_ts: txn.commit_ts,
                committed: txn.phase == Phase::Commit && primary_written,
                writes: txn.writes.clone(),
                locked,
                ttl_expires,
            };
            self.workload.orphans.insert(txn.start_ts, orphan);
        }
    }

    /// A `ResolveLock` for `region` up to `max_version` reached store `store` at `now`: if its
    /// peer leads the region, every orphan lock there whose TTL ran out is committed or
    /// rolled back. Returns how many transactions' locks it resolved.
    pub(crate) fn resolve_region_locks(
        &mut self,
        (now, tikv): (SimTime, &Cluster),
        store: u32,
        region: u32,
        max_version: Ts,
    ) -> usize {
        if tikv.local_leader_term(store, region).is_none() {
            return 0;
        }
        let mut resolved = 0;
        for start_ts in self.upstream.locks_up_to(region, max_version) {
            let Some(orphan) = self.workload.orphans.get_mut(&start_ts) else {
                continue; // a live transaction's lock
            };
            if now < orphan.ttl_expires {
                continue;
            }
            orphan.locked.retain(|r| *r != region);
            let orphan = if orphan.locked.is_empty() {
                self.workload.orphans.remove(&start_ts).expect("present")
            } else {
                orphan.clone()
            };
            self.upstream.unlock_txn(region, start_ts);
            if orphan.committed {
                self.commit_orphan_rows(tikv, store, region, (start_ts, &orphan));
            }
            resolved += 1;
        }
        resolved
    }

    /// The secondaries of a committed orphan in `region` are committed: the rows get their
    /// version and the region's CDC subscribers see them, as at a commit's apply.
    fn commit_orphan_rows(
        &mut self,
        tikv: &Cluster,
        store: u32,
        region: u32,
        (start_ts, orphan): (Ts, &OrphanTxn),
    ) {
        let rows: Vec<RowChange> = orphan
            .writes
            .iter()
            .filter(|(key, _)| self.ks.region_of(*key) == region)
            .map(|(key, value)| RowChange {
                key: *key,
                value: *value,
                start_ts,
                commit_ts: orphan.commit_ts,
            })
            .collect();
        for row in &rows {
            self.upstream.commit(row.key, row.value, orphan.commit_ts);
        }
        self.emit_applied_rows(tikv, store, region, rows);
    }
}
