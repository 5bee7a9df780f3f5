//! A bootstrapped cluster's starting point: the first log index and term, and where each
//! region's replicas are placed.

use crate::config::TikvConfig;
use crate::ids::PeerId;
use crate::raft::log::RaftLog;
use crate::raft::state::Peer;
use crate::raft::state::PeerTail;
use crate::store::state::Store;

/// TiKV's first log index and term of a bootstrapped region (`RAFT_INIT_LOG_INDEX/TERM`).
pub(crate) const INIT_INDEX: u64 = 5;
/// Term of the bootstrap leaders: one election after `INIT_INDEX`'s term.
pub(crate) const INIT_TERM: u64 = 6;

/// Bootstrap placement: region `r`'s replica slot `i` lives on store `(r + i) % stores` of the
/// stores that start; returns every peer, its tail and its store, indexed by `PeerId`.
pub(crate) fn place_replicas(
    cfg: &TikvConfig,
    stores: &mut [Store],
) -> (Vec<Peer>, Vec<PeerTail>, Vec<u8>) {
    let (n, regions, reps) = (
        cfg.stores as usize,
        cfg.regions as usize,
        cfg.replicas as usize,
    );
    let mut log = RaftLog::at_snapshot(INIT_INDEX, INIT_INDEX);
    log.append(1, INIT_TERM);
    log.commit_to(INIT_INDEX + 1);
    let mut peers = Vec::with_capacity(regions * reps);
    let mut tails = Vec::with_capacity(regions * reps);
    let mut slot_store = Vec::with_capacity(regions * reps);
    for r in 0..regions {
        for slot in 0..reps {
            let s = (r + slot) % n;
            let (peer, tail) = Peer::bootstrapped(INIT_TERM, log, 0, slot == 0);
            peers.push(peer);
            tails.push(tail);
            slot_store.push(s as u8);
            stores[s].peers.push(PeerId((r * reps + slot) as u32));
        }
    }
    (peers, tails, slot_store)
}
