//! Upstream ground truth: the committed versions of every row (MVCC), and the Percolator locks
//! held per region by transactions between prewrite and commit.
//!
//! TiKV keeps every version until GC removes those at or below the GC safe point, which
//! TiCDC holds at its changefeeds' checkpoint (tiflow `pkg/txnutil/gc/gc_manager.go`,
//! `TryUpdateGCSafePoint`, a service safe point at the minimum checkpoint; TiKV
//! `src/server/gc_worker/gc_manager.rs`). An incremental scan from a checkpoint therefore sees
//! every version after it (`components/cdc/src/initializer.rs`, `build_delta_scanner`).
//! Simplification: a key's versions at or below the safe point are dropped when the key is
//! next written, not by a GC round.

use std::collections::BTreeMap;

use faultline_sim::CowVec;

use crate::keyspace::Key;
use crate::ts::Ts;

/// One committed row version.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RowVersion {
    /// Value (a version counter of the row; 0 = never written).
    pub value: u64,
    /// Commit timestamp (ZERO = initial data, before any changefeed started).
    pub commit_ts: Ts,
}

/// Rows and locks.
#[derive(Clone, Debug)]
pub struct Upstream {
    rows: Vec<RowVersion>,
    /// Per key, its versions newer than the GC safe point, oldest first (copy-on-write for
    /// snapshots, as the locks).
    versions: CowVec<Vec<RowVersion>>,
    /// Versions committed so far (a version applied twice counts once).
    pub committed_versions: u64,
    /// Per region: start ts of each transaction holding locks -> the keys it has locked there.
    /// A lock is a key's (TiKV keeps it in CF_LOCK under the key, `src/storage/mvcc/txn.rs`
    /// `MvccTxn::put_lock`), so a split or merge hands each key's lock to the region now
    /// holding the key, and only the keys still locked (`crate::upstream::region_split`).
    /// Copy-on-write: a snapshot of the world shares the (mostly empty) tables of regions no
    /// transaction touched since the last one, instead of cloning 256,000 maps at full scale.
    locks: CowVec<BTreeMap<Ts, Vec<Key>>>,
}

impl Upstream {
    /// `keys` rows with their initial versions, `regions` empty lock tables.
    pub fn new(keys: u32, regions: u32) -> Self {
        Upstream {
            rows: vec![RowVersion::default(); keys as usize],
            versions: vec![Vec::new(); keys as usize].into(),
            committed_versions: 0,
            locks: vec![BTreeMap::new(); regions as usize].into(),
        }
    }

    /// The latest version of a row.
    pub fn row(&self, key: Key) -> RowVersion {
        self.rows[key as usize]
    }

    /// True when `key` has a version committed at `commit_ts` (kept since the GC safe point).
    pub fn has_version(&self, key: Key, commit_ts: Ts) -> bool {
        self.rows[key as usize].commit_ts == commit_ts
            || self.versions[key as usize]
                .iter()
                .any(|v| v.commit_ts == commit_ts)
    }

    /// All rows.
    pub fn rows(&self) -> &[RowVersion] {
        &self.rows
    }

    /// A prewrite applied: `keys` are locked in `region` at `start_ts` (a key locked twice by
    /// the same transaction holds one lock).
    pub fn lock(&mut self, region: u32, start_ts: Ts, keys: &[Key]) {
        let held = self.locks[region as usize].entry(start_ts).or_default();
        for key in keys {
            if !held.contains(key) {
                held.push(*key);
            }
        }
    }

    /// A commit or rollback applied: the transaction's locks in `region` are released.
    pub fn unlock_txn(&mut self, region: u32, start_ts: Ts) {
        self.locks[region as usize].remove(&start_ts);
    }

    /// A split made a new region: its lock table starts empty.
    pub fn add_region(&mut self) {
        self.locks.push(BTreeMap::new());
    }

    /// Takes every lock table entry of `region`, each with its locked keys (a split or merge
    /// hands them to the regions holding the keys).
    pub fn take_locks(&mut self, region: u32) -> BTreeMap<Ts, Vec<Key>> {
        std::mem::take(&mut self.locks[region as usize])
    }

