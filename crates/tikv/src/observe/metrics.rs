//! Incremental bookkeeping behind the sampled metrics. Everything is updated where the state
//! changes, so sampling costs O(stores), never a scan of 768k peers.

use faultline_sim::SimTime;

use crate::cluster::Cluster;
use crate::ids::PeerId;
use crate::out::Cx;
use crate::store::state::StoreState;

impl Cluster {
    /// A peer became leader.
    pub(crate) fn leader_gained(&mut self, cx: &Cx, pid: PeerId) {
        let s = self.slot_store[pid.ix()] as usize;
        let r = pid.region(self.replicas);
        self.changes.note(r);
        self.book.leaders_per_store[s] += 1;
        if self.store_up[s] {
            self.book.live_leader_up(r, cx.now.0);
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

    /// The largest of `f` over the live stores (0 with none).
    fn each_store_max(&self, f: impl Fn(usize) -> f64) -> f64 {
        (0..self.stores.len())
            .filter(|&s| self.store_live[s])
            .map(f)
            .fold(0.0, f64::max)
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
            "late_messages",
            "raftstore.load_pct.max",
            "raftstore.backlog_ms.max",
            "raftstore.broadcast_lock_ms",
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
            (g[crate::store::state::GroupState::Idle as usize]
                + g[crate::store::state::GroupState::PreChaos as usize]) as f64,
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
            b.late_messages as f64,
            self.each_store_max(|s| self.poll_load_pct(s, now)),
            self.each_store_max(|s| self.poll_backlog_ns(s, now) as f64 / 1e6),
            b.broadcast_lock_ns as f64 / 1e6,
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
