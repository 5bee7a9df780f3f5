//! The cluster: construction (deterministic placement of a hibernated, fully led cluster) and
//! the [`Model`] implementation that routes kernel events to stores and PD.

use std::collections::BTreeMap;

use faultline_sim::{
    CowVec, Kernel, Model, Network, NodeId, NodeState, SimDuration, SimRng, SimTime,
};

use crate::action::TikvAction;
use crate::config::TikvConfig;
use crate::epoch::RegionEpoch;
use crate::ids::PeerId;
use crate::ids::RegionId;
use crate::msg::Msg;
use crate::msg::Timer;
use crate::observe::invariants::Invariants;
use crate::observe::state::Book;
use crate::out::Cx;
use crate::pd::state::Pd;
use crate::raft::state::Peer;
use crate::raft::state::PeerTail;
use crate::raft::state::Proposals;
use crate::raft::state::ReadIndexes;
use crate::raft::state::MAX_REPLICAS;
use crate::region::state::AdminCmds;
use crate::region::state::Change;
use crate::store::bootstrap::place_replicas;
use crate::store::bootstrap::INIT_INDEX;
use crate::store::bootstrap::INIT_TERM;
use crate::store::state::GroupState;
use crate::store::state::Store;
use crate::store::state::StoreState;

/// The TiKV cluster and PD.
#[derive(Clone, Debug)]
pub struct Cluster {
    pub(crate) cfg: TikvConfig,
    pub(crate) replicas: u32,
    pub(crate) pd_node: NodeId,
    pub(crate) store_nodes: Vec<NodeId>,
    /// Per node id: its store index, if it is a store.
    pub(crate) node_store: Vec<Option<u32>>,
    /// All peers, indexed by `PeerId`. Copy-on-write chunks: a clone of the cluster (a
    /// playground snapshot) shares the chunks of peers nobody has written since.
    pub(crate) peers: CowVec<Peer, PEER_CHUNK_SHIFT>,
    /// Each peer's tail (log runs, next indexes), indexed by `PeerId`: apart from `peers` so
    /// that ticks and heartbeats, which write only the peer, leave the tails' chunks shared.
    pub(crate) tails: CowVec<PeerTail, PEER_CHUNK_SHIFT>,
    /// Per leader peer: slots whose next index is known to be `matched + 1` (raft-rs's probe,
    /// as an Unreachable report leaves it); every other write to a slot's next or matched
    /// index clears the bit, and losing leadership clears them all. Apart from `Peer`: after
    /// a store dies nearly every report finds its bit set, and one byte here is far cheaper
    /// to read than a random peer's line.
    pub(crate) probing: Vec<u8>,
    /// Store index of each peer, indexed by `PeerId` (the region's membership).
    pub(crate) slot_store: Vec<u8>,
    pub(crate) stores: Vec<Store>,
    /// Store not crashed.
    pub(crate) store_live: Vec<bool>,
    /// Store Up (not crashed, not paused): its leaders count as live leaders.
    pub(crate) store_up: Vec<bool>,
    /// The store's gRPC server has shut down (SIGTERM) while its raftstore still runs.
    pub(crate) grpc_stopped: Vec<bool>,
    pub(crate) pd: Pd,
    pub(crate) book: Book,
    pub(crate) inv: Invariants,
    /// Regions that may look different to an observer (see [`crate::region::region_changes`]).
    pub(crate) changes: crate::region::state::RegionChanges,
    /// Client operations riding on log entries (see [`crate::raft::proposals`]).
    pub(crate) proposals: Proposals,
    /// ReadIndex requests waiting for a quorum (see [`crate::raft::read_index`]).
    pub(crate) reads: ReadIndexes,
    /// Admin commands leaders proposed (splits, see [`crate::region::split`]).
    pub(crate) admin: AdminCmds,
    /// Each region's epoch, by region id.
    pub(crate) epochs: Vec<RegionEpoch>,
    /// The region each split region came from.
    pub(crate) split_from: BTreeMap<u32, u32>,
    /// Learners added by membership changes and not yet promoted, by region.
    pub(crate) learners: BTreeMap<u32, crate::region::state::Learner>,
    /// Each region's approximate size, for size splits and snapshots.
    pub(crate) sizes: crate::region::state::RegionSizes,
    /// Regions merging and merged (see [`crate::region::merge`]).
    pub(crate) merge: crate::region::state::Merges,
    pub(crate) load_rng: SimRng,
    load_acc: u64,
    pd_crashed: bool,
    pub(crate) watched: Option<u32>,
    pub(crate) watch_log: Vec<crate::observe::state::WatchEvent>,
    /// Time of the event being handled (µs).
    pub(crate) now: u64,
}

