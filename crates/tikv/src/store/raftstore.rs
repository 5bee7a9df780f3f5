//! A TiKV store: its raftstore (awake list, tick, inbox, per-store outbox batching) and the
//! StoreUnreachable broadcast whose repetition rule is the tikv#14547 toggle. Its raft
//! client's connections are in [`crate::store::raft_client`].

use faultline_sim::Level;

use crate::cluster::Cluster;
use crate::config::UnreachableBroadcast;
use crate::ids::PeerId;
use crate::msg::Msg;
use crate::msg::RaftMsg;
use crate::msg::Timer;
use crate::out::Cx;
use crate::raft::state::Peer;
use crate::raft::state::Role;
use crate::store::state::GroupState;

/// How many peers a store's tick and its message batches bring into cache at a time before
/// working on them (`Cluster::warm_block`). At full scale each peer touched is a cache miss
/// per line, and the work on a peer waits for its misses one peer after another; a tight loop
/// of loads over a block has the CPU wait for the whole block's misses at once. Measured on
/// the wasm build (docs/bench.md, "Two lines per peer, warmed a block at a time"): 32 was the
/// quickest of 8, 16, 32 and 64, all within 10% of each other.
const WARM_BLOCK: usize = 32;

/// Whether handling `m` gives its peer's ready I/O for certain: entries or a snapshot to
/// write, or a vote to persist. (A heartbeat that advances commit also has I/O; whether it
/// does is known only when handled, so its round is not charged the write.)
fn brings_io(m: &RaftMsg) -> bool {
    use crate::msg::Kind;
    (m.kind == Kind::Append && m.entries > 0) || matches!(m.kind, Kind::Snapshot | Kind::Vote)
}

impl Cluster {
    /// Queues a raft message from `from` to the peer in `to_slot` of the same region.
    pub(crate) fn send(&mut self, from: PeerId, to_slot: u8, m: RaftMsg) {
        let r = from.region(self.replicas);
        let to = PeerId::of(r, to_slot, self.replicas);
        let fs = self.slot_store[from.ix()] as usize;
        let ts = self.slot_store[to.ix()] as usize;
        if fs != ts {
            self.stores[fs].outbox[ts].push(m);
        }
    }

    /// In a walk over `items`, at the first item of each block of [`WARM_BLOCK`]: loads the
    /// hot lines ([`Peer::HOT_BYTES`]) of the block's peers. Portable on purpose: WebAssembly
    /// has no prefetch instruction, and natively this is as fast as prefetching ahead was.
    /// `peer` names the peer an item works on, if it has one here.
    pub(crate) fn warm_block<T>(&self, items: &[T], i: usize, peer: impl Fn(&T) -> Option<PeerId>) {
        if !i.is_multiple_of(WARM_BLOCK) {
            return;
        }
        for pid in items.iter().skip(i).take(WARM_BLOCK).filter_map(peer) {
            self.peers.touch(pid.ix(), Peer::HOT_BYTES);
        }
    }

    /// End of an event: each store sends one batch per target store. Messages to a store
    /// whose connection is known broken wait in the raft client's queue.
    pub(crate) fn flush(&mut self, cx: &mut Cx) {
        self.run_admin_outcomes(cx);
        for s in 0..self.stores.len() {
            if self.store_live[s] {
                self.send_region_heartbeats(cx, s);
            }
            for t in 0..self.stores.len() {
                if self.stores[s].outbox[t].is_empty() {
                    continue;
                }
                // The next batch to `t` starts with room for as many messages as this one:
                // at full scale a tick sends thousands, and growing from empty copied the
                // batch again at every doubling.
                let room = Vec::with_capacity(self.stores[s].outbox[t].len());
                let batch = std::mem::replace(&mut self.stores[s].outbox[t], room);
                if !self.store_live[s] {
                    continue;
                }
                if self.stores[s].conn_broken[t] {
                    self.queue_while_broken(s, t, batch);
                    continue;
                }
                cx.out
                    .send(self.store_nodes[s], self.store_nodes[t], Msg::Raft(batch));
            }
        }
    }

    /// A batch arrived from `from` (gRPC `batch_raft`): counted as received from that store
    /// (the fix's `MESSAGE_RECV_BY_STORE`, incremented by the gRPC service before the feed),
    /// then fed to its mailboxes, at once or when a broadcast releases the router's lock.
    pub(crate) fn on_raft_batch(&mut self, cx: &mut Cx, s: usize, from: usize, msgs: Vec<RaftMsg>) {
        let now = cx.now.0;
        self.stores[s].recv_count[from] += msgs.len() as u64;
        let fed = self.feed_at_ns(s, now);
        if fed > crate::store::pollers::ns(now) {
            let from_store = from as u32;
            let wait = Self::delay_to(now, fed);
            cx.out
                .set_timer(self.store_nodes[s], wait, Timer::Feed { from_store, msgs });
            return;
        }
        self.feed_batch(cx, s, from, msgs);
    }

