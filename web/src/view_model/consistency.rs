//! The consistency check's differing rows per changefeed (downstream MySQL against upstream
//! ground truth, for rows whose latest version is at or below the changefeed checkpoint).

use faultline_cdc::check::consistency::check;
use faultline_cdc::Ts;
use faultline_scenario::Run;
use serde::{Deserialize, Serialize};

use super::lanes::double_writes;

/// Rows listed per changefeed; the count is always exact.
pub const MAX_ROWS: usize = 200;

/// A row version: value and commit ts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Version {
    /// The row's value (a version counter; 0 = never written).
    pub value: u64,
    /// Commit ts (TSO); 0 for the initial data.
    pub commit_ts: u64,
    /// Simulated time of the commit ts (µs).
    pub commit_at_us: u64,
}

impl Version {
    fn new((value, ts): (u64, Ts)) -> Version {
        Version {
            value,
            commit_ts: ts.0,
            commit_at_us: if ts == Ts::ZERO {
                0
            } else {
                ts.sim_time().as_micros()
            },
        }
    }
}

/// One differing row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiffRow {
    /// Table.
    pub table: u32,
    /// Row within the table.
    pub row: u32,
    /// Upstream (ground truth).
    pub upstream: Version,
    /// Downstream (MySQL).
    pub downstream: Version,
    /// When the row's table last began to have two writers (`writers.<cf>.t<N>` >= 2) at or
    /// before the check, µs: the likely moment of the bad write. The model does not record
    /// when each downstream write landed, so this is the closest link the data allows.
    pub double_write_at_us: Option<u64>,
}

/// One changefeed's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FeedConsistency {
    /// Changefeed id.
    pub id: String,
    /// Rows compared.
    pub checked: u64,
    /// Rows that differ (all of them).
    pub differing: u64,
    /// The first `MAX_ROWS` of them.
    pub rows: Vec<DiffRow>,
}

/// The view's data; empty without TiCDC.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConsistencyVm {
    /// Per changefeed.
    pub feeds: Vec<FeedConsistency>,
}

/// Runs the check for every changefeed at its current checkpoint.
pub fn consistency(run: &Run) -> ConsistencyVm {
    let cdc = &run.world.model.cdc;
    if !cdc.enabled() {
        return ConsistencyVm::default();
    }
    let feeds = cdc
        .cfg
        .changefeeds
        .iter()
        .enumerate()
        .filter_map(|(cf, c)| {
            let down = cdc.downstream.get(cf)?;
            let feed = cdc.watermarks.get(cf)?;
            let report = check(
                &cdc.ks,
                &cdc.upstream,
                down,
                cdc.cf_tables(cf as u16),
                feed.checkpoint,
            );
            let metrics = &run.world.kernel.metrics;
            let now = run.now().as_secs_f64();
            let double_write_at = |table: u32| {
                double_writes(metrics, &c.id, &format!("t{table}"))
                    .iter()
                    .rev()
                    .find(|w| w.from_secs <= now)
                    .map(|w| (w.from_secs * 1e6).round() as u64)
            };
            Some(FeedConsistency {
                id: c.id.clone(),
                checked: report.checked,
                differing: report.diffs.len() as u64,
                rows: report
                    .diffs
                    .iter()
                    .take(MAX_ROWS)
                    .map(|d| DiffRow {
                        table: d.table,
                        row: d.row,
                        upstream: Version::new(d.upstream),
                        downstream: Version::new(d.downstream),
                        double_write_at_us: double_write_at(d.table),
                    })
                    .collect(),
            })
        })
        .collect();
    ConsistencyVm { feeds }
}