/// Peers per copy-on-write chunk: 1 << 2 = 4, about one region and a third. Writes wake
/// regions at random, so in 20 simulated seconds of the full-scale run's load (1,000 writes/s
/// over 256,000 regions) a 16-peer chunk was written in about half the cases and a 4-peer
/// one is in far fewer; the smaller the chunk, the longer the pointer table every snapshot
/// copies (192,000 entries here).
pub const PEER_CHUNK_SHIFT: u32 = 2;

/// Interval of the write-load timer.
const LOAD_INTERVAL: SimDuration = SimDuration::from_millis(10);

impl Cluster {
    /// Builds the cluster, adding `pd-1` then `tikv-1..tikv-N` to the network.
    ///
    /// Placement is deterministic: region `r`'s replica slot `i` lives on store
    /// `(r + i) % stores`, and slot 0 leads, so leaders and replicas are balanced. The cluster
    /// starts as a long-idle one: term 6, every region hibernated (leaders `Hibernated`, all
    /// peers `Idle`), which is the state the report's cluster was in before the kill.
    ///
    /// # Panics
    /// If `replicas` is 0, above 5 or above `stores`, or `stores` is 0 or above 255: such a
    /// config is rejected by the scenario layer before it gets here.
    pub fn new(cfg: &TikvConfig, net: &mut Network) -> Cluster {
        assert!(
            cfg.stores > 0 && cfg.stores < 255,
            "stores must be in 1..255"
        );
        assert!(
            cfg.replicas > 0 && cfg.replicas as usize <= MAX_REPLICAS && cfg.replicas <= cfg.stores,
            "replicas must be in 1..=min(5, stores)"
        );
        let pd_node = net.add_node("pd-1", "pd");
        // Stores that may join later are nodes from the start (see `crate::store::membership`).
        let total = cfg.store_slots() as usize;
        let store_nodes: Vec<NodeId> = (1..=total)
            .map(|i| net.add_node(&format!("tikv-{i}"), "tikv"))
            .collect();
        let mut node_store = vec![None; net.nodes().len()];
        for (i, n) in store_nodes.iter().enumerate() {
            node_store[n.0 as usize] = Some(i as u32);
        }
        let n = cfg.stores as usize;
        let regions = cfg.regions as usize;
        let mut stores: Vec<Store> = (0..total)
            // Re-seeded from the run's seed in `init` (the kernel does not exist yet).
            .map(|_| Store::new(total, SimRng::stream(0, "unseeded")))
            .collect();
        let (peers, tails, slot_store) = place_replicas(cfg, &mut stores);
        let mut book = Book::new(total, regions);
        book.group_counts[GroupState::Idle as usize] = (regions * cfg.replicas as usize) as u64;
        for r in 0..regions {
            book.leaders_per_store[r % n] += 1;
            book.live_leaders[r] = 1;
        }
        let joined: Vec<bool> = (0..total).map(|s| s < n).collect();
        let mut pd = Pd::new(total, regions, INIT_TERM, |r| (r % n) as u8);
        let state = |joined: bool| match joined {
            true => StoreState::Up,
            false => StoreState::Absent,
        };
        pd.store_state = joined.iter().map(|&j| state(j)).collect();
        Cluster {
            cfg: cfg.clone(),
            replicas: cfg.replicas,
            pd_node,
            store_nodes,
            node_store,
            peers: peers.into(),
            probing: vec![0; slot_store.len()],
            tails: tails.into(),
            slot_store,
            stores,
            store_live: joined.clone(),
            grpc_stopped: vec![false; joined.len()],
            store_up: joined,
            pd,
            book,
            proposals: Proposals::default(),
            reads: ReadIndexes::default(),
            admin: AdminCmds::default(),
            epochs: vec![RegionEpoch::INIT; regions],
            split_from: BTreeMap::new(),
            learners: BTreeMap::new(),
            sizes: crate::region::state::RegionSizes::new(cfg),
            merge: crate::region::state::Merges::default(),
            inv: Invariants::new(regions, INIT_INDEX + 1, INIT_TERM, INIT_TERM, |_| 0),
            load_rng: SimRng::stream(0, "load"),
            load_acc: 0,
            pd_crashed: false,
            changes: Default::default(),
            watched: None,
            watch_log: Vec::new(),
            now: 0,
        }
    }

