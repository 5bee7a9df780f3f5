//! Where rows live: tables are laid out in key order (table-major), and the key space is cut
//! evenly into the TiKV model's bootstrap regions, so a table spans one or more regions (or
//! several small tables share one), as pre-split tables do. Regions that split later get
//! their ranges from the split table ([`splits`]), as PD's region info gives them.

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
    /// Regions at bootstrap (`topology.regions`); splits add more.
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

    /// The regions covering a table now: the bootstrap regions from its first key's to its
    /// last key's, each split one replaced by the regions it became that hold the table's keys.
    pub fn table_regions(&self, table: u32) -> TableRegions {
        let (a, b) = self.base_table_regions(table);
        if !self.splits.any_split_in(a, b) {
            return TableRegions::Range(a, b);
        }
        let keys = (self.key(table, 0), self.key(table + 1, 0));
        let mut list = Vec::new();
        for base in a..=b {
            if self.splits.is_split(base) {
                let (s, e) = self.base_region_keys(base);
                list.extend(self.regions_in(keys.0.max(s), keys.1.min(e)));
            } else {
                list.push(base);
            }
        }
        TableRegions::List(list)
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

    /// The regions holding keys in `[start, end)`, in key order.
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
    /// A region a split made or cut holds the tables its keys belong to; for a bootstrap
    /// region both ends of a table's range grow with the table, so two binary searches find
    /// them.
    pub fn tables_of_region(&self, region: u32) -> Option<(u32, u32)> {
        if let Some(s) = self.splits.span(region) {
            return (s.start < s.end).then(|| (self.table_of(s.start), self.table_of(s.end - 1)));
        }
        let first = partition_point(self.tables, |t| self.base_table_regions(t).1 < region);
        let end = partition_point(self.tables, |t| self.base_table_regions(t).0 <= region);
        (first < end).then(|| (first, end - 1))
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
        let (start, end) = self.region_keys(parent);
        let base = self.splits.base_of(parent);
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
        self.splits.replace(base, (start, end), spans);
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
mod tests;
