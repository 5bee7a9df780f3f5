//! A store's raft client: one connection per other store, how a broken one is noticed, the
//! reconnect loop, and the `Unreachable` report for every message queued to a store that
//! cannot be reached.
//!
//! As TiKV 7.1 `src/server/raft_client.rs` does it:
//! - A killed store is noticed at once: its TCP reset aborts the stream (`RaftCall::poll`,
//!   "connection abort"). A cut link or a stalled store sends no reset; only gRPC keepalive
//!   notices it (`StreamBackEnd::connect`: `keepalive_time` 10 s, `keepalive_timeout` 3 s).
//! - After an abort the client reports the store unreachable, then loops in `start`:
//!   `maybe_backoff` (at most one attempt per `raft_client_max_backoff`), then
//!   `wait_for_connected(raft_client_max_backoff)`. A timed-out wait calls
//!   `clear_pending_message`, which reports `Unreachable` for each message queued meanwhile
//!   (`report_unreachable`), and, with the tikv#14574 fix, reports the store unreachable again.
//! - Messages sent while the connection is down wait in the connection's queue
//!   (`Queue::push` accepts them while the state is `Established`), up to
//!   `raft-client-queue-size`; a reconnect sends them.
//!
//! Simplified: an attempt notices that the store is back only at the end of its wait (gRPC
//! reconnects within the wait with its own backoff); messages written into a stream before its
//! failure is noticed are lost without a report, as they are upstream.

use faultline_sim::{Level, SimDuration};

use crate::cluster::Cluster;
use crate::config::UnreachableBroadcast;
use crate::ids::PeerId;
use crate::ids::RegionId;
use crate::msg::Msg;
use crate::msg::RaftMsg;
use crate::msg::Timer;
use crate::out::Cx;
use crate::raft::state::Role;
use crate::store::state::GroupState;

/// The raftstore component that hands a message to the raft client, which decides what a
/// refused send (a full queue) does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SendPath {
    /// The peer's own poll (TiKV `Peer::send_raft_messages`): on failure it calls
    /// `raft_group.report_unreachable` and, for a message to its leader, sets
    /// `leader_unreachable`, which puts the follower in Chaos at the end of its ready
    /// (`PeerFsmDelegate::collect_ready`).
    RaftstoreThread,
    /// The store writer (`async_io/write.rs`, `Worker::write_to_db`, also run inline when
    /// `store-io-pool-size` is 0): a follower's persisted messages go out after its log write,
    /// and a failed send only counts a metric ("the follower don't need flow control, so don't
    /// send unreachable msg here").
    StoreWriter,
}

/// Who sends `m`: the store writer for a non-leader's message from a ready with I/O
/// (`store::ready_path`), the peer's poll otherwise.
pub(crate) fn send_path(m: &RaftMsg) -> SendPath {
    if m.after_write {
        SendPath::StoreWriter
    } else {
        SendPath::RaftstoreThread
    }
}

impl Cluster {
    /// True if a raft connection between stores `s` and `t` works: both processes run (not
    /// killed, not stalled) and the link is up both ways (TCP needs the acks back).
    pub(crate) fn conn_alive(&self, cx: &Cx, s: usize, t: usize) -> bool {
        let (a, b) = (self.store_nodes[s], self.store_nodes[t]);
        cx.reach.reachable(a, b)
            && cx.reach.reachable(b, a)
            && cx.reach.is_up(b)
            && !self.grpc_stopped[t]
    }

