//! Splits named by table rather than by region: the operator asks PD to split every region
//! holding part of a table in N parts, or to split the region holding one row at that row's
//! key (`pd-ctl operator add split-region <id> --policy=usekey --keys=<key>`). The regions are
//! found when the split runs, from the layout PD knows then (earlier splits, scripted or by
//! size, included), which is why this lives in the stack: the TiKV layer has no keys.
//!
//! Simplification: "every region of the table" includes a region the table shares with its
//! neighbour, which is cut as a whole (TiDB's `SPLIT TABLE` cuts inside the table's range).

use faultline_sim::{TraceEncode, TraceHasher};
use faultline_tikv::TikvAction;

use crate::keyspace::Keyspace;

/// A split of a table's regions, or of one row's region at its key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableSplit {
    /// Table index (`t0` is 0).
    pub table: u32,
    /// Split the region holding this row at its key (in two), instead of every region.
    pub row: Option<u32>,
    /// Parts each region of the table becomes (ignored with `row`).
    pub parts: u32,
}

impl TraceEncode for TableSplit {
    fn encode(&self, h: &mut TraceHasher) {
        h.word(0x5b1);
        h.word((self.table as u64) << 32 | self.parts as u64);
        h.word(self.row.map_or(u64::MAX, u64::from));
    }
}

impl TableSplit {
    /// The TiKV splits this asks PD for, on the layout `ks` as it is now: one per region of
    /// the table, or one at the row's key (none when the key already starts a region).
    pub(crate) fn actions(&self, ks: &Keyspace) -> Vec<TikvAction> {
        let Some(row) = self.row else {
            let regions = ks.table_regions(self.table).to_vec();
            let parts = self.parts;
            let split = |region| TikvAction::Split {
                region,
                parts,
                at: None,
            };
            return regions.into_iter().map(split).collect();
        };
        let key = ks.key(self.table, row);
        let region = ks.region_of(key);
        if ks.region_keys(region).0 == key {
            return Vec::new();
        }
        vec![TikvAction::Split {
            region,
            parts: 2,
            at: Some(key as u64),
        }]
    }
}
