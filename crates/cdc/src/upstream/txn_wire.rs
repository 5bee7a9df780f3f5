//! Messages and timers of the upstream write path and of resolved ts's CheckLeader round,
//! with their canonical trace encodings. They ride in [`crate::msg::CdcMsg::Txn`] and
//! [`crate::msg::CdcTimer::Txn`].

use faultline_sim::{TraceEncode, TraceHasher};

/// Why a request failed, as the client sees it (it picks the client-go backoff from it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TxnFailure {
    /// The store's peer is not leader; `leader` is its hint (store index).
    NotLeader {
        /// Leader hint.
        leader: Option<u32>,
    },
    /// A newer leader overwrote the proposal's entry (`StaleCommand`).
    Stale,
    /// The region split since the client grouped the request's keys (`EpochNotMatch`).
    EpochNotMatch,
    /// The region is a Merging source (`ProposalInMergingMode`).
    MergingMode,
    /// The region merged away (`RegionNotFound`).
    RegionNotFound,
}

/// A message of the write path or of CheckLeader.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TxnMsg {
    /// Store -> client: the answer to operation `op` (`None` = success).
    Reply {
        /// Operation id.
        op: u64,
        /// The failure, if it failed.
        failure: Option<TxnFailure>,
    },
    /// Leader store -> a store holding followers: confirm these `(region, term)` leaders
    /// (one request per store pair per round).
    CheckLeader {
        /// The sender's round.
        round: u64,
        /// Regions the sender leads, with its term.
        regions: Vec<(u32, u64)>,
    },
    /// The answer: the regions whose local peer follows the sender in that term.
    CheckLeaderResp {
        /// The round asked about.
        round: u64,
        /// Confirmed regions.
        regions: Vec<u32>,
    },
}

/// A timer of the write path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TxnTimer {
    /// Client: operation `op` got no answer within the request timeout.
    Timeout {
        /// Operation id.
        op: u64,
    },
    /// Client: the connection operation `op` went out on was reset, or the connect refused:
    /// its store's process was killed, and the store's host answered with a TCP RST.
    ConnectionReset {
        /// Operation id.
        op: u64,
    },
    /// Client: gRPC keepalive on the connection to `store`, silent since the fault, gave up.
    KeepaliveFailed {
        /// Store index.
        store: u32,
    },
    /// Client: the backoff of request `region` of transaction `txn` is over; send it again.
    Resend {
        /// Transaction id.
        txn: u64,
        /// Region.
        region: u32,
    },
}

impl TxnMsg {
    /// A short label for the message log and the space-time diagram.
    pub fn label(&self) -> String {
        match self {
            TxnMsg::Reply { op, failure: None } => format!("op {op} ok"),
            TxnMsg::Reply {
                op,
                failure: Some(f),
            } => format!("op {op} failed: {f:?}"),
            TxnMsg::CheckLeader { regions, .. } => format!("CheckLeader {} regions", regions.len()),
            TxnMsg::CheckLeaderResp { regions, .. } => {
                format!("CheckLeader ok for {} regions", regions.len())
            }
        }
    }
}

impl TraceEncode for TxnMsg {
    fn encode(&self, h: &mut TraceHasher) {
        match self {
            TxnMsg::Reply { op, failure } => {
                h.word(1);
                h.word(*op);
                match failure {
                    None => h.word(0),
                    Some(TxnFailure::Stale) => h.word(1),
                    Some(TxnFailure::EpochNotMatch) => h.word(3),
                    Some(TxnFailure::MergingMode) => h.word(4),
                    Some(TxnFailure::RegionNotFound) => h.word(5),
                    Some(TxnFailure::NotLeader { leader }) => {
                        h.word(2);
                        h.word(leader.map_or(u64::MAX, u64::from));
                    }
                }
            }
            TxnMsg::CheckLeader { round, regions } => {
                h.word(2);
                h.word(*round);
                h.word(regions.len() as u64);
                for (r, t) in regions {
                    h.word(*r as u64);
                    h.word(*t);
                }
            }
            TxnMsg::CheckLeaderResp { round, regions } => {
                h.word(3);
                h.word(*round);
                h.word(regions.len() as u64);
                for r in regions {
                    h.word(*r as u64);
                }
            }
        }
    }
}

impl TraceEncode for TxnTimer {
    fn encode(&self, h: &mut TraceHasher) {
        match self {
            TxnTimer::Timeout { op } => {
                h.word(1);
                h.word(*op);
            }
            TxnTimer::Resend { txn, region } => {
                h.word(2);
                h.word(*txn);
                h.word(*region as u64);
            }
            TxnTimer::ConnectionReset { op } => {
                h.word(3);
                h.word(*op);
            }
            TxnTimer::KeepaliveFailed { store } => {
                h.word(4);
                h.word(*store as u64);
            }
        }
    }
}
