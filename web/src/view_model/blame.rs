//! Watermark blame (the tiflow#9595 view): for each changefeed, which table holds its minimum
//! checkpoint / resolved ts, which region holds that table's minimum, which store leads it,
//! and why it is behind.

use faultline_cdc::capture::kvclient::{Owner, RegionTrack};
use faultline_cdc::capture::processor::{visit_table_tracks, Processor};
use faultline_cdc::keyspace::Keyspace;
use faultline_cdc::{Cdc, Ts};
use faultline_scenario::Run;
use faultline_sim::SimTime;
use serde::{Deserialize, Serialize};

use super::region_detail::store_name;

/// A lock older than this (seconds) is blamed: transactions normally hold locks for
/// milliseconds, so an older one is what pins the region's resolved ts.
pub const LOCK_BLAME_SECS: f64 = 2.0;
/// A table whose checkpoint trails its own resolved ts by more than this (seconds) has a slow
/// sink: the data is there, it is not being written.
pub const SLOW_SINK_GAP_SECS: f64 = 10.0;
/// Tables listed per changefeed, most lagging first.
pub const TABLES_LISTED: usize = 5;

/// Why a watermark is held back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Reason {
    /// The KV client handed the region to a worker that had exited: nobody processes or
    /// re-requests it (tiflow#9595).
    Orphaned,
    /// The region has no leader, so TiKV computes no resolved ts for it (tikv#14547).
    Leaderless {
        /// Seconds without a leader.
        secs: Option<u64>,
    },
    /// The subscription is not live yet: waiting to retry, waiting for the first event, or
    /// the incremental scan has not finished.
    Subscription {
        /// `retrying`, `pending` or `scanning`.
        state: String,
    },
    /// A Percolator lock older than `LOCK_BLAME_SECS` caps the region's resolved ts.
    UnresolvedLock {
        /// Age of the oldest lock in seconds.
        age_secs: f64,
    },
    /// No KV client tracks the region.
    NotTracked,
    /// The KV client follows the region under a range it no longer has: it split, or merged
    /// into `merged_into`, and the client has not heard. tiflow's span frontier keeps that
    /// range at its last ts, so it holds the table.
    StaleRange {
        /// The region it merged into, if it merged away.
        merged_into: Option<u32>,
    },
    /// The table sink is far behind the table's resolved ts.
    SlowSink {
        /// Resolved minus checkpoint, in seconds.
        gap_secs: f64,
    },
}

impl Reason {
    /// A short stable code (`data-reason` in the page).
    pub fn code(&self) -> &'static str {
        match self {
            Reason::Orphaned => "orphaned",
            Reason::Leaderless { .. } => "leaderless",
            Reason::Subscription { .. } => "subscription",
            Reason::UnresolvedLock { .. } => "lock",
            Reason::NotTracked => "not-tracked",
            Reason::StaleRange { .. } => "stale-range",
            Reason::SlowSink { .. } => "slow-sink",
        }
    }

    /// One sentence for the page.
    pub fn explain(&self) -> String {
        match self {
            Reason::Orphaned => "orphaned: range locked but owned by no region worker, \
                                 nobody will re-request it"
                .to_string(),
            Reason::Leaderless { secs: Some(s) } => {
                format!("leaderless for {s} s: no resolved ts without a leader")
            }
            Reason::Leaderless { secs: None } => "leaderless".to_string(),
            Reason::Subscription { state } => format!("subscription {state}"),
            Reason::UnresolvedLock { age_secs } => {
                format!("unresolved lock {age_secs:.1} s old pins the resolved ts")
            }
            Reason::NotTracked => "no KV client tracks this region".to_string(),
            Reason::StaleRange {
                merged_into: Some(into),
            } => format!(
                "merged into region {into}, but the KV client still follows its old range \
                 and has not heard"
            ),
            Reason::StaleRange { merged_into: None } => {
                "its range changed (split), but the KV client still follows the old one \
                 and has not heard"
                    .to_string()
            }
            Reason::SlowSink { gap_secs } => {
                format!("slow sink: checkpoint {gap_secs:.1} s behind the table's resolved ts")
            }
        }
    }
}

/// The region holding a table's minimum resolved ts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RegionBlame {
    /// Region id.
    pub region: u32,
    /// Store of its live leader.
    pub leader_store: Option<String>,
    /// The KV client's resolved-ts lag for it (seconds).
    pub resolved_lag_secs: f64,
    /// Who handles its subscription: `worker (tikv-2)`, `pending (tikv-1)`, `retrying`,
    /// `lost`.
    pub owner: String,
    /// Everything that applies, most decisive first.
    pub reasons: Vec<Reason>,
}

