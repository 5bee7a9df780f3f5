//! TiKV's change events as TiCDC's KV client receives them: committed rows, region errors and
//! the events of one region's subscription. Leaf types: they import nothing else of the crate
//! but the key and timestamp types.

use faultline_sim::{TraceEncode, TraceHasher};

use crate::keyspace::Key;
use crate::ts::Ts;

/// One committed row change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowChange {
    /// Row key.
    pub key: Key,
    /// New value.
    pub value: u64,
    /// Transaction start ts.
    pub start_ts: Ts,
    /// Commit ts.
    pub commit_ts: Ts,
}

/// A region error TiKV's CDC endpoint returns on a subscription.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegionError {
    /// This store is not the leader; `leader` is the store it believes is (0-based), if any.
    NotLeader {
        /// Believed leader store.
        leader: Option<u32>,
    },
    /// The store has no peer of the region (or the region is not ready after a restart).
    RegionNotFound,
    /// The region's epoch changed since the subscription was asked for: it split (TiKV
    /// `components/cdc/src/delegate.rs`, `Delegate::sink_admin` on an applied `BatchSplit`,
    /// and `check_epoch_on_ready` for a registration with an older epoch).
    EpochNotMatch,
}

/// What a region event carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RegionEventKind {
    /// Committed changes (from the incremental scan or live).
    Entries(Vec<RowChange>),
    /// The incremental scan is complete.
    Initialized,
    /// Every change with commit ts <= this has been sent.
    Resolved(Ts),
    /// The subscription ended.
    Error(RegionError),
}

/// An event of one region's subscription.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionEvent {
    /// Region index.
    pub region: u32,
    /// The request it answers (stale answers are ignored).
    pub request: u64,
    /// Payload.
    pub kind: RegionEventKind,
}

fn word_ts(h: &mut TraceHasher, ts: Ts) {
    h.word(ts.0)
}

impl TraceEncode for RowChange {
    fn encode(&self, h: &mut TraceHasher) {
        h.word(self.key as u64);
        h.word(self.value);
        word_ts(h, self.start_ts);
        word_ts(h, self.commit_ts);
    }
}

impl TraceEncode for RegionEvent {
    fn encode(&self, h: &mut TraceHasher) {
        h.word(self.region as u64);
        h.word(self.request);
        match &self.kind {
            RegionEventKind::Entries(rows) => {
                h.word(1);
                rows.encode(h);
            }
            RegionEventKind::Initialized => h.word(2),
            RegionEventKind::Resolved(ts) => {
                h.word(3);
                word_ts(h, *ts);
            }
            RegionEventKind::Error(e) => {
                h.word(4);
                match e {
                    RegionError::NotLeader { leader } => {
                        h.word(leader.map_or(u64::MAX, |l| l as u64))
                    }
                    RegionError::RegionNotFound => h.word(u64::MAX - 1),
                    RegionError::EpochNotMatch => h.word(u64::MAX - 2),
                }
            }
        }
    }
}
