//! Where rows live: tables are laid out in key order (table-major), and the key space is cut
//! evenly into the TiKV model's bootstrap regions, so a table spans one or more regions (or
//! several small tables share one), as pre-split tables do. Regions split and merge later
//! (a merge may join regions of different bootstrap regions); the regions a split or merge
//! reached get their ranges from the split table ([`splits`]), as PD's region info gives
//! them, and the rest keep the bootstrap arithmetic, so an unchanged layout costs nothing.

mod span;
mod splits;

use faultline_tikv::RegionEpoch;

pub use span::{Key, RegionSpan, TableRegions};
use splits::SplitTable;

/// The row and region layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Keyspace {
    /// Tables.
    pub tables: u32,
    /// Rows per table.
    pub rows_per_table: u32,
    /// Regions at bootstrap (`topology.regions`); splits add more, merges empty some.
    pub regions: u32,
    splits: SplitTable,
}

impl Keyspace {
    /// `tables` tables of `rows_per_table` rows, cut evenly into `regions` regions.
    pub fn new(tables: u32, rows_per_table: u32, regions: u32) -> Self {
        Keyspace {
            tables,
            rows_per_table,
            regions,
            splits: SplitTable::default(),
        }
    }

    /// Total keys.
    pub fn keys(&self) -> u32 {
        self.tables * self.rows_per_table
    }

    /// The key of `row` in `table`.
    pub fn key(&self, table: u32, row: u32) -> Key {
        table * self.rows_per_table + row
    }

    /// The table of a key.
    pub fn table_of(&self, key: Key) -> u32 {
        key / self.rows_per_table.max(1)
    }

    /// The bootstrap region whose range held `key`.
    fn base_region_of(&self, key: Key) -> u32 {
        ((key as u64 * self.regions as u64) / self.keys().max(1) as u64) as u32
    }

    /// The region holding a key now.
    pub fn region_of(&self, key: Key) -> u32 {
        let base = self.base_region_of(key);
        self.splits.region_in(base, key).unwrap_or(base)
    }

    /// A bootstrap region's keys: `[start, end)`.
    fn base_region_keys(&self, region: u32) -> (Key, Key) {
        let k = self.keys() as u64;
        let r = self.regions.max(1) as u64;
        // Smallest key whose region is >= region.
        let first = |reg: u64| (reg * k).div_ceil(r) as u32;
        (first(region as u64), first(region as u64 + 1))
    }

    /// Keys of a region now: `[start, end)`.
    pub fn region_keys(&self, region: u32) -> (Key, Key) {
        let s = self.span(region);
        (s.start, s.end)
    }

    /// A region's range and epoch version now.
    pub fn span(&self, region: u32) -> RegionSpan {
        self.splits.span(region).unwrap_or_else(|| {
            let (start, end) = self.base_region_keys(region);
            RegionSpan {
                start,
                end,
                version: RegionEpoch::INIT.version,
            }
        })
    }

    /// The bootstrap regions covering a table, `[first, last]` inclusive.
    fn base_table_regions(&self, table: u32) -> (u32, u32) {
        let start = self.key(table, 0);
        let end = self.key(table, self.rows_per_table.max(1) - 1);
        (self.base_region_of(start), self.base_region_of(end))
    }

    /// The regions covering a table now: while no split or merge reached its bootstrap
    /// regions, those, from its first key's to its last key's (no allocation: this runs for
    /// every table at any scale); after, the regions holding its keys, in key order.
    pub fn table_regions(&self, table: u32) -> TableRegions {
        let (a, b) = self.base_table_regions(table);
        if !self.splits.any_touched_in(a, b) {
            return TableRegions::Range(a, b);
        }
        TableRegions::List(self.regions_in(self.key(table, 0), self.key(table + 1, 0)))
    }

