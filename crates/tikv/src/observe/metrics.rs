//! Incremental bookkeeping behind the sampled metrics. Everything is updated where the state
//! changes, so sampling costs O(stores), never a scan of 768k peers.

use crate::host::TikvHost;
use crate::store::membership::StoreState;
use std::collections::BTreeSet;

use faultline_sim::{Kernel, PerSecond, SimTime};

use crate::cluster::Cluster;
use crate::ids::{PeerId, RegionId};

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

impl Cluster {
    /// A peer became leader.
    pub(crate) fn leader_gained<H: TikvHost>(&mut self, k: &Kernel<H>, pid: PeerId) {
        let s = self.slot_store[pid.ix()] as usize;
        let r = pid.region(self.replicas);
        self.changes.note(r);
        self.book.leaders_per_store[s] += 1;
        if self.store_up[s] {
            self.book.live_leader_up(r, k.now().0);
        }
        let p = &self.peers[pid.ix()];
        let runs = &self.tails[pid.ix()].runs;
        self.inv
            .on_leader(r, p.term, pid.slot(self.replicas), &p.log, runs);
    }

    /// A peer stopped being leader; its pending reads fail.
    pub(crate) fn leader_lost(&mut self, pid: PeerId) {
        self.reads_lost(pid);
        // Only a leader probes; a report to a follower must not find a stale bit.
        self.probing[pid.ix()] = 0;
        self.changes.note(pid.region(self.replicas));
        let s = self.slot_store[pid.ix()] as usize;
        self.book.leaders_per_store[s] -= 1;
        if self.store_up[s] {
            self.book
                .live_leader_down(pid.region(self.replicas), self.now);
        }
    }

    /// Series names, in sampling order.
    pub(crate) fn series_names(&self) -> Vec<String> {
        let mut v: Vec<String> = (1..=self.stores.len())
            .map(|i| format!("leaders.tikv-{i}"))
            .collect();
        for n in [
            "leaderless_regions",
            "max_leaderless_secs",
            "longest_leaderless_secs",
            "hibernated_peers",
            "peers.ordered",
            "peers.chaos",
            "peers.prechaos",
            "peers.idle",
            "elections_started",
            "awake_peers",
            "raft_messages",
            "writes_applied",
            "writes_proposed",
            "writes_dropped",
            "unreachable_broadcasts",
            "leader_missing",
            "pd.down_stores",
            "pd.heartbeats_received",
            "writes_proposed_per_sec",
            "writes_applied_per_sec",
            "unreachable_reports",
            "raft_queue_full",
            "unreported_drops",
            "raft_queue_peak",
            "follower_wakeups",
            "pd.evict_leader_ops",
            "pd.admin_transfer_ops",
            "pd.region_moves",
            "pd.operators_running",
            "pd.operators_finished",
            "pd.operators_timed_out",
            "stores.up",
            "stores.offline",
            "stores.tombstone",
            "regions",
            "learners",
            "snapshots_in_flight",
            "replicas_per_region.max",
            "region_size_max_mib",
        ] {
            v.push(n.to_string());
        }
        v.extend((1..=self.stores.len()).map(|i| format!("replicas.tikv-{i}")));
        v
    }

    /// One row of samples.
    pub(crate) fn sample_row(&self, now: u64, out: &mut Vec<f64>) {
        let b = &self.book;
        out.extend(b.leaders_per_store.iter().map(|n| *n as f64));
        let cur = b.max_leaderless(now);
        let g = b.group_counts;
        out.extend([
            b.leaderless.len() as f64,
            (cur / 1_000_000) as f64,
            (cur.max(b.longest_leaderless) / 1_000_000) as f64,
            (g[crate::store::hibernate::GroupState::Idle as usize]
                + g[crate::store::hibernate::GroupState::PreChaos as usize]) as f64,
            g[0] as f64,
            g[1] as f64,
            g[2] as f64,
            g[3] as f64,
            b.elections_started as f64,
            b.awake_peers as f64,
            b.raft_messages as f64,
            b.writes_applied as f64,
            b.writes_proposed as f64,
            b.writes_dropped as f64,
            b.unreachable_broadcasts as f64,
            b.leader_missing.len() as f64,
            self.pd.down_stores() as f64,
            b.pd_heartbeats as f64,
            b.proposed_per_sec.last_second(SimTime(now)) as f64,
            b.applied_per_sec.last_second(SimTime(now)) as f64,
            b.unreachable_reports as f64,
            b.raft_queue_full as f64,
            b.unreported_drops as f64,
            b.raft_queue_peak as f64,
            b.follower_wakeups as f64,
            b.evict_leader_ops as f64,
            b.admin_transfer_ops as f64,
            b.region_moves as f64,
            (self.pd.leader_ops.len() + self.pd.replica_ops.len()) as f64,
            b.operators_finished as f64,
            b.operators_timed_out as f64,
            self.stores_in(StoreState::Up) as f64,
            self.stores_in(StoreState::Offline) as f64,
            self.stores_in(StoreState::Tombstone) as f64,
            (self.region_count() - self.merge.gone_count()) as f64,
            self.learner_count() as f64,
            (b.snapshots_sent - b.snapshots_finished) as f64,
            (self.replicas as usize + usize::from(self.learner_count() > 0)) as f64,
            self.largest_region_bytes() as f64 / (1024.0 * 1024.0),
        ]);
        out.extend(self.stores.iter().map(|st| st.peers.len() as f64));
    }
}