    /// Queues a batch for `t` while the connection is down. Past `raft-client-queue-size`
    /// (8,192, TiKV `src/server/config.rs`) a message is refused: `Queue::push` answers
    /// `DiscardReason::Full` and `RaftClient::send` returns it to the caller, so the message
    /// is gone. What the caller does then depends on who sent it; see [`send_path`].
    pub(crate) fn queue_while_broken(&mut self, s: usize, t: usize, batch: Vec<RaftMsg>) {
        let cap = self.cfg.raft.raft_client_queue_size;
        let room = cap.saturating_sub(self.stores[s].pending[t].len());
        let queued = room.min(batch.len());
        // What is refused stays in `batch`, in order, and is filtered in place: once a dead
        // store's queue is full every batch to it is refused whole, thousands of messages an
        // event at full scale, and copying each into new vectors cost more than reporting.
        let mut refused = batch;
        self.stores[s].pending[t].extend(refused.drain(..queued));
        let depth = self.stores[s].pending[t].len() as u64;
        self.book.raft_queue_peak = self.book.raft_queue_peak.max(depth);
        self.book.raft_queue_full += refused.len() as u64;
        let before = refused.len();
        refused.retain(|m| send_path(m) != SendPath::StoreWriter);
        self.book.unreported_drops += (before - refused.len()) as u64;
        self.report_each_unreachable(s, t, &refused);
    }

    /// Schedules failure detection on every live store whose connection to another store is
    /// up while that store cannot be reached. A killed store's reset arrives within
    /// `conn_failure_detect`; anything else waits for the next keepalive ping (its phase is
    /// uniform in one keepalive interval) plus the keepalive timeout.
    pub(crate) fn schedule_failure_detection(&mut self, cx: &mut Cx) {
        let (lo, hi) = self.cfg.raft.conn_failure_detect;
        let ping = self.cfg.raft.grpc_keepalive_time.0.max(1);
        let timeout = self.cfg.raft.grpc_keepalive_timeout.0;
        for s in 0..self.stores.len() {
            if !self.store_live[s] {
                continue;
            }
            for t in 0..self.stores.len() {
                let st = &self.stores[s];
                if s == t || st.conn_broken[t] || st.detect_pending[t] || self.conn_alive(cx, s, t)
                {
                    continue;
                }
                let (a, b) = (self.store_nodes[s], self.store_nodes[t]);
                // A killed process's TCP reset, or a stopped gRPC server closing its streams.
                let closed = cx.reach.is_crashed(b) || self.grpc_stopped[t];
                let reset = closed && cx.reach.link_up(b, a);
                let st = &mut self.stores[s];
                st.detect_pending[t] = true;
                let d = if reset {
                    st.rng.range(lo.0, hi.0.max(lo.0 + 1))
                } else {
                    st.rng.below(ping) + timeout
                };
                cx.out
                    .set_timer(a, SimDuration(d), Timer::ConnFailed { store: t as u32 });
            }
        }
    }

    /// The detection scheduled above fires: the stream aborts unless the store came back
    /// meanwhile (a keepalive ping answered in time).
    pub(crate) fn on_conn_failure_detected(&mut self, cx: &mut Cx, s: usize, t: usize) {
        self.stores[s].detect_pending[t] = false;
        if !self.stores[s].conn_broken[t] && !self.conn_alive(cx, s, t) {
            self.conn_failed(cx, s, t);
        }
    }

    /// "connection abort": report the store unreachable (both the buggy and the fixed client
    /// do), then start the reconnect loop.
    pub(crate) fn conn_failed(&mut self, cx: &mut Cx, s: usize, t: usize) {
        self.stores[s].conn_broken[t] = true;
        cx.out.log(
            Some(self.store_nodes[s]),
            Level::Warn,
            "connection abort",
            format!("store_id={} target_store_id={}", s + 1, t + 1),
        );
        self.on_store_unreachable(cx, s, t);
        // `maybe_backoff`: an attempt starts at most once per backoff.
        let now = cx.now.0;
        let backoff = self.cfg.raft.raft_client_max_backoff.0;
        let st = &mut self.stores[s];
        let start = now.max(st.last_attempt[t].map_or(0, |last| last + backoff));
        st.last_attempt[t] = Some(start);
        self.arm_connect_wait(cx, s, t, start - now);
    }