/// One table of a changefeed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableBlame {
    /// Table id.
    pub table: u32,
    /// Capture replicating it in this changefeed (`none` while unplaced).
    pub capture: String,
    /// Table checkpoint lag (seconds).
    pub checkpoint_lag_secs: f64,
    /// Table resolved-ts lag (seconds).
    pub resolved_lag_secs: f64,
    /// Its regions, in key order.
    pub regions: Vec<u32>,
    /// Holds the changefeed's minimum checkpoint.
    pub holds_checkpoint: bool,
    /// Holds the changefeed's minimum resolved ts.
    pub holds_resolved: bool,
    /// The region holding the table's minimum resolved ts.
    pub region: RegionBlame,
    /// Table-level reasons (a slow sink).
    pub reasons: Vec<Reason>,
}

/// One changefeed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FeedBlame {
    /// Changefeed id.
    pub id: String,
    /// Checkpoint lag (seconds).
    pub checkpoint_lag_secs: f64,
    /// Resolved-ts lag (seconds).
    pub resolved_lag_secs: f64,
    /// The most lagging tables (always including both holders), most lagging first.
    pub tables: Vec<TableBlame>,
}

/// The view's data; empty when the run has no TiCDC.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BlameVm {
    /// Per changefeed.
    pub feeds: Vec<FeedBlame>,
}

impl BlameVm {
    /// The changefeed's table holding its minimum checkpoint.
    pub fn checkpoint_holder(&self, cf: usize) -> Option<&TableBlame> {
        self.feeds
            .get(cf)?
            .tables
            .iter()
            .find(|t| t.holds_checkpoint)
    }
}

/// Blame at the cursor for every changefeed.
pub fn blame(run: &Run) -> BlameVm {
    let cdc = &run.world.model.cdc;
    if !cdc.enabled() {
        return BlameVm::default();
    }
    let feeds = (0..cdc.cfg.changefeeds.len())
        .map(|cf| feed_blame(run, cdc, cf))
        .collect();
    BlameVm { feeds }
}

/// A table's watermarks: the owner's last report, else the processor's live values.
struct TableMarks {
    table: u32,
    /// The changefeed's primary for the table; `None` while the owner has placed it nowhere.
    capture: Option<usize>,
    checkpoint: Ts,
    resolved: Ts,
}

fn feed_blame(run: &Run, cdc: &Cdc, cf: usize) -> FeedBlame {
    let now = run.now();
    let feed = &cdc.watermarks[cf];
    let marks: Vec<TableMarks> = cdc
        .cf_tables(cf as u16)
        .map(|t| {
            // Each changefeed places its tables on its own: the same table may sit on
            // different captures in different changefeeds.
            let capture = cdc.table_primary(cf as u16, t).map(|c| c as usize);
            let processor = capture.and_then(|c| cdc.processors.get(c)?.get(cf));
            let (checkpoint, resolved) = match (feed.tables.get(&t), processor) {
                (Some(pair), _) => *pair,
                (None, Some(p)) => (
                    p.tables.get(&t).map(|s| s.checkpoint).unwrap_or(Ts::ZERO),
                    frontier(p, &cdc.ks, t).map_or(Ts::ZERO, |(_, tr)| tr.resolved),
                ),
                (None, None) => (Ts::ZERO, Ts::ZERO),
            };
            TableMarks {
                table: t,
                capture,
                checkpoint,
                resolved,
            }
        })
        .collect();
    let rs_holder = marks
        .iter()
        .min_by_key(|m| (m.resolved, m.table))
        .map(|m| m.table);
    let mut order: Vec<&TableMarks> = marks.iter().collect();
    order.sort_by_key(|m| (m.checkpoint, m.resolved, m.table));
    // The holder is the first table listed: when several tables share the lowest checkpoint
    // (a caught-up changefeed), the one with the lowest resolved ts, so it is always listed.
    let cp_holder = order.first().map(|m| m.table);
    let mut listed: Vec<&TableMarks> = order.iter().take(TABLES_LISTED).copied().collect();
    if let Some(m) = order.iter().find(|m| Some(m.table) == rs_holder) {
        if !listed.iter().any(|l| l.table == m.table) {
            listed.push(m);
        }
    }
    FeedBlame {
        id: cdc.cfg.changefeeds[cf].id.clone(),
        checkpoint_lag_secs: cdc.persisted_checkpoint(cf).lag_secs(now),
        resolved_lag_secs: feed.resolved.lag_secs(now),
        tables: listed
            .into_iter()
            .map(|m| table_blame(run, cdc, cf, m, cp_holder, rs_holder))
            .collect(),
    }
}