    /// Every peer's state, indexed by `PeerId` (for snapshot memory reports: which chunks two
    /// clones still share).
    pub fn peers(&self) -> &CowVec<Peer, PEER_CHUNK_SHIFT> {
        &self.peers
    }

    /// Every peer's tail (log runs, next indexes), indexed by `PeerId`: for the same reports.
    pub fn tails(&self) -> &CowVec<PeerTail, PEER_CHUNK_SHIFT> {
        &self.tails
    }

    /// The configuration this cluster was built from.
    pub fn config(&self) -> &TikvConfig {
        &self.cfg
    }

    /// A timer that performs `action` when it fires; arm it with
    /// `kernel.set_timer(node, after, timer)`. See [`crate::action`].
    pub fn action_timer(&self, action: TikvAction) -> (NodeId, Timer) {
        (self.pd_node, Timer::Action(action))
    }

    /// The timer that delivers SIGTERM to store `store` (0-based): its gRPC server stops at
    /// once; the caller crashes the node when the rest of the shutdown is over (see
    /// `store::store_life::Cluster::stop_grpc_server`).
    pub fn sigterm_timer(&self, store: usize) -> (NodeId, Timer) {
        (self.store_nodes[store], Timer::Sigterm)
    }

    /// A PD timestamp (TSO) at `now`.
    pub fn pd_tso(&mut self, now: SimTime) -> u64 {
        self.pd.tso(now.0)
    }

    pub(crate) fn node_of(&self, pid: PeerId) -> NodeId {
        self.store_nodes[self.slot_store[pid.ix()] as usize]
    }

    pub(crate) fn peers_of(&self, s: usize) -> Vec<PeerId> {
        self.stores[s]
            .peers
            .iter()
            .copied()
            .filter(|p| self.slot_store[p.ix()] as usize == s)
            .collect()
    }

    pub(crate) fn start_store_timers(&mut self, cx: &mut Cx, s: usize) {
        let node = self.store_nodes[s];
        let st = &mut self.stores[s];
        // Stores boot at different instants: spread their periodic ticks.
        let tick_phase = st.rng.below(self.cfg.raft.base_tick.0.max(1));
        let stale = self.cfg.hibernate.peer_stale_state_check_interval.0.max(1);
        let stale_phase = st.rng.below(stale);
        let hb_phase = st.rng.below(self.cfg.pd.store_heartbeat.0.max(1));
        let rhb_phase = st.rng.below(self.cfg.pd.region_heartbeat.0.max(1));
        cx.out
            .set_timer(node, SimDuration(tick_phase), Timer::RaftTick);
        cx.out
            .set_timer(node, SimDuration(stale_phase), Timer::StaleCheck);
        cx.out
            .set_timer(node, SimDuration(hb_phase), Timer::StoreHeartbeat);
        cx.out
            .set_timer(node, SimDuration(rhb_phase), Timer::RegionHeartbeat);
    }

    fn on_store_timer(&mut self, cx: &mut Cx, s: usize, timer: Timer) {
        let node = self.store_nodes[s];
        match timer {
            Timer::RaftTick => self.store_tick(cx, s),
            Timer::Process { from_store, msgs } => {
                self.process_batch(cx, s, from_store as usize, &msgs)
            }
            Timer::StaleCheck => {
                for pid in self.peers_of(s) {
                    self.stale_check_peer(cx, pid);
                }
                self.send_region_heartbeats(cx, s);
                let every = self.cfg.hibernate.peer_stale_state_check_interval;
                cx.out.set_timer(node, every, Timer::StaleCheck);
            }
            Timer::ConnFailed { store } => self.on_conn_failure_detected(cx, s, store as usize),
            Timer::Sigterm => self.stop_grpc_server(cx, s),
            Timer::Feed { from_store, msgs } => self.feed_batch(cx, s, from_store as usize, msgs),
            Timer::UnreachableHandled { store } => self.broadcast_unreachable(s, store as usize),
            Timer::SplitCheck => self.split_check(cx, s),
            Timer::MergeCheck { source } => self.check_merge(cx, s, source),
            Timer::SnapshotSent {
                region,
                to_store,
                index,
            } => self.on_snapshot_sent(cx, s, (region, to_store, index)),
            Timer::Reconnect { store } => self.reconnect(cx, s, store as usize),
            Timer::StoreHeartbeat => self.send_store_heartbeat(cx, s),
            Timer::RegionHeartbeat => self.send_awake_region_heartbeats(cx, s),
            _ => {}
        }
    }

