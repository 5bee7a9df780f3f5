//! Model-level actions a scenario triggers at a chosen time.
//!
//! The kernel only knows node and link faults; model actions are timers. A scenario asks
//! [`crate::Cluster::action_timer`] for `(node, timer)` and arms it with
//! `kernel.set_timer(node, after, timer)`. The timer belongs to the PD node, which stands in
//! for the client (TiDB) or the operator (pd-ctl): it routes the request to the region's
//! current leader store over the network, so a dead or partitioned PD means the action is lost.

use faultline_sim::{TraceEncode, TraceHasher};

/// An action on the TiKV model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TikvAction {
    /// Move leadership of `region` to its peer on store `to_store` (0-based), as
    /// `pd-ctl operator add transfer-leader` does: PD orders the leader it knows of, or
    /// refuses (logged) if that store has no peer (see `crate::pd::admin_transfer`).
    TransferLeader {
        /// Region index.
        region: u32,
        /// Target store index (0-based).
        to_store: u32,
    },
    /// Move every leader PD believes `from_store` has to `to_store` (0-based), one
    /// `transfer-leader` operator per region that has a replica there.
    TransferLeaders {
        /// Source store index (0-based).
        from_store: u32,
        /// Target store index (0-based).
        to_store: u32,
    },
    /// A new store joins (it must be one of `tikv-(stores+1)..tikv-max_stores`, not yet in);
    /// see `crate::store::membership`.
    AddStore {
        /// Store index (0-based).
        store: u32,
    },
    /// `pd-ctl store delete`: the store goes Offline, PD moves its replicas off, then it is
    /// Tombstone.
    RemoveStore {
        /// Store index (0-based).
        store: u32,
    },
    /// Propose one write to `region` (wakes it if hibernated).
    Write {
        /// Region index.
        region: u32,
    },
    /// `pd-ctl scheduler add evict-leader-scheduler <store>`: PD moves every leader off the
    /// store and lets none move onto it, until [`TikvAction::RemoveEvictLeader`]. What a
    /// rolling restart does before it restarts each store.
    EvictLeader {
        /// Store index (0-based).
        store: u32,
    },
    /// `pd-ctl operator add split-region <region>`: cut `region` into `parts` regions, or in
    /// two at key `at` (`--policy=usekey`; see `crate::region::split`).
    Split {
        /// Region index.
        region: u32,
        /// Regions it becomes (at least 2; 2 when `at` is given).
        parts: u32,
        /// The key the split cuts at, in the layer above's numbering; `None` cuts evenly.
        at: Option<u64>,
    },
    /// `pd-ctl operator add merge-region <source> <target>`: `source` merges into its
    /// neighbour `target` (see `crate::region::merge`); the layer above, which knows the keys, picks
    /// an adjacent pair.
    Merge {
        /// Region merged away.
        source: u32,
        /// Region that takes its range.
        target: u32,
    },
    /// `pd-ctl scheduler remove evict-leader-scheduler-<store>`: leaders may come back.
    RemoveEvictLeader {
        /// Store index (0-based).
        store: u32,
    },
}

impl TraceEncode for TikvAction {
    fn encode(&self, h: &mut TraceHasher) {
        match self {
            TikvAction::TransferLeader { region, to_store } => {
                h.word(1);
                h.word((*region as u64) << 32 | *to_store as u64);
            }
            TikvAction::Write { region } => {
                h.word(2);
                h.word(*region as u64);
            }
            TikvAction::EvictLeader { store } => {
                h.word(3);
                h.word(*store as u64);
            }
            TikvAction::RemoveEvictLeader { store } => {
                h.word(4);
                h.word(*store as u64);
            }
            TikvAction::TransferLeaders {
                from_store,
                to_store,
            } => {
                h.word(5);
                h.word((*from_store as u64) << 32 | *to_store as u64);
            }
            TikvAction::AddStore { store } => {
                h.word(6);
                h.word(*store as u64);
            }
            TikvAction::RemoveStore { store } => {
                h.word(7);
                h.word(*store as u64);
            }
            TikvAction::Split { region, parts, at } => {
                h.word(8);
                h.word((*region as u64) << 32 | *parts as u64);
                crate::encode::word_if_some(h, *at);
            }
            TikvAction::Merge { source, target } => {
                h.word(9);
                h.word((*source as u64) << 32 | *target as u64);
            }
        }
    }
}
