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
use crate::ts::Ts;
use crate::upstream::txn_apply::rows_in_region;
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
                writes: txn.writes,
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
            let ts = (start_ts, orphan.commit_ts);
            let rows =
                (orphan.committed).then(|| rows_in_region(&self.ks, &orphan.writes, region, ts));
            if orphan.locked.is_empty() {
                self.workload.orphans.remove(&start_ts);
            }
            self.upstream.unlock_txn(region, start_ts);
            if let Some(rows) = rows {
                self.write_committed_rows(tikv, store, region, rows);
            }
            resolved += 1;
        }
        resolved
    }
}

#[cfg(test)]
mod tests {
    use faultline_sim::World;

    use super::*;
    use crate::stack::Stack;
    use crate::test_world::{mysql_feed, secs, world};

    /// A world at 5 s with one orphan holding a lock on region 0's first key at `start`.
    fn with_orphan(committed: bool, start: Ts) -> (World<Stack>, crate::keyspace::Key) {
        let mut w = world(1, vec![mysql_feed(2)]);
        w.run_until(secs(5));
        let cdc = &mut w.model.cdc;
        let (key, _) = cdc.ks.region_keys(0);
        cdc.upstream.lock(0, start, 1);
        let orphan = OrphanTxn {
            commit_ts: Ts(start.0 + 10),
            committed,
            writes: vec![(key, 77)],
            locked: vec![0],
            ttl_expires: secs(4),
        };
        cdc.workload.orphans.insert(start, orphan);
        (w, key)
    }

    fn resolve_at_leader(w: &mut World<Stack>, start: Ts) -> usize {
        let Stack { tikv, cdc } = &mut w.model;
        let leader = tikv.region_leader_store(0).expect("region 0 has a leader");
        cdc.resolve_region_locks((secs(5), tikv), leader, 0, start)
    }

    /// The primary decides (client-go `ResolveLocks`): an expired orphan whose primary
    /// committed has its rows committed here; one that did not is rolled back. Either way the
    /// lock goes and the orphan is done.
    #[test]
    fn an_expired_orphan_is_committed_or_rolled_back_as_its_primary_was() {
        let start = Ts(1_000);
        for committed in [true, false] {
            let (mut w, key) = with_orphan(committed, start);
            assert_eq!(resolve_at_leader(&mut w, start), 1);
            let cdc = &w.model.cdc;
            assert_eq!(cdc.upstream.oldest_lock(0), None, "the lock went");
            assert!(cdc.workload.orphans.is_empty());
            let row = cdc.upstream.row(key);
            assert_eq!(row.value == 77, committed, "committed {committed}: {row:?}");
        }
    }

    /// A lock younger than `max_version`, or on a store that does not lead, stays.
    #[test]
    fn a_lock_past_max_version_or_asked_of_a_follower_stays() {
        let start = Ts(1_000);
        let (mut w, _) = with_orphan(true, start);
        assert_eq!(resolve_at_leader(&mut w, Ts(999)), 0);
        let Stack { tikv, cdc } = &mut w.model;
        let leader = tikv.region_leader_store(0).expect("a leader");
        let follower = (0..3).find(|s| *s != leader).expect("three stores");
        assert_eq!(
            cdc.resolve_region_locks((secs(5), tikv), follower, 0, start),
            0
        );
        assert_eq!(cdc.upstream.oldest_lock(0), Some(start));
    }
}
