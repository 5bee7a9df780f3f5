//! Metric series of the TiCDC model.

use faultline_sim::SimTime;

use crate::cdc::Cdc;
use crate::check::consistency::check;
use crate::ids::CfIx;
use crate::upstream::workload::FailedWrites;

/// Per-table series are only kept for the first tables, so a 1,000-table run stays cheap.
pub const TABLE_SERIES_LIMIT: u32 = 16;

/// Prefix of the per-changefeed checkpoint lag series, `checkpoint_lag.<cf>` (seconds between
/// now and the changefeed's checkpoint): recorded here, read by explore's liveness check and by
/// the page's metrics strip.
pub const CHECKPOINT_LAG_METRIC: &str = "checkpoint_lag.";

impl Cdc {
    /// Series names, in sampling order.
    pub fn metric_names(&self) -> Vec<String> {
        if !self.enabled() {
            return Vec::new();
        }
        let mut names = vec![
            "orphaned_regions".to_string(),
            "txns_committed".to_string(),
            "txns_aborted".to_string(),
            "txn_commit_retries".to_string(),
            "txns_committed_per_sec".to_string(),
            "check_leader_unconfirmed".to_string(),
            "orphan_locks".to_string(),
            "resolve_lock_requests".to_string(),
            "epoch_not_match".to_string(),
        ];
        names.extend(FailedWrites::NAMES.iter().map(|n| n.to_string()));
        for cf in &self.cfg.changefeeds {
            let id = &cf.id;
            names.push(format!("{CHECKPOINT_LAG_METRIC}{id}"));
            for m in [
                "resolved_lag",
                "checkpoint_ts",
                "resolved_ts",
                "sink_rows_per_sec",
                "redo_meta_age",
                "consistency_diff_rows",
                "consistency_checked_rows",
            ] {
                names.push(format!("{m}.{id}"));
            }
        }
        for (cf, c) in self.cfg.changefeeds.iter().enumerate() {
            for t in self.cf_tables(cf as CfIx).take(TABLE_SERIES_LIMIT as usize) {
                names.push(format!("table_resolved_lag.{}.t{t}", c.id));
            }
        }
        names.extend(self.lifecycle_metric_names());
        names.extend(self.session_metric_names());
        names.extend(self.pd_client_metric_names());
        names
    }

    /// One sample of every series.
    pub fn sample_metrics(&self, now: SimTime, out: &mut Vec<f64>) {
        if !self.enabled() {
            return;
        }
        let orphaned: usize = self
            .processors
            .iter()
            .flatten()
            .map(|p| p.kv.orphaned())
            .sum();
        out.push(orphaned as f64);
        out.push(self.workload.committed as f64);
        out.push(self.workload.aborted as f64);
        out.push(self.workload.commit_retries as f64);
        out.push(self.workload.committed_per_sec.last_second(now) as f64);
        let unconfirmed: u64 = self.endpoints.iter().map(|e| e.check.unconfirmed).sum();
        out.push(unconfirmed as f64);
        let orphan_locks: usize = self.workload.orphans.values().map(|o| o.locked.len()).sum();
        out.push(orphan_locks as f64);
        out.push(self.resolve_lock_requests as f64);
        out.push(self.epoch_not_match as f64);
        out.extend(self.workload.failed.values().map(|n| n as f64));
        for (cf, f) in self.watermarks.iter().enumerate() {
            let checkpoint = self.persisted_checkpoint(cf);
            out.push(checkpoint.lag_secs(now));
            out.push(f.resolved.lag_secs(now));
            out.push(checkpoint.sim_time().as_secs_f64());
            out.push(f.resolved.sim_time().as_secs_f64());
            out.push(f.rows_per_sec.last_second(now) as f64);
            let redo_age = if self.cfg.changefeeds[cf].redo {
                now.since(f.redo_changed_at).as_secs_f64()
            } else {
                0.0
            };
            out.push(redo_age);
            let (downstream, mark) = self.replica(cf as CfIx);
            let report = check(
                &self.ks,
                &self.upstream,
                downstream,
                self.cf_tables(cf as CfIx),
                mark,
            );
            out.push(report.diffs.len() as f64);
            out.push(report.checked as f64);
        }
        for cf in 0..self.cfg.changefeeds.len() as CfIx {
            for t in self.cf_tables(cf).take(TABLE_SERIES_LIMIT as usize) {
                let resolved = match self.table_primary(cf, t) {
                    Some(c) => self.processors[c as usize][cf as usize].table_resolved(&self.ks, t),
                    None => crate::ts::Ts::ZERO,
                };
                out.push(resolved.lag_secs(now));
            }
        }
        self.sample_lifecycle_metrics(now, out);
        self.sample_session_metrics(now, out);
        self.sample_pd_client_metrics(out);
    }
}

impl Cdc {
    /// The checkpoint of changefeed `cf` as users see it: the one the owner committed to etcd
    /// (tiflow's API and `cdc cli changefeed query` read the owner's etcd-synced status,
    /// `ChangefeedReactorState.Status`), or the start ts before the first commit. The owner's
    /// memory runs a txn ahead of it, and a deposed owner's last value never commits, so the
    /// next owner may start below it (`owner/status_txn.rs`): read from memory, the
    /// checkpoint would seem to step back at every owner change.
    pub fn persisted_checkpoint(&self, cf: usize) -> crate::ts::Ts {
        self.etcd.feed_checkpoint(cf).unwrap_or(self.start_ts)
    }

    /// Series of sessions and scheduling: per table writers and owning capture (first 16
    /// tables), the max writers per changefeed, the owner, and lease remaining per capture.
    pub(crate) fn session_metric_names(&self) -> Vec<String> {
        let mut names = Vec::new();
        let limit = crate::check::metrics::TABLE_SERIES_LIMIT as usize;
        for (cf, c) in self.cfg.changefeeds.iter().enumerate() {
            for t in self.cf_tables(cf as CfIx).take(limit) {
                names.push(format!("writers.{}.t{t}", c.id));
            }
            names.push(format!("writers_max.{}", c.id));
            for t in self.cf_tables(cf as CfIx).take(limit) {
                names.push(format!("table_capture.{}.t{t}", c.id));
            }
        }
        names.push("owner_capture".to_string());
        for i in 1..=self.captures.len() {
            names.push(format!("lease_remaining.cdc-{i}"));
        }
        names
    }

    /// One sample of the series of `session_metric_names`, in order.
    pub(crate) fn sample_session_metrics(&self, now: SimTime, out: &mut Vec<f64>) {
        let limit = crate::check::metrics::TABLE_SERIES_LIMIT as usize;
        for cf in 0..self.cfg.changefeeds.len() as CfIx {
            for t in self.cf_tables(cf).take(limit) {
                out.push(self.writers(cf, t) as f64);
            }
            let max = self
                .cf_tables(cf)
                .map(|t| self.writers(cf, t))
                .max()
                .unwrap_or(0);
            out.push(max as f64);
            for t in self.cf_tables(cf).take(limit) {
                out.push(self.table_primary(cf, t).map_or(0.0, |c| c as f64 + 1.0));
            }
        }
        out.push(self.owner_capture().map_or(0.0, |c| c as f64 + 1.0));
        for c in 0..self.captures.len() as u32 {
            out.push(self.etcd.lease_remaining(c, now).as_secs_f64());
        }
    }
}