    /// `wait_for_connected(raft_client_max_backoff)` begins `after` from now.
    fn arm_connect_wait(&mut self, cx: &mut Cx, s: usize, t: usize, after: u64) {
        let wait = self.cfg.raft.raft_client_max_backoff.0;
        cx.out.set_timer(
            self.store_nodes[s],
            SimDuration(after + wait),
            Timer::Reconnect { store: t as u32 },
        );
    }

    /// The end of one connection attempt: connected (send what was queued), or "wait connect
    /// timeout" (report every queued message unreachable and try again at once, since the
    /// wait already lasted a backoff).
    pub(crate) fn reconnect(&mut self, cx: &mut Cx, s: usize, t: usize) {
        if !self.stores[s].conn_broken[t] || !self.store_live[s] {
            return;
        }
        let now = cx.now.0;
        if self.conn_alive(cx, s, t) {
            let st = &mut self.stores[s];
            st.conn_broken[t] = false;
            let queued = std::mem::take(&mut st.pending[t]);
            if !queued.is_empty() {
                cx.out
                    .send(self.store_nodes[s], self.store_nodes[t], Msg::Raft(queued));
            }
            return;
        }
        self.clear_pending_messages(s, t);
        if self.cfg.unreachable_broadcast != UnreachableBroadcast::OncePerDisconnect {
            // From tikv#13677 (v6.4) to tikv#14574 this path reported only while never
            // connected (`first_time`); before and after, every timed-out attempt reports.
            self.on_store_unreachable(cx, s, t);
        }
        self.stores[s].last_attempt[t] = Some(now);
        self.arm_connect_wait(cx, s, t, 0);
    }

    /// `clear_pending_message`: one `Unreachable` per queued message, to its sender.
    fn clear_pending_messages(&mut self, s: usize, t: usize) {
        let queued = std::mem::take(&mut self.stores[s].pending[t]);
        self.report_each_unreachable(s, t, &queued);
    }

    /// `report_unreachable` for each message `s` could not deliver to `t`.
    fn report_each_unreachable(&mut self, s: usize, t: usize, msgs: &[RaftMsg]) {
        self.book.unreachable_reports += msgs.len() as u64;
        for m in msgs {
            let pid = PeerId::of(RegionId(m.region), m.from, self.replicas);
            if self.slot_store[pid.ix()] as usize == s {
                self.on_peer_unreachable(pid, m.to, t);
            }
        }
    }

    /// TiKV `PeerFsmDelegate::on_significant_msg`, `SignificantMsg::Unreachable`: a leader
    /// stops pipelining to that peer (raft-rs `report_unreachable` -> `become_probe`); a
    /// follower whose leader is that peer goes Chaos and ticks, keeping its missing ticks
    /// (`reset_hibernate_state`, not `reset_raft_tick`).
    pub(crate) fn on_peer_unreachable(&mut self, pid: PeerId, to: u8, to_store: usize) {
        // A leader already probing that slot changes nothing, and only a leader has bits set
        // (`leader_lost` clears them): after a store dies nearly every report is one, and
        // this answers it without reading the peer.
        if self.probing[pid.ix()] & (1 << to) != 0 {
            return;
        }
        // Read, not written: a peer (or tail) left unchanged stays shared with the
        // playground's snapshots.
        let p = &self.peers[pid.ix()];
        if p.role == Role::Leader {
            let probe = p.matched[to as usize] + 1;
            if self.tails[pid.ix()].next[to as usize] != probe {
                self.tails[pid.ix()].next[to as usize] = probe;
            }
            self.probing[pid.ix()] |= 1 << to;
        } else if p.leader == to && self.cfg.hibernate.enabled {
            let what = crate::observe::state::WatchWhat::Unreachable {
                store: to_store as u32,
            };
            self.watch(pid, what);
            self.set_group(pid, GroupState::Chaos);
            self.register_tick(pid);
        }
    }
}