    /// The regions holding `keys`, each once, in the order they first appear.
    pub fn regions_of_keys<'k>(&self, keys: impl IntoIterator<Item = &'k Key>) -> Vec<u32> {
        let mut regions: Vec<u32> = Vec::new();
        for key in keys {
            let region = self.region_of(*key);
            if !regions.contains(&region) {
                regions.push(region);
            }
        }
        regions
    }

    /// The regions holding keys in `[start, end)`, each once, in key order (an empty region,
    /// as a merge leaves its source, holds none).
    pub fn regions_in(&self, start: Key, end: Key) -> Vec<u32> {
        let mut out = Vec::new();
        let mut key = start;
        while key < end {
            let r = self.region_of(key);
            out.push(r);
            key = self.region_keys(r).1.max(key + 1);
        }
        out
    }

    /// The tables whose [`Keyspace::table_regions`] include `region`, `[first, last]`
    /// inclusive, or `None` if none does: what a change of that region's state can move.
    /// A region a split or merge reached holds the tables its keys belong to (none once
    /// merged away); for an untouched bootstrap region both ends of a table's range grow with
    /// the table, so two binary searches find them.
    pub fn tables_of_region(&self, region: u32) -> Option<(u32, u32)> {
        if let Some(s) = self.splits.span(region) {
            return (s.start < s.end).then(|| (self.table_of(s.start), self.table_of(s.end - 1)));
        }
        let first = partition_point(self.tables, |t| self.base_table_regions(t).1 < region);
        let end = partition_point(self.tables, |t| self.base_table_regions(t).0 <= region);
        if first >= end {
            return None;
        }
        // A bootstrap region with no keys (more regions than keys) lies inside one table's
        // range at most, and only that table's cheap `Range` names it: a `List` names the
        // regions holding keys.
        let (start, stop) = self.base_region_keys(region);
        if start == stop {
            let (a, b) = self.base_table_regions(first);
            if self.splits.any_touched_in(a, b) {
                return None;
            }
        }
        Some((first, end - 1))
    }

    /// The regions holding the key just before `region`'s start and its end key: the ones a
    /// merge may join it with. `None` at either end of the key space, and both for a region
    /// with no keys.
    pub fn neighbours(&self, region: u32) -> (Option<u32>, Option<u32>) {
        let s = self.span(region);
        if s.start >= s.end {
            return (None, None);
        }
        let left = (s.start > 0).then(|| self.region_of(s.start - 1));
        let right = (s.end < self.keys()).then(|| self.region_of(s.end));
        (left, right)
    }

    /// `parent` split: regions `first..first + added` take the first parts of its range, cut
    /// evenly, and `parent` keeps the last (TiKV's `right_derive_when_split`); all of them
    /// have epoch version `version`. A range with fewer keys than parts leaves some empty. A
    /// split at key `at` (one new region) cuts there instead, if `at` lies inside the range.
    pub fn split(
        &mut self,
        parent: u32,
        (first, added, version): (u32, u32, u64),
        at: Option<Key>,
    ) {
        self.touch(parent);
        let (start, end) = self.region_keys(parent);
        let parts = added as u64 + 1;
        let at = at.filter(|k| added == 1 && (start..end).contains(k));
        let cut = |i: u64| match (i, at) {
            (1, Some(key)) => key,
            _ => start + ((end - start) as u64 * i / parts) as u32,
        };
        let ids = (first..first + added).chain(std::iter::once(parent));
        let spans = ids.enumerate().map(|(i, r)| {
            let span = RegionSpan {
                start: cut(i as u64),
                end: cut(i as u64 + 1),
                version,
            };
            (r, span)
        });
        self.splits.replace((start, end), spans);
    }

    /// TiKV's CommitMerge: `source` and `target` are adjacent (one's range ends where the
    /// other's starts); `target` then covers both ranges with epoch version `version`, and
    /// `source` holds no keys: its span is empty at its old start and keeps its last version
    /// (the one PrepareMerge gave it), and no key, table or range lookup names it. Regions
    /// that are not adjacent (or the same, or one merged away already) do not merge: false,
    /// and nothing changes.
    pub fn merge(&mut self, source: u32, target: u32, version: u64) -> bool {
        let (s, t) = (self.span(source), self.span(target));
        let gone = self.splits.is_merged(source) || self.splits.is_merged(target);
        if gone || source == target || (s.end != t.start && t.end != s.start) {
            return false;
        }
        self.touch(source);
        self.touch(target);
        self.splits.merge(source, target, version);
        true
    }

    /// `region`'s epoch version becomes `version` and its range stays, as TiKV's
    /// PrepareMerge (on the source) and RollbackMerge do.
    pub fn set_version(&mut self, region: u32, version: u64) {
        self.touch(region);
        self.splits.set_version(region, version);
    }

    /// Places `region` in the split table before a split, merge or new version changes it. A region not
    /// placed yet is an untouched bootstrap region holding exactly its base's range, so
    /// touching that one base touches every base the change can reach.
    fn touch(&mut self, region: u32) {
        if region < self.regions && !self.splits.is_touched(region) {
            let (start, end) = self.base_region_keys(region);
            let version = RegionEpoch::INIT.version;
            let span = RegionSpan {
                start,
                end,
                version,
            };
            self.splits.touch(region, span);
        }
    }
}

/// The first `t` in `0..n` for which `before(t)` is false (`before` is true, then false).
fn partition_point(n: u32, before: impl Fn(u32) -> bool) -> u32 {
    let (mut lo, mut hi) = (0, n);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if before(mid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

#[cfg(test)]
mod merge_tests;
#[cfg(test)]
mod tests;
