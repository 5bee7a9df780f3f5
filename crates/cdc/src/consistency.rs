//! The consistency check: downstream rows against upstream ground truth.
//!
//! At any moment, a row whose latest upstream version committed at or before the changefeed
//! checkpoint must be in MySQL exactly; rows changed after the checkpoint are not comparable
//! yet. At the finish mark (workload stopped, checkpoint caught up) that covers every row.

use crate::keyspace::Keyspace;
use crate::mysql::Downstream;
use crate::ts::Ts;
use crate::upstream::Upstream;

/// A row that differs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowDiff {
    /// Table.
    pub table: u32,
    /// Row within the table.
    pub row: u32,
    /// Upstream value and commit ts.
    pub upstream: (u64, Ts),
    /// Downstream value and commit ts.
    pub downstream: (u64, Ts),
}

/// Result of a check.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConsistencyReport {
    /// Rows compared.
    pub checked: u64,
    /// Rows that differ (all of them).
    pub diffs: Vec<RowDiff>,
}

/// Compares the rows of `tables` whose upstream version is at or below `checkpoint`.
pub fn check(
    ks: &Keyspace,
    up: &Upstream,
    down: &Downstream,
    tables: std::ops::Range<u32>,
    checkpoint: Ts,
) -> ConsistencyReport {
    let mut report = ConsistencyReport::default();
    for table in tables {
        for row in 0..ks.rows_per_table {
            let key = ks.key(table, row);
            let u = up.row(key);
            if u.commit_ts > checkpoint {
                continue;
            }
            report.checked += 1;
            let d = down.rows[key as usize];
            if d != u {
                report.diffs.push(RowDiff {
                    table,
                    row,
                    upstream: (u.value, u.commit_ts),
                    downstream: (d.value, d.commit_ts),
                });
            }
        }
    }
    report
}