    fn on_store_message(&mut self, cx: &mut Cx, s: usize, from: NodeId, msg: Msg) {
        if self.grpc_stopped[s] && matches!(msg, Msg::Raft(_) | Msg::Propose { .. }) {
            return; // no gRPC server accepts peers' raft streams or clients' requests
        }
        match msg {
            Msg::Raft(msgs) => {
                if let Some(t) = self.node_store[from.0 as usize] {
                    self.on_raft_batch(cx, s, t as usize, msgs);
                }
            }
            Msg::Propose {
                region,
                op,
                version,
            } => self.propose_op(cx, s, (region, version), op),
            Msg::Split { region, parts, at } => self.propose_split(cx, s, region, (parts, at)),
            Msg::TransferLeader { region, to_store } => {
                let Some(pid) = self.local_peer(s, region) else {
                    return;
                };
                let to = (0..self.replicas as u8).find(|sl| {
                    self.slot_store[PeerId::of(RegionId(region), *sl, self.replicas).ix()] as u32
                        == to_store
                });
                if let Some(to) = to {
                    self.transfer_leader(pid, to);
                }
            }
            Msg::ReplacePeer {
                region,
                slot,
                store,
            } => self.change_peer(cx, s, (region, slot, store as usize), Change::Replace),
            Msg::MovePeer {
                region,
                slot,
                store,
            } => self.change_peer(cx, s, (region, slot, store as usize), Change::Move),
            Msg::LearnerSnapshot { region, index } => {
                self.on_learner_snapshot(cx, s, region, index)
            }
            Msg::PromoteLearner { region } => self.on_promote_learner(cx, s, region),
            Msg::PrepareMerge {
                source,
                target,
                target_version,
            } => self.propose_prepare_merge(cx, s, (source, target, target_version)),
            _ => {}
        }
    }

    fn on_pd_timer(&mut self, cx: &mut Cx, timer: Timer) {
        match timer {
            Timer::PdTick => self.pd_tick(cx),
            Timer::Load => {
                if self.cfg.load.stop_at.is_some_and(|t| cx.now.0 >= t.0) {
                    return;
                }
                self.load_acc += self.cfg.load.writes_per_sec as u64;
                let n = self.load_acc / 100;
                self.load_acc %= 100;
                for _ in 0..n {
                    let r = self.load_rng.below(self.region_count() as u64) as u32;
                    // A merged region's keys are its target's now.
                    let r = self.merge.live_region(r);
                    let write = Msg::Propose {
                        region: r,
                        op: 0,
                        version: 0,
                    };
                    self.route(cx, write, r);
                }
                cx.out.set_timer(self.pd_node, LOAD_INTERVAL, Timer::Load);
            }
            Timer::Action(action) => self.run_action(cx, action),
            _ => {}
        }
    }
}

impl Cluster {
    /// Arms the first timers (the `Model::init` of this layer).
    pub(crate) fn handle_init(&mut self, cx: &mut Cx) {
        self.now = cx.now.0;
        self.bootstrap_missing_ticks();
        if !self.cfg.hibernate.enabled {
            // Without hibernation every peer ticks from the start.
            for i in 0..self.peers.len() {
                let pid = PeerId(i as u32);
                self.set_group(pid, GroupState::Ordered);
                self.peers[i].leader_state = crate::store::state::LeaderState::Awaken;
                self.register_tick(pid);
            }
        }
        for s in 0..self.stores.len() {
            if self.pd.store_state[s].in_cluster() {
                self.start_store_timers(cx, s);
            }
        }
        cx.out
            .set_timer(self.pd_node, SimDuration::from_secs(1), Timer::PdTick);
        if self.cfg.load.writes_per_sec > 0 {
            cx.out.set_timer(self.pd_node, LOAD_INTERVAL, Timer::Load);
        }
    }

