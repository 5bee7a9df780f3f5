//! Which raftstore path a non-leader's messages leave by: from the poll, or from the store
//! writer after the ready's write.
//!
//! raft-rs (0.7, TiKV 7.1) puts every message of a peer that is not the leader in the ready's
//! `persisted_messages`. TiKV `Peer::handle_raft_ready_append` sends those at once from the poll
//! when the ready has no I/O, and otherwise hands them to the write task, so they leave after
//! the write (`async_io/write.rs`; inline at the end of the poll round while
//! `store-io-pool-size` is 0, its 7.1 default). A ready has I/O when it carries entries, a
//! snapshot or a changed hard state (term, vote, commit). The path matters only when the raft
//! client refuses the send: see `store::raft_client::send_path`.

use crate::cluster::Cluster;
use crate::ids::PeerId;
use crate::raft::state::Role;

/// What a peer's ready is compared against, and where its messages start in the outboxes.
pub(crate) struct ReadyMark {
    /// The peer was not the leader: its messages are persisted messages.
    persisted: bool,
    /// Term, vote, commit, last index and snapshot index before the step.
    state: [u64; 5],
    /// Per replica slot, the length of the outbox towards that slot's store.
    outbox_len: [usize; crate::raft::state::MAX_REPLICAS],
}

impl Cluster {
    fn io_state(&self, pid: PeerId) -> [u64; 5] {
        let p = &self.peers[pid.ix()];
        let l = &p.log;
        [p.term, p.vote as u64, l.commit, l.last_index, l.snap_index]
    }

    /// Notes `pid`'s state and outbox positions before it handles a message or a tick.
    pub(crate) fn ready_mark(&self, pid: PeerId) -> ReadyMark {
        let mut mark = ReadyMark {
            persisted: self.peers[pid.ix()].role != Role::Leader,
            state: [0; 5],
            outbox_len: [0; crate::raft::state::MAX_REPLICAS],
        };
        if !mark.persisted {
            return mark;
        }
        mark.state = self.io_state(pid);
        let s = self.slot_store[pid.ix()] as usize;
        let r = pid.region(self.replicas);
        for slot in 0..self.replicas as usize {
            let ts = self.slot_store[PeerId::of(r, slot as u8, self.replicas).ix()] as usize;
            if let Some(outbox) = self.stores[s].outbox.get(ts) {
                mark.outbox_len[slot] = outbox.len();
            }
        }
        mark
    }

    /// After the step: if the ready had I/O, the messages `pid` sent since `mark` leave from
    /// the store writer.
    pub(crate) fn mark_after_write(&mut self, pid: PeerId, mark: &ReadyMark) {
        if !mark.persisted || self.io_state(pid) == mark.state {
            return;
        }
        let s = self.slot_store[pid.ix()] as usize;
        let r = pid.region(self.replicas);
        let me = pid.slot(self.replicas);
        for slot in 0..self.replicas as usize {
            let ts = self.slot_store[PeerId::of(r, slot as u8, self.replicas).ix()] as usize;
            let Some(outbox) = self.stores[s].outbox.get_mut(ts) else {
                continue;
            };
            let from = mark.outbox_len[slot].min(outbox.len());
            for m in outbox[from..].iter_mut() {
                if m.region == r.0 && m.from == me {
                    m.after_write = true;
                }
            }
        }
    }
}
