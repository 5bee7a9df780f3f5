//! The words of the layout: keys, a region's span, the regions of a table.

/// A row key: `table * rows_per_table + row`.
pub type Key = u32;

/// A region's key range and the epoch version it has with that range (what PD's region
/// info tells a client or TiCDC's KV client).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegionSpan {
    /// First key.
    pub start: Key,
    /// One past the last key.
    pub end: Key,
    /// Epoch version: grows with every split or merge of the region (and PrepareMerge).
    pub version: u64,
}

/// The regions covering a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableRegions {
    /// Bootstrap regions `first..=last`, none of them reached by a split or merge.
    Range(u32, u32),
    /// The regions holding the table's keys, in key order, once a split or merge reached
    /// the table's bootstrap regions.
    List(Vec<u32>),
}

impl TableRegions {
    /// How many regions.
    pub fn len(&self) -> usize {
        match self {
            TableRegions::Range(a, b) => (b - a) as usize + 1,
            TableRegions::List(v) => v.len(),
        }
    }

    /// True when there is none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// True when `region` is one of them.
    pub fn contains(&self, region: u32) -> bool {
        match self {
            TableRegions::Range(a, b) => (*a..=*b).contains(&region),
            TableRegions::List(v) => v.contains(&region),
        }
    }

    /// The regions, in key order.
    pub fn to_vec(&self) -> Vec<u32> {
        match self {
            TableRegions::Range(a, b) => (*a..=*b).collect(),
            TableRegions::List(v) => v.clone(),
        }
    }
}