    /// The store index of `node`, if it is a store with a TiKV running (joined, not removed).
    fn joined_store(&self, node: NodeId) -> Option<usize> {
        let s = self.node_store.get(node.0 as usize).copied().flatten()? as usize;
        self.pd.store_state[s].in_cluster().then_some(s)
    }

    /// Handles a TiKV/PD message delivered by the kernel.
    pub(crate) fn handle_message(&mut self, cx: &mut Cx, from: NodeId, to: NodeId, msg: Msg) {
        self.now = cx.now.0;
        if to == self.pd_node {
            self.pd_on_message(cx, from, msg);
        } else if let Some(s) = self.joined_store(to) {
            self.on_store_message(cx, s, from, msg);
        }
        self.flush(cx);
    }

    /// Handles a TiKV/PD timer.
    pub(crate) fn handle_timer(&mut self, cx: &mut Cx, node: NodeId, timer: Timer) {
        self.now = cx.now.0;
        if node == self.pd_node {
            self.on_pd_timer(cx, timer);
        } else if let Some(s) = self.joined_store(node) {
            self.on_store_timer(cx, s, timer);
        }
        self.flush(cx);
    }

    /// A node was killed, restarted, paused or resumed.
    pub(crate) fn handle_node_state(&mut self, cx: &mut Cx, node: NodeId, state: NodeState) {
        self.now = cx.now.0;
        if let Some(s) = self.node_store.get(node.0 as usize).copied().flatten() {
            let s = s as usize;
            if !self.pd.store_state[s].in_cluster() {
                // No TiKV runs there (not joined yet, or removed): nothing to kill or restart.
                return;
            }
            match state {
                NodeState::Crashed => self.store_crashed(cx, s),
                NodeState::Up if !self.store_live[s] => self.store_restarted(cx, s),
                NodeState::Up => self.store_paused(s, false),
                NodeState::Paused => self.store_paused(s, true),
            }
            // A stalled store answers no keepalive ping.
            self.schedule_failure_detection(cx);
        } else if node == self.pd_node && state == NodeState::Crashed {
            self.pd_crashed = true;
        } else if node == self.pd_node && state == NodeState::Up && self.pd_crashed {
            // A restarted PD re-arms its loops (its view is kept, as if persisted in etcd).
            self.pd_crashed = false;
            cx.out
                .set_timer(self.pd_node, SimDuration::from_secs(1), Timer::PdTick);
            if self.cfg.load.writes_per_sec > 0 {
                cx.out.set_timer(self.pd_node, LOAD_INTERVAL, Timer::Load);
            }
        }
        self.flush(cx);
    }

    /// Links changed: raft clients notice broken connections.
    pub(crate) fn handle_links_changed(&mut self, cx: &mut Cx) {
        self.now = cx.now.0;
        self.schedule_failure_detection(cx);
    }
}

impl Model for Cluster {
    type Msg = Msg;
    type Timer = Timer;

    fn init(&mut self, k: &mut Kernel<Self>) {
        self.init_in(k)
    }

    fn on_message(&mut self, k: &mut Kernel<Self>, from: NodeId, to: NodeId, msg: Msg) {
        self.message_in(k, from, to, msg)
    }

    fn on_timer(&mut self, k: &mut Kernel<Self>, node: NodeId, timer: Timer) {
        self.timer_in(k, node, timer)
    }

    fn on_node_state(&mut self, k: &mut Kernel<Self>, node: NodeId, state: NodeState) {
        self.node_state_in(k, node, state)
    }

    fn on_links_changed(&mut self, k: &mut Kernel<Self>) {
        self.links_changed_in(k)
    }

    fn metric_names(&self) -> Vec<String> {
        self.series_names()
    }

    fn sample_metrics(&self, now: SimTime, out: &mut Vec<f64>) {
        self.sample_row(now.0, out);
    }

    fn check_invariants(&self) -> Result<(), String> {
        match &self.inv.violation {
            Some(v) => Err(v.clone()),
            None => Ok(()),
        }
    }
}
