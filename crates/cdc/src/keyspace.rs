//! Where rows live: tables are laid out in key order (table-major), and the key space is cut
//! evenly into the TiKV model's regions, so a table spans one or more regions (or several small
//! tables share one), as pre-split tables do.

/// A row key: `table * rows_per_table + row`.
pub type Key = u32;

/// The row and region layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Keyspace {
    /// Tables.
    pub tables: u32,
    /// Rows per table.
    pub rows_per_table: u32,
    /// Regions of the TiKV model.
    pub regions: u32,
}

impl Keyspace {
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

    /// The region holding a key.
    pub fn region_of(&self, key: Key) -> u32 {
        ((key as u64 * self.regions as u64) / self.keys().max(1) as u64) as u32
    }

    /// Keys of a region: `[start, end)`.
    pub fn region_keys(&self, region: u32) -> (Key, Key) {
        let k = self.keys() as u64;
        let r = self.regions.max(1) as u64;
        // Smallest key whose region is >= region.
        let first = |reg: u64| (reg * k).div_ceil(r) as u32;
        (first(region as u64), first(region as u64 + 1))
    }

    /// Regions covering a table, `[first, last]` inclusive.
    pub fn table_regions(&self, table: u32) -> (u32, u32) {
        let start = self.key(table, 0);
        let end = self.key(table, self.rows_per_table.max(1) - 1);
        (self.region_of(start), self.region_of(end))
    }

    /// The tables whose [`Keyspace::table_regions`] include `region`, `[first, last]`
    /// inclusive, or `None` if none does: what a change of that region's state can move.
    /// Both ends of `table_regions` grow with the table, so two binary searches find them.
    pub fn tables_of_region(&self, region: u32) -> Option<(u32, u32)> {
        let first = partition_point(self.tables, |t| self.table_regions(t).1 < region);
        let end = partition_point(self.tables, |t| self.table_regions(t).0 <= region);
        (first < end).then(|| (first, end - 1))
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
mod tests {
    use super::*;

    #[test]
    fn regions_partition_the_keys() {
        for (tables, rows, regions) in [(4, 100, 16), (10, 7, 3), (3, 5, 40)] {
            let ks = Keyspace {
                tables,
                rows_per_table: rows,
                regions,
            };
            let mut next = 0;
            for r in 0..regions {
                let (a, b) = ks.region_keys(r);
                assert_eq!(a, next, "region {r} of {ks:?}");
                for key in a..b {
                    assert_eq!(ks.region_of(key), r);
                }
                next = b;
            }
            assert_eq!(next, ks.keys());
        }
    }

    #[test]
    fn tables_of_a_region_are_the_tables_whose_ranges_hold_it() {
        for (tables, rows, regions) in [(4, 100, 16), (10, 7, 3), (3, 5, 40), (1000, 2, 256)] {
            let ks = Keyspace {
                tables,
                rows_per_table: rows,
                regions,
            };
            for r in 0..regions {
                let holding: Vec<u32> = (0..tables)
                    .filter(|t| {
                        let (a, b) = ks.table_regions(*t);
                        (a..=b).contains(&r)
                    })
                    .collect();
                let want = holding.first().map(|a| (*a, *holding.last().unwrap()));
                assert_eq!(ks.tables_of_region(r), want, "region {r} of {ks:?}");
            }
        }
    }
}