    /// The batch is in its mailboxes: the pollers handle it after the work scheduled before.
    pub(crate) fn feed_batch(&mut self, cx: &mut Cx, s: usize, from: usize, msgs: Vec<RaftMsg>) {
        let now = cx.now.0;
        let work = self.pool_work_ns(msgs.len(), self.cfg.raft.capacity.message_ns);
        let fed = crate::store::pollers::ns(now);
        let done = if msgs.iter().any(brings_io) {
            self.schedule_work_with_write(s, fed, work)
        } else {
            self.schedule_work(s, fed, work)
        };
        let node = self.store_nodes[s];
        cx.out.set_timer(
            node,
            Self::delay_to(now, done),
            Timer::Process {
                from_store: from as u32,
                msgs,
            },
        );
    }

    /// raftstore hands a batch to its peers.
    pub(crate) fn process_batch(&mut self, cx: &mut Cx, s: usize, from: usize, msgs: &[RaftMsg]) {
        let replicas = self.replicas;
        let target =
            |m: &RaftMsg| crate::ids::PeerId::of(crate::ids::RegionId(m.region), m.to, replicas);
        for (i, m) in msgs.iter().enumerate() {
            self.warm_block(msgs, i, |m| Some(target(m)));
            let pid = target(m);
            if self.slot_store[pid.ix()] as usize != s || self.merge.is_gone(m.region) {
                continue; // the replica moved away, or its region merged away
            }
            // A message from a replica PD has since moved is from a removed peer: upstream the
            // new replica has a new peer id, so the removed one's answers count for nothing.
            // Counting them as the new replica's once let a leader commit an entry the new,
            // empty replica never had (found by explore, seed 69 of the scale-out-in scenario).
            let sender =
                crate::ids::PeerId::of(crate::ids::RegionId(m.region), m.from, self.replicas);
            if (m.from as u32) < self.replicas && self.slot_store[sender.ix()] as usize != from {
                continue;
            }
            self.book.raft_messages += 1;
            if self.stores[s].conn_broken[from] {
                self.book.late_messages += 1;
            }
            if self.watched == Some(m.region) {
                let what = crate::observe::state::WatchWhat::Handled {
                    kind: m.kind,
                    from_slot: m.from,
                    from_store: from as u32,
                    term: m.term,
                };
                self.watch(pid, what);
            }
            self.on_group_message(pid, m);
            let ready = self.ready_mark(pid);
            self.step(cx, pid, m);
            self.mark_after_write(pid, &ready);
        }
    }

    /// Raft base tick of a store: tick every awake peer; peers that may sleep leave the list.
    /// The tick waits for the pollers like any mailbox message: if they are behind, it runs
    /// when they catch up, and its own cost is then scheduled.
    pub(crate) fn store_tick(&mut self, cx: &mut Cx, s: usize) {
        let now = cx.now.0;
        if self.poll_backlog_ns(s, now) > 0 {
            let wait = Self::delay_to(now, self.stores[s].poll_free_ns);
            cx.out.set_timer(self.store_nodes[s], wait, Timer::RaftTick);
            return;
        }
        let work = self.pool_work_ns(self.stores[s].awake.len(), self.cfg.raft.capacity.tick_ns);
        self.schedule_work(s, crate::store::pollers::ns(now), work);
        let mut list = std::mem::take(&mut self.stores[s].awake);
        // Tick in peer-id order: a region's peers are adjacent in `peers`, so the walk goes
        // forward through memory, and the messages it sends reach the other stores in region
        // order too. Upstream the batch system polls peer FSMs in whatever order they were
        // scheduled, so no order is more faithful than another. The list is sorted since the
        // last tick but for the peers woken since, so the run-adaptive stable sort costs
        // about one pass. Measured: 8% off the full-scale run (docs/bench.md).
        list.sort();
        let mut keep = Vec::with_capacity(list.len());
        for (i, &pid) in list.iter().enumerate() {
            self.warm_block(&list, i, |&p| Some(p));
            if self.slot_store[pid.ix()] as usize != s || !self.peers[pid.ix()].awake {
                continue;
            }
            self.book.peer_ticks += 1;
            let ready = self.ready_mark(pid);
            let keeps_ticking = self.tick_peer(cx, pid);
            self.mark_after_write(pid, &ready);
            if keeps_ticking {
                keep.push(pid);
            } else {
                self.peers[pid.ix()].awake = false;
                self.book.awake_peers -= 1;
                self.changes.note(pid.region(self.replicas));
            }
        }
        keep.append(&mut self.stores[s].awake);
        self.stores[s].awake = keep;
        cx.out.set_timer(
            self.store_nodes[s],
            self.cfg.raft.base_tick,
            Timer::RaftTick,
        );
    }

