//! The observe folder's data: the metrics book kept where state changes, and the watched
//! region's event trace. Types only.

use std::collections::BTreeSet;

use faultline_sim::PerSecond;

use crate::ids::RegionId;
use crate::msg::Kind;
use crate::store::state::GroupState;

/// Counters and per-region leadership state.
#[derive(Clone, Debug)]
pub struct Book {
    /// Leader peers per store.
    pub leaders_per_store: Vec<u64>,
    /// Per region: leaders on Up stores.
    pub live_leaders: Vec<u8>,
    /// Per region: start of the current leaderless streak (µs), `u64::MAX` if it has a leader.
    pub leaderless_since: Vec<u64>,
    /// Leaderless regions ordered by streak start, so the longest is the first.
    pub leaderless: BTreeSet<(u64, u32)>,
    /// Longest finished leaderless streak (µs).
    pub longest_leaderless: u64,
    /// Peers per GroupState on stores that are not crashed.
    pub group_counts: [u64; 4],
    /// Peers whose tick is registered.
    pub awake_peers: u64,
    /// Campaigns started (pre-vote included).
    pub elections_started: u64,
    /// Raft messages handed to peers.
    pub raft_messages: u64,
    /// Base ticks handled by awake peers (TiKV `on_raft_base_tick` calls). Not a metric a
    /// scenario can name: the benchmark's measure of the work an awake region costs.
    pub peer_ticks: u64,
    /// Entries applied by leaders.
    pub writes_applied: u64,
    /// Writes accepted by a leader.
    pub writes_proposed: u64,
    /// Writes the client could not route (no leader).
    pub writes_dropped: u64,
    /// StoreUnreachable broadcasts.
    pub unreachable_broadcasts: u64,
    /// `Unreachable` reports, one per message the raft client dropped from a queue.
    pub unreachable_reports: u64,
    /// Messages a full raft-client queue refused (`DiscardReason::Full`).
    pub raft_queue_full: u64,
    /// Of those, messages the store writer sent, lost without an `Unreachable` report.
    pub unreported_drops: u64,
    /// Deepest raft-client queue to a broken connection so far.
    pub raft_queue_peak: u64,
    /// Raft messages handled from a store after the receiving store's raft client saw its
    /// connection to that store break: the late messages of the tikv#14547 race.
    pub late_messages: u64,
    /// Longest a StoreUnreachable broadcast held a router's mailbox lock (ns).
    pub broadcast_lock_ns: u64,
    /// Followers woken by a request that reached them (`NotLeader` answers).
    pub follower_wakeups: u64,
    /// Leader transfers PD's evict-leader scheduler ordered.
    pub evict_leader_ops: u64,
    /// Leader transfers PD ordered for `transfer_leader` actions (admin operators).
    pub admin_transfer_ops: u64,
    /// Move-peer operators PD ordered (balance-region and drains of Offline stores).
    pub region_moves: u64,
    /// Operators (leader transfers and replica moves) that reached their goal.
    pub operators_finished: u64,
    /// Learner snapshots leaders started sending.
    pub snapshots_sent: u64,
    /// Learner snapshots whose transfer ended (landed or lost on a broken link).
    pub snapshots_finished: u64,
    /// Operators PD dropped at their deadline.
    pub operators_timed_out: u64,
    /// Regions logged as leader missing (TiKV `leader_missing` metric) and not led since.
    pub leader_missing: BTreeSet<u32>,
    /// Store and region heartbeat messages that reached PD over their link.
    pub pd_heartbeats: u64,
    /// Proposals appended by leaders, per simulated second.
    pub proposed_per_sec: PerSecond,
    /// Entries applied on leaders (each term's empty entry included), per simulated second.
    pub applied_per_sec: PerSecond,
}

