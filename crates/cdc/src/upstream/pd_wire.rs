//! Messages and timers between PD (`pd-1`) and the nodes that ask it for timestamps and
//! regions: the workload's client (`client-1`), each TiKV store's resolved-ts advancer, and
//! the client's region cache. They ride in [`crate::msg::CdcMsg::Pd`] and
//! [`crate::msg::CdcTimer::Pd`], so a partition from `pd-1` stops them like any other message.

use faultline_sim::{TraceEncode, TraceHasher};

use crate::ts::Ts;

/// A request to PD or its answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PdMsg {
    /// Asker -> PD: `count` timestamps in one batch (`TsoRequest` on the TSO stream).
    TsoRequest {
        /// The asker's batch id.
        batch: u64,
        /// Timestamps wanted.
        count: u32,
    },
    /// PD -> asker: the batch's timestamps are `first .. first + count`.
    TsoResponse {
        /// The batch answered.
        batch: u64,
        /// The first timestamp of the batch.
        first: Ts,
        /// How many.
        count: u32,
    },
    /// Client -> PD: where is `region`'s leader (`GetRegion`).
    GetRegion {
        /// Region.
        region: u32,
    },
    /// PD -> client: the leader store its last region heartbeat named, if any.
    GetRegionResponse {
        /// Region.
        region: u32,
        /// Leader store index.
        leader: Option<u32>,
    },
}

/// A timer of a PD client.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PdTimer {
    /// The TSO batch `batch` got no answer within the PD client's timeout.
    TsoTimeout {
        /// Batch id.
        batch: u64,
    },
    /// The region load `load` got no answer within the PD client's timeout.
    GetRegionTimeout {
        /// Region.
        region: u32,
        /// Load id.
        load: u64,
    },
}

impl PdMsg {
    /// A short label for the message log and the space-time diagram.
    pub fn label(&self) -> String {
        match self {
            PdMsg::TsoRequest { count, .. } => format!("TSO request for {count}"),
            PdMsg::TsoResponse { first, count, .. } => format!("TSO {} (+{count})", first.0),
            PdMsg::GetRegion { region } => format!("GetRegion {region}"),
            PdMsg::GetRegionResponse { region, leader } => match leader {
                Some(s) => format!("region {region} leader tikv-{}", s + 1),
                None => format!("region {region} has no leader"),
            },
        }
    }
}

impl TraceEncode for PdMsg {
    fn encode(&self, h: &mut TraceHasher) {
        match self {
            PdMsg::TsoRequest { batch, count } => {
                h.word(1);
                h.word(*batch);
                h.word(*count as u64);
            }
            PdMsg::TsoResponse {
                batch,
                first,
                count,
            } => {
                h.word(2);
                h.word(*batch);
                h.word(first.0);
                h.word(*count as u64);
            }
            PdMsg::GetRegion { region } => {
                h.word(3);
                h.word(*region as u64);
            }
            PdMsg::GetRegionResponse { region, leader } => {
                h.word(4);
                h.word(*region as u64);
                h.word(leader.map_or(u64::MAX, u64::from));
            }
        }
    }
}

impl TraceEncode for PdTimer {
    fn encode(&self, h: &mut TraceHasher) {
        match self {
            PdTimer::TsoTimeout { batch } => {
                h.word(1);
                h.word(*batch);
            }
            PdTimer::GetRegionTimeout { region, load } => {
                h.word(2);
                h.word(*region as u64);
                h.word(*load);
            }
        }
    }
}
