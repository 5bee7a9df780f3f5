//! Upstream ground truth: the latest committed version of every row, and the Percolator locks
//! held per region by transactions between prewrite and commit.

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
    /// Per region: start ts of each transaction holding locks -> number of its keys locked.
    /// Copy-on-write: a snapshot of the world shares the (mostly empty) tables of regions no
    /// transaction touched since the last one, instead of cloning 256,000 maps at full scale.
    locks: CowVec<BTreeMap<Ts, u32>>,
}

impl Upstream {
    /// `keys` rows with their initial versions, `regions` empty lock tables.
    pub fn new(keys: u32, regions: u32) -> Self {
        Upstream {
            rows: vec![RowVersion::default(); keys as usize],
            locks: vec![BTreeMap::new(); regions as usize].into(),
        }
    }

    /// The latest version of a row.
    pub fn row(&self, key: Key) -> RowVersion {
        self.rows[key as usize]
    }

    /// All rows.
    pub fn rows(&self) -> &[RowVersion] {
        &self.rows
    }

    /// A prewrite applied: `keys` locks in `region` at `start_ts`.
    pub fn lock(&mut self, region: u32, start_ts: Ts, keys: u32) {
        *self.locks[region as usize].entry(start_ts).or_insert(0) += keys;
    }

    /// A commit or rollback applied: the transaction's locks in `region` are released.
    pub fn unlock_txn(&mut self, region: u32, start_ts: Ts) {
        self.locks[region as usize].remove(&start_ts);
    }

    /// A split made a new region: its lock table starts empty.
    pub fn add_region(&mut self) {
        self.locks.push(BTreeMap::new());
    }

    /// Takes every lock table entry of `region` (a split moves them to where their keys are).
    pub fn take_locks(&mut self, region: u32) -> BTreeMap<Ts, u32> {
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

    /// Writes a committed version. The row's latest version is the one with the highest
    /// commit ts (MVCC), whatever order the commits are applied in: the model has no
    /// write-write conflict check, so two transactions may commit one key, and a retried
    /// commit can apply after a newer one.
    pub fn commit(&mut self, key: Key, value: u64, commit_ts: Ts) {
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
        up.lock(0, Ts(20), 2);
        up.lock(0, Ts(10), 1);
        up.lock(1, Ts(5), 1);
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
        up.commit(3, 2, Ts(20));
        up.commit(3, 1, Ts(10)); // a retried commit applied late
        assert_eq!(
            up.row(3),
            RowVersion {
                value: 2,
                commit_ts: Ts(20)
            }
        );
        up.commit(3, 3, Ts(30));
        assert_eq!(up.row(3).value, 3);
    }
}
