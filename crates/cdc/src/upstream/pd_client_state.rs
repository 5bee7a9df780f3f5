//! The state of the PD clients (`crate::upstream::pd_client` has their handlers): what the workload
//! client waits for a timestamp for, its region cache, and each store's TSO requests.

use crate::upstream::region_cache::RegionCache;
use crate::upstream::tso_client::TsoClient;

/// What the workload client wants a timestamp for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TsWant {
    /// A new transaction's start ts.
    Start,
    /// The commit ts of transaction `txn` (its prewrites succeeded).
    Commit(u64),
}

/// The state of every PD client in the model.
#[derive(Clone, Debug, Default)]
pub struct PdClients {
    /// The workload client's TSO requests.
    pub workload: TsoClient<TsWant>,
    /// Each store's resolved-ts TSO requests.
    pub stores: Vec<TsoClient<()>>,
    /// The workload client's region cache.
    pub region_cache: RegionCache,
    /// Transactions that never began: their start ts request failed.
    pub start_ts_failed: u64,
    /// The workload client was killed and not restarted yet.
    pub client_crashed: bool,
}

impl PdClients {
    /// Clients for `stores` stores.
    pub fn new(stores: usize) -> Self {
        PdClients {
            stores: vec![TsoClient::default(); stores],
            ..Default::default()
        }
    }

    /// TSO requests that failed, over every client.
    pub fn tso_requests_failed(&self) -> u64 {
        self.workload.requests_failed + self.stores.iter().map(|s| s.requests_failed).sum::<u64>()
    }
}