    /// TiKV `on_raft_base_tick` for one peer; returns whether it keeps ticking.
    fn tick_peer(&mut self, cx: &mut Cx, pid: PeerId) -> bool {
        let hib = self.cfg.hibernate.enabled;
        if hib && self.peers[pid.ix()].group == GroupState::Idle {
            return self.count_missing_tick(pid);
        }
        let up_to_date = self.peers[pid.ix()].role == Role::Leader && self.leader_up_to_date(pid);
        if hib {
            self.replay_missing_ticks(cx, pid);
        }
        self.raft_tick(cx, pid);
        if !hib {
            return true;
        }
        if self.peers[pid.ix()].role == Role::Leader {
            // A learner in flight has not voted to hibernate: its leader stays awake.
            if !self.learners.is_empty() && self.learners.contains_key(&pid.region(self.replicas).0)
            {
                self.drive_learner(cx, pid);
                return true;
            }
            if up_to_date && self.leader_may_sleep(pid) {
                self.set_group(pid, GroupState::Idle);
                return false;
            }
        } else if self.follower_may_sleep(pid) {
            // An Idle follower keeps its tick to count missing ticks (TiKV
            // `on_raft_base_tick`: "Keep ticking for followers to allow it to campaign quickly").
            self.set_group(pid, GroupState::Idle);
        }
        true
    }

    /// TiKV `StoreFsm::on_store_unreachable`: broadcast at most once per backoff; with the fix
    /// (20b75dc443), only if messages from that store arrived since the last broadcast or none
    /// ever did. The broadcast (`RaftRouter::report_unreachable` -> `broadcast_normal`) holds
    /// the router's lock while it fills every mailbox, and the peers handle it when the
    /// pollers reach them: see [`crate::store::pollers`].
    pub(crate) fn on_store_unreachable(&mut self, cx: &mut Cx, s: usize, t: usize) {
        let now = cx.now.0;
        let backoff = self.cfg.hibernate.unreachable_backoff.0;
        let st = &mut self.stores[s];
        if let Some(last) = st.last_broadcast[t] {
            if now < last + backoff {
                return;
            }
            let no_news = st.recv_count[t] == st.recv_at_broadcast[t] && st.recv_count[t] > 0;
            if self.cfg.unreachable_broadcast == UnreachableBroadcast::RepeatIfNewMessages
                && no_news
            {
                return;
            }
        }
        st.last_broadcast[t] = Some(now);
        st.recv_at_broadcast[t] = st.recv_count[t];
        cx.out.log(
            Some(self.store_nodes[s]),
            Level::Info,
            "broadcasting unreachable",
            format!("store_id={} unreachable_store_id={}", s + 1, t + 1),
        );
        self.book.unreachable_broadcasts += 1;
        let lock_released = self.hold_router_lock(s, now);
        let work = self.pool_work_ns(
            self.stores[s].peers.len(),
            self.cfg.raft.capacity.unreachable_ns,
        );
        let done = self
            .schedule_work(s, crate::store::pollers::ns(now), work)
            .max(lock_released);
        let store = t as u32;
        let wait = Self::delay_to(now, done);
        cx.out.set_timer(
            self.store_nodes[s],
            wait,
            Timer::UnreachableHandled { store },
        );
    }

    /// The pollers have handled the broadcast's StoreUnreachable in every local peer: each
    /// follower whose leader lives on `t` goes Chaos and ticks (TiKV
    /// `PeerFsmDelegate::on_store_unreachable`).
    pub(crate) fn broadcast_unreachable(&mut self, s: usize, t: usize) {
        for i in 0..self.stores[s].peers.len() {
            let pid = self.stores[s].peers[i];
            if self.slot_store[pid.ix()] as usize != s {
                continue;
            }
            let p = &self.peers[pid.ix()];
            if p.role == Role::Leader || p.leader == crate::ids::NO_SLOT {
                continue;
            }
            let r = pid.region(self.replicas);
            let leader_store =
                self.slot_store[PeerId::of(r, p.leader, self.replicas).ix()] as usize;
            if leader_store == t && self.cfg.hibernate.enabled {
                self.watch(
                    pid,
                    crate::observe::state::WatchWhat::Unreachable { store: t as u32 },
                );
                // `reset_hibernate_state(Chaos)` + `register_raft_base_tick`: missing ticks
                // are kept, unlike `reset_raft_tick`.
                self.set_group(pid, GroupState::Chaos);
                self.register_tick(pid);
            }
        }
    }
}