impl Book {
    /// Bookkeeping for `stores` stores and `regions` regions, all led.
    pub fn new(stores: usize, regions: usize) -> Self {
        Book {
            leaders_per_store: vec![0; stores],
            live_leaders: vec![0; regions],
            leaderless_since: vec![u64::MAX; regions],
            leaderless: BTreeSet::new(),
            longest_leaderless: 0,
            group_counts: [0; 4],
            awake_peers: 0,
            elections_started: 0,
            raft_messages: 0,
            peer_ticks: 0,
            writes_applied: 0,
            writes_proposed: 0,
            writes_dropped: 0,
            unreachable_broadcasts: 0,
            unreachable_reports: 0,
            raft_queue_full: 0,
            unreported_drops: 0,
            raft_queue_peak: 0,
            broadcast_lock_ns: 0,
            late_messages: 0,
            follower_wakeups: 0,
            evict_leader_ops: 0,
            admin_transfer_ops: 0,
            region_moves: 0,
            operators_finished: 0,
            snapshots_sent: 0,
            snapshots_finished: 0,
            operators_timed_out: 0,
            leader_missing: BTreeSet::new(),
            pd_heartbeats: 0,
            proposed_per_sec: PerSecond::default(),
            applied_per_sec: PerSecond::default(),
        }
    }

    /// A region split off at `now` (µs): leaderless until its first election.
    pub fn add_region(&mut self, now: u64) {
        let r = self.live_leaders.len() as u32;
        self.live_leaders.push(0);
        self.leaderless_since.push(now);
        self.leaderless.insert((now, r));
    }

    /// A region gained a leader on an Up store.
    pub fn live_leader_up(&mut self, r: RegionId, now: u64) {
        let n = &mut self.live_leaders[r.0 as usize];
        *n += 1;
        if *n == 1 {
            let since = std::mem::replace(&mut self.leaderless_since[r.0 as usize], u64::MAX);
            if since != u64::MAX {
                self.leaderless.remove(&(since, r.0));
                self.longest_leaderless = self.longest_leaderless.max(now - since);
            }
            self.leader_missing.remove(&r.0);
        }
    }

    /// A region lost a leader on an Up store.
    pub fn live_leader_down(&mut self, r: RegionId, now: u64) {
        let n = &mut self.live_leaders[r.0 as usize];
        *n -= 1;
        if *n == 0 {
            self.leaderless_since[r.0 as usize] = now;
            self.leaderless.insert((now, r.0));
        }
    }

    /// A region merged away: it is neither led nor leaderless any more.
    pub fn remove_region(&mut self, r: u32) {
        let since = std::mem::replace(&mut self.leaderless_since[r as usize], u64::MAX);
        if since != u64::MAX {
            self.leaderless.remove(&(since, r));
        }
        self.leader_missing.remove(&r);
    }

    /// Longest current leaderless streak (µs).
    pub fn max_leaderless(&self, now: u64) -> u64 {
        self.leaderless
            .first()
            .map(|(since, _)| now - since)
            .unwrap_or(0)
    }
}

/// Most events kept for the watched region.
pub const WATCH_CAPACITY: usize = 10_000;

/// What happened to a peer of the watched region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WatchWhat {
    /// GroupState changed.
    Group {
        /// Before.
        from: GroupState,
        /// After.
        to: GroupState,
    },
    /// The peer handled a raft message.
    Handled {
        /// Message type.
        kind: Kind,
        /// Sender slot.
        from_slot: u8,
        /// Sender's store (0-based).
        from_store: u32,
        /// Message term.
        term: u64,
    },
    /// Its store broadcast StoreUnreachable for `store` (0-based) to it.
    Unreachable {
        /// The unreachable store.
        store: u32,
    },
    /// It became leader.
    BecameLeader {
        /// Term.
        term: u64,
    },
}

/// One event of the watched region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WatchEvent {
    /// Simulated time (µs).
    pub at: u64,
    /// Replica slot.
    pub slot: u8,
    /// Store of the peer (0-based).
    pub store: u32,
    /// What.
    pub what: WatchWhat,
}
