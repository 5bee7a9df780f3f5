//! raftstore as a resource: each store's `store-pool-size` pollers, the FIFO of work waiting
//! for them, and the router's mailbox lock a StoreUnreachable broadcast holds.
//!
//! Upstream (TiKV 7.1, `components/batch-system/src/batch.rs` `Poller::poll`): a message put
//! in a peer's mailbox schedules the peer FSM; pollers take scheduled FSMs in FIFO order and
//! handle each mailbox in order. `broadcast_normal` (`batch-system/src/router.rs`) sends to
//! every mailbox while holding the `normals` lock, and the gRPC threads feeding incoming raft
//! messages (`RaftRouter::send_raft_message` -> `check_do`) take the same lock on a cache miss
//! (the cache holds 1,024 mailboxes; a store holds far more peers at scale), so they wait for
//! the whole broadcast.
//!
//! Modelled as one FIFO server per store whose rate is the pool size: a piece of work of `n`
//! items costing `c` ns each occupies the pollers for `n * c / pool` ns after everything
//! scheduled before it. That keeps each mailbox's order (FIFO) and adds the time the report's
//! scale makes long, at O(1) per batch, tick or broadcast rather than per peer.

use faultline_sim::{SimDuration, SimTime};

use crate::cluster::Cluster;

/// Nanoseconds in a microsecond, the kernel's time unit.
const NS_PER_US: u64 = 1_000;

/// A kernel time (µs) in the pollers' unit (ns).
pub(crate) const fn ns(us: u64) -> u64 {
    us * NS_PER_US
}

impl Cluster {
    /// Poller time `n` items costing `cost_ns` each take the whole pool.
    pub(crate) fn pool_work_ns(&self, n: usize, cost_ns: u32) -> u64 {
        let pool = self.cfg.raft.capacity.pool_size.max(1) as u64;
        n as u64 * cost_ns as u64 / pool
    }

    /// Schedules `work_ns` of poller time on store `s` that may start at `ready_ns`, behind
    /// everything scheduled before it; returns when it is done (ns).
    pub(crate) fn schedule_work(&mut self, s: usize, ready_ns: u64, work_ns: u64) -> u64 {
        let st = &mut self.stores[s];
        let start = ready_ns.max(st.poll_free_ns);
        st.poll_free_ns = start + work_ns;
        st.scheduled_ns.add(SimTime(ready_ns / NS_PER_US), work_ns);
        st.poll_free_ns
    }

    /// Schedules `work_ns` of poller time whose end brings I/O: the round's inline raft log
    /// write. Work handled while a write is under way waits for the next write, which covers
    /// everything that joined it (group commit, as one write task carries a whole round's
    /// readies); returns when the write is done (ns).
    pub(crate) fn schedule_work_with_write(
        &mut self,
        s: usize,
        ready_ns: u64,
        work_ns: u64,
    ) -> u64 {
        let handled = self.schedule_work(s, ready_ns, work_ns);
        let write = self.pool_work_ns(1, self.cfg.raft.capacity.log_write_ns);
        let st = &self.stores[s];
        if handled + write <= st.write_end_ns {
            return st.write_end_ns; // an announced write already covers this work
        }
        let done = self.schedule_work(s, handled, write);
        self.stores[s].write_end_ns = done;
        done
    }

    /// When a raft message received now on store `s` reaches its mailbox: at once, or when a
    /// broadcast holding the router's lock ends (ns).
    pub(crate) fn feed_at_ns(&self, s: usize, now_us: u64) -> u64 {
        (now_us * NS_PER_US).max(self.stores[s].feed_held_ns)
    }

    /// A broadcast on store `s` starting now holds the router's lock while it sends to every
    /// mailbox; returns when the lock is released (ns).
    pub(crate) fn hold_router_lock(&mut self, s: usize, now_us: u64) -> u64 {
        let mailboxes = self.stores[s].peers.len() as u64;
        let send = self.cfg.raft.capacity.broadcast_send_ns as u64;
        let until = now_us * NS_PER_US + mailboxes * send;
        let st = &mut self.stores[s];
        st.feed_held_ns = st.feed_held_ns.max(until);
        self.book.broadcast_lock_ns = self.book.broadcast_lock_ns.max(mailboxes * send);
        until
    }

    /// Holds every raft message store `s` receives until `until` before it reaches a mailbox:
    /// TiKV's failpoint `receive_raft_message_from_outside` (pause) in `Service::batch_raft`,
    /// which the tikv#14574 test uses to make a message late. For tests only.
    pub fn hold_incoming_raft(&mut self, s: usize, until: SimTime) {
        let st = &mut self.stores[s];
        st.feed_held_ns = st.feed_held_ns.max(ns(until.as_micros()));
    }

    /// The delay from `now_us` to the microsecond `at_ns` falls in, rounded up, for a timer.
    pub(crate) fn delay_to(now_us: u64, at_ns: u64) -> SimDuration {
        SimDuration(at_ns.div_ceil(NS_PER_US).saturating_sub(now_us))
    }

    /// Poller time scheduled on store `s` in the second before `now_us`, as a percentage of
    /// what its pool can do in a second: above 100 the pollers fall behind.
    pub(crate) fn poll_load_pct(&self, s: usize, now_us: u64) -> f64 {
        let pool = self.cfg.raft.capacity.pool_size.max(1) as f64;
        let ns = self.stores[s].scheduled_ns.last_second(SimTime(now_us)) as f64;
        ns / (pool * 1e9) * 100.0
    }

    /// How far behind store `s`'s pollers are at `now_us`: work scheduled but not yet done.
    pub(crate) fn poll_backlog_ns(&self, s: usize, now_us: u64) -> u64 {
        self.stores[s]
            .poll_free_ns
            .saturating_sub(now_us * NS_PER_US)
    }
}