    /// Start ts of every transaction holding locks in `region`, oldest first, up to and
    /// including `max_version` (what TiKV's `ScanLock` with that `max_version` returns).
    pub fn locks_up_to(&self, region: u32, max_version: Ts) -> Vec<Ts> {
        self.locks[region as usize]
            .range(..=max_version)
            .map(|(ts, _)| *ts)
            .collect()
    }

    /// The oldest lock of a region: resolved ts cannot pass it.
    pub fn oldest_lock(&self, region: u32) -> Option<Ts> {
        self.locks[region as usize].keys().next().copied()
    }

    /// The versions of `key` committed after `after`, oldest first.
    pub fn versions_after(&self, key: Key, after: Ts) -> impl Iterator<Item = RowVersion> + '_ {
        (self.versions[key as usize].iter())
            .filter(move |v| v.commit_ts > after)
            .copied()
    }

    /// Writes a committed version, dropping the key's versions at or below `gc_safe_point`.
    /// The row's latest version is the one with the highest commit ts (MVCC), whatever order
    /// the commits are applied in: the model has no write-write conflict check, so two
    /// transactions may commit one key, and a retried commit can apply after a newer one.
    pub fn commit(&mut self, key: Key, value: u64, commit_ts: Ts, gc_safe_point: Ts) {
        let versions = &mut self.versions[key as usize];
        if versions.iter().any(|v| v.commit_ts == commit_ts) {
            return;
        }
        versions.retain(|v| v.commit_ts > gc_safe_point);
        let at = versions.partition_point(|v| v.commit_ts < commit_ts);
        versions.insert(at, RowVersion { value, commit_ts });
        self.committed_versions += 1;
        let row = &mut self.rows[key as usize];
        if commit_ts > row.commit_ts {
            *row = RowVersion { value, commit_ts };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_oldest_lock_holds_until_its_transaction_commits_or_rolls_back() {
        let mut up = Upstream::new(8, 2);
        assert_eq!(up.oldest_lock(0), None);
        up.lock(0, Ts(20), &[1, 2]);
        up.lock(0, Ts(10), &[3]);
        up.lock(1, Ts(5), &[6]);
        assert_eq!(
            up.oldest_lock(0),
            Some(Ts(10)),
            "per region, the smallest start ts"
        );
        up.unlock_txn(0, Ts(10));
        assert_eq!(up.oldest_lock(0), Some(Ts(20)));
        up.unlock_txn(0, Ts(20));
        assert_eq!((up.oldest_lock(0), up.oldest_lock(1)), (None, Some(Ts(5))));
    }

    #[test]
    fn a_row_keeps_the_version_with_the_highest_commit_ts_whatever_the_order() {
        let mut up = Upstream::new(4, 1);
        up.commit(3, 2, Ts(20), Ts::ZERO);
        up.commit(3, 1, Ts(10), Ts::ZERO); // a retried commit applied late
        assert_eq!(
            up.row(3),
            RowVersion {
                value: 2,
                commit_ts: Ts(20)
            }
        );
        up.commit(3, 3, Ts(30), Ts::ZERO);
        assert_eq!(up.row(3).value, 3);
    }

    #[test]
    fn every_version_above_the_gc_safe_point_is_kept_for_a_scan() {
        let mut up = Upstream::new(2, 1);
        up.commit(1, 1, Ts(10), Ts::ZERO);
        up.commit(1, 2, Ts(20), Ts::ZERO);
        up.commit(1, 2, Ts(20), Ts::ZERO); // applied twice: one version
        let after = |up: &Upstream, ts| {
            let v: Vec<u64> = up
                .versions_after(1, Ts(ts))
                .map(|v| v.commit_ts.0)
                .collect();
            v
        };
        assert_eq!(after(&up, 5), vec![10, 20]);
        assert_eq!(after(&up, 10), vec![20]);
        assert_eq!(up.committed_versions, 2);
        // The checkpoint passed 10: GC may drop it when the key is written next.
        up.commit(1, 3, Ts(30), Ts(15));
        assert_eq!(after(&up, 0), vec![20, 30]);
        assert_eq!(up.row(1).value, 3);
    }
}
