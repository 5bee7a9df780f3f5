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
//! - The resolution is a write of its own (TiKV `storage/txn/commands/resolve_lock.rs`: the
//!   scheduler's `ResolveLock` command writes its commits and rollbacks through raftkv): the
//!   leader proposes one entry for the region's expired orphans, and they are committed or
//!   rolled back when that entry is applied, so TiCDC sees a resolved commit as it sees any
//!   other, at apply. A leader that loses its lease first, or whose entry a new leader
//!   overwrites, resolves nothing; the lock stays for the next round.
//!
//! Simplifications: the primary is the transaction's first region; only orphans' locks are
//! resolved (a live client's transaction keeps its locks fresh, as client-go's TTL manager
//! does for long ones); the fate of each lock is read when the leader takes the request, not
//! re-read at apply; entries the dead client had proposed but not yet applied are not
//! applied.

use faultline_sim::{SimDuration, SimTime};
use faultline_tikv::{Cluster, OpEvent, OpOutcome};

use crate::cdc::Cdc;
use crate::ts::Ts;
use crate::upstream::txn_apply::rows_in_region;
use crate::upstream::workload::{LockResolution, OrphanTxn, Phase};

/// client-go `defaultLockTTL`: a small transaction's lock TTL.
const DEFAULT_LOCK_TTL: SimDuration = SimDuration::from_millis(3_000);
/// client-go `ManagedLockTTL`: the TTL a large transaction's TTL manager keeps renewing.
const MANAGED_LOCK_TTL: SimDuration = SimDuration::from_millis(20_000);

impl Cdc {
    /// The client died: each open transaction holding locks is left to a lock resolver.
    pub(crate) fn orphan_open_txns(&mut self, now: SimTime) {
        for (id, txn) in std::mem::take(&mut self.workload.open) {
            self.workload.aborted += 1;
            // Where the locked keys are now: a region that split since its prewrite holds them
            // in the regions it became.
            let locked_keys = txn.reqs.iter().filter(|r| r.locked).flat_map(|r| &r.keys);
            let locked = self.ks.regions_of_keys(locked_keys);
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
    /// peer leads the region, the orphan locks there whose TTL ran out are resolved by one
    /// write through Raft (applied in [`Cdc::apply_lock_resolution`]). Returns how many
    /// transactions' locks that write will resolve.
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
        let orphans = &self.workload.orphans;
        let expired: Vec<Ts> = (self.upstream.locks_up_to(region, max_version).into_iter())
            .filter(|ts| orphans.get(ts).is_some_and(|o| now >= o.ttl_expires))
            .collect();
        if expired.is_empty() {
            return 0;
        }
        let op = self.workload.next_op;
        self.workload.next_op += 1;
        let count = expired.len();
        let write = LockResolution {
            store,
            region,
            start_ts: expired,
        };
        self.workload.resolutions.insert(op, write);
        self.workload.local_writes.push((store, region, op));
        count
    }

    /// TiKV reported on lock-resolution write `e.op`: on `Applied` its locks are committed or
    /// rolled back, in the order the leader read them; the proposer's answer ends it (a
    /// refused or overwritten write resolved nothing). Returns false if `e.op` is not a lock
    /// resolution.
    pub(crate) fn lock_resolution_event(&mut self, tikv: &Cluster, e: OpEvent) -> bool {
        let Some(write) = self.workload.resolutions.get(&e.op) else {
            return false;
        };
        if e.outcome == OpOutcome::Applied {
            let (region, starts) = (write.region, write.start_ts.clone());
            self.apply_lock_resolution(tikv, e.store, region, &starts);
        } else {
            // The proposer's answer (done, stale or refused) is the last word on it.
            self.workload.resolutions.remove(&e.op);
        }
        true
    }

    /// Lock-resolution writes waiting to be proposed, as `(store, region, op)`: the stack hands
    /// them to TiKV at the end of the event (the scheduler and raftstore share a process).
    pub fn take_local_writes(&mut self) -> Vec<(u32, u32, u64)> {
        std::mem::take(&mut self.workload.local_writes)
    }

    /// True when lock-resolution writes wait to be proposed.
    pub fn has_local_writes(&self) -> bool {
        !self.workload.local_writes.is_empty()
    }

    /// Applies a lock resolution on `region` at `store`'s peer: each lock still held by an
    /// orphan is committed (if its primary committed) or rolled back. A lock an earlier write
    /// already resolved is left as it is.
    fn apply_lock_resolution(&mut self, tikv: &Cluster, store: u32, region: u32, starts: &[Ts]) {
        for start_ts in starts {
            let Some(orphan) = self.workload.orphans.get_mut(start_ts) else {
                continue;
            };
            if !orphan.locked.contains(&region) {
                continue;
            }
            orphan.locked.retain(|r| *r != region);
            let ts = (*start_ts, orphan.commit_ts);
            let rows =
                (orphan.committed).then(|| rows_in_region(&self.ks, &orphan.writes, region, ts));
            if orphan.locked.is_empty() {
                self.workload.orphans.remove(start_ts);
            }
            self.upstream.unlock_txn(region, *start_ts);
            if let Some(rows) = rows {
                self.write_committed_rows(tikv, store, region, rows);
            }
        }
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
        cdc.upstream.lock(0, start, &[key]);
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

    /// Asks region 0's leader to resolve locks up to `max_version` at 5 s, then runs the world
    /// to 6 s so that the resolution's write commits and applies. Returns how many
    /// transactions' locks the leader took on.
    fn resolve_at_leader(w: &mut World<Stack>, max_version: Ts) -> usize {
        let Stack { tikv, cdc } = &mut w.model;
        let leader = tikv.region_leader_store(0).expect("region 0 has a leader");
        let taken = cdc.resolve_region_locks((secs(5), tikv), leader, 0, max_version);
        for (store, region, op) in w.model.cdc.take_local_writes() {
            w.model.tikv.propose_local(&mut w.kernel, store, region, op);
        }
        w.run_until(secs(6));
        taken
    }

    /// The resolution is a Raft write: until its entry applies, the lock stays.
    #[test]
    fn the_resolution_takes_effect_when_its_write_applies() {
        let start = Ts(1_000);
        let (mut w, _) = with_orphan(false, start);
        let Stack { tikv, cdc } = &mut w.model;
        let leader = tikv.region_leader_store(0).expect("region 0 has a leader");
        assert_eq!(
            cdc.resolve_region_locks((secs(5), tikv), leader, 0, start),
            1
        );
        assert_eq!(
            cdc.upstream.oldest_lock(0),
            Some(start),
            "read, not yet written"
        );
        let writes = cdc.take_local_writes();
        assert_eq!(writes.len(), 1, "{writes:?}");
        let (store, region, op) = writes[0];
        assert_eq!((store, region), (leader, 0));
        w.model.tikv.propose_local(&mut w.kernel, store, region, op);
        w.run_until(secs(6));
        assert_eq!(w.model.cdc.upstream.oldest_lock(0), None, "applied");
        assert!(w.model.cdc.workload.resolutions.is_empty(), "answered");
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