fn table_blame(
    run: &Run,
    cdc: &Cdc,
    cf: usize,
    m: &TableMarks,
    cp_holder: Option<u32>,
    rs_holder: Option<u32>,
) -> TableBlame {
    let now = run.now();
    let regions = cdc.ks.table_regions(m.table);
    let processor = m.capture.and_then(|c| cdc.processors.get(c)?.get(cf));
    // With no tracked region at all, the table's first region is the one to explain.
    let region = match processor.and_then(|p| frontier(p, &cdc.ks, m.table)) {
        Some((r, track)) => region_blame(run, cdc, r, Some(track), now),
        None => {
            let first = regions.to_vec().first().copied().unwrap_or(0);
            region_blame(run, cdc, first, None, now)
        }
    };
    let checkpoint_lag_secs = m.checkpoint.lag_secs(now);
    let resolved_lag_secs = m.resolved.lag_secs(now);
    let gap = checkpoint_lag_secs - resolved_lag_secs;
    let reasons = if gap > SLOW_SINK_GAP_SECS {
        vec![Reason::SlowSink { gap_secs: gap }]
    } else {
        Vec::new()
    };
    TableBlame {
        table: m.table,
        capture: m
            .capture
            .and_then(|c| cdc.captures.get(c))
            .and_then(|id| run.world.kernel.net.nodes().get(id.0 as usize))
            .map_or_else(|| "none".to_string(), |n| n.name.clone()),
        checkpoint_lag_secs,
        resolved_lag_secs,
        regions: regions.to_vec(),
        holds_checkpoint: cp_holder == Some(m.table),
        holds_resolved: rs_holder == Some(m.table),
        region,
        reasons,
    }
}

/// The tracked region the table's puller frontier is made of with the lowest resolved ts (the
/// frontier's minimum), lowest id on ties: the same regions the processor reads, including
/// one still held under the range it had before a split or merge.
fn frontier<'p>(p: &'p Processor, ks: &Keyspace, table: u32) -> Option<(u32, &'p RegionTrack)> {
    let mut lowest: Option<(u32, &'p RegionTrack)> = None;
    visit_table_tracks(&p.kv, ks, table, |r, t| {
        if lowest.is_none_or(|(lr, lt)| (t.resolved, r) < (lt.resolved, lr)) {
            lowest = Some((r, t));
        }
    });
    lowest
}

fn region_blame(
    run: &Run,
    cdc: &Cdc,
    region: u32,
    track: Option<&RegionTrack>,
    now: SimTime,
) -> RegionBlame {
    let tikv = &run.world.model.tikv;
    let store = |s: u32| store_name(run, s);
    let (owner, owner_reason) = match track.map(|t| (t.owner, t.initialized)) {
        None => ("untracked".to_string(), Some(Reason::NotTracked)),
        Some((Owner::Lost, _)) => ("lost".to_string(), Some(Reason::Orphaned)),
        Some((Owner::Retrying, _)) => ("retrying".to_string(), Some(subscription("retrying"))),
        Some((Owner::Pending { store: s, .. }, _)) => (
            format!("pending ({})", store(s)),
            Some(subscription("pending")),
        ),
        Some((Owner::Worker { store: s, .. }, initialized)) => (
            format!("worker ({})", store(s)),
            (!initialized).then(|| subscription("scanning")),
        ),
    };
    // Most decisive first: an orphaned region never recovers by itself; without a leader no
    // subscription can succeed; the subscription state and locks follow.
    let mut reasons = Vec::new();
    if owner_reason == Some(Reason::Orphaned) {
        reasons.extend(owner_reason.clone());
    }
    let merged_into = tikv.region_merged_into(region);
    if track.is_some_and(|t| merged_into.is_some() || t.span != cdc.ks.span(region)) {
        reasons.push(Reason::StaleRange { merged_into });
    }
    if merged_into.is_none() && tikv.region_leaderless(region) {
        let secs = tikv.region_detail(region).and_then(|d| d.leaderless_secs);
        reasons.push(Reason::Leaderless { secs });
    }
    if owner_reason != Some(Reason::Orphaned) {
        reasons.extend(owner_reason);
    }
    if let Some(lock) = cdc.upstream.oldest_lock(region) {
        let age_secs = lock.lag_secs(now);
        if age_secs > LOCK_BLAME_SECS {
            reasons.push(Reason::UnresolvedLock { age_secs });
        }
    }
    RegionBlame {
        region,
        leader_store: tikv.region_leader_store(region).map(store),
        resolved_lag_secs: track.map_or(now.as_secs_f64(), |t| t.resolved.lag_secs(now)),
        owner,
        reasons,
    }
}

fn subscription(state: &str) -> Reason {
    Reason::Subscription {
        state: state.to_string(),
    }
}

#[cfg(test)]
#[path = "blame_tests.rs"]
mod tests;
