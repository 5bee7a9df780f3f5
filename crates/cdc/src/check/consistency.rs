//! The consistency check: downstream rows against upstream ground truth.
//!
//! At any moment, a row whose latest upstream version committed at or before the changefeed
//! checkpoint must be in MySQL exactly; rows changed after the checkpoint are not comparable
//! yet. At the finish mark (workload stopped, checkpoint caught up) that covers every row.

use crate::keyspace::Keyspace;
use crate::sink::mysql::Downstream;
use crate::ts::Ts;
use crate::upstream::ground_truth::Upstream;

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

#[cfg(test)]
mod tests {
    use super::*;

    /// Two tables of four rows; upstream has rows (0, 1) at ts 10 and (1, 2) at ts 30.
    fn setup() -> (Keyspace, Upstream, Downstream) {
        let ks = Keyspace::new(2, 4, 2);
        let mut up = Upstream::new(ks.keys(), ks.regions);
        up.commit(ks.key(0, 1), 7, Ts(10), Ts::ZERO);
        up.commit(ks.key(1, 2), 8, Ts(30), Ts::ZERO);
        (ks.clone(), up, Downstream::new(ks.keys()))
    }

    #[test]
    fn only_rows_at_or_below_the_checkpoint_are_compared() {
        let (ks, up, down) = setup();
        let at_20 = check(&ks, &up, &down, 0..2, Ts(20));
        assert_eq!(
            at_20.checked, 7,
            "the row changed at ts 30 is not comparable yet"
        );
        let [diff] = &at_20.diffs[..] else {
            panic!("the missing row at ts 10: {at_20:?}");
        };
        assert_eq!((diff.table, diff.row, diff.upstream), (0, 1, (7, Ts(10))));
        let at_30 = check(&ks, &up, &down, 0..2, Ts(30));
        assert_eq!((at_30.checked, at_30.diffs.len()), (8, 2));
    }

    #[test]
    fn a_replica_with_the_same_versions_passes_and_a_stale_value_fails() {
        let (ks, up, mut down) = setup();
        down.rows = up.rows().to_vec();
        assert!(check(&ks, &up, &down, 0..2, Ts(30)).diffs.is_empty());
        down.rows[ks.key(1, 2) as usize].value = 6;
        let report = check(&ks, &up, &down, 1..2, Ts(30));
        assert_eq!(report.checked, 4, "only the tables asked for");
        assert_eq!(report.diffs[0].downstream, (6, Ts(30)));
    }
}
