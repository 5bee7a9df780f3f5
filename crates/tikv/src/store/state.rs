//! The store folder's data: a peer's hibernate GroupState and a leader's LeaderState, PD's view
//! of a store's state, and a store's raftstore state. Types only; their transitions live in the
//! files of the mechanisms that change them.

use faultline_sim::{PerSecond, SimRng};

use crate::ids::PeerId;
use crate::msg::RaftMsg;

/// GroupState of a peer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupState {
    /// A leader replicates normally.
    Ordered = 0,
    /// Leadership may be lost: keep ticking.
    Chaos = 1,
    /// One stale check away from Chaos (avoids flapping).
    PreChaos = 2,
    /// Hibernated: not ticking.
    Idle = 3,
}

impl GroupState {
    /// Name as TiKV prints it.
    pub fn name(self) -> &'static str {
        match self {
            GroupState::Ordered => "Ordered",
            GroupState::Chaos => "Chaos",
            GroupState::PreChaos => "PreChaos",
            GroupState::Idle => "Idle",
        }
    }
}

/// The leader's side of hibernation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeaderState {
    /// Working normally.
    Awaken,
    /// Asked followers whether they agree to hibernate; votes in `Peer::hib_votes`.
    Poll,
    /// Every peer agreed.
    Hibernated,
}

/// A store's state as PD knows it (`metapb.NodeState`, with Absent for a store that has not
/// joined yet).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoreState {
    /// Not part of the cluster yet: its node exists but runs no TiKV.
    Absent,
    /// Serving.
    Up,
    /// Removing: PD moves its replicas off.
    Offline,
    /// Removed: it holds nothing and its process has stopped.
    Tombstone,
}

impl StoreState {
    /// The name PD and the UI use.
    pub fn name(self) -> &'static str {
        match self {
            StoreState::Absent => "Absent",
            StoreState::Up => "Up",
            StoreState::Offline => "Offline",
            StoreState::Tombstone => "Tombstone",
        }
    }

    /// A TiKV process runs on the store (it holds or may hold replicas).
    pub fn in_cluster(self) -> bool {
        matches!(self, StoreState::Up | StoreState::Offline)
    }
}

/// Per-store state. Vectors indexed by another store's index describe this store's view of, or
/// connection to, that store.
#[derive(Clone, Debug)]
pub struct Store {
    /// Peers hosted here. May hold stale entries for replicas PD moved away; readers check
    /// `Cluster::slot_store`.
    pub peers: Vec<PeerId>,
    /// Peers whose raft tick is registered (not hibernated). Cost per tick follows this list.
    pub awake: Vec<PeerId>,
    /// Raft messages waiting for the end of the current event, per target store.
    pub outbox: Vec<Vec<RaftMsg>>,
    /// The raft client's connection to that store is known broken.
    pub conn_broken: Vec<bool>,
    /// A failure detection is scheduled for that connection.
    pub detect_pending: Vec<bool>,
    /// Messages queued for that store while its connection is broken.
    pub pending: Vec<Vec<RaftMsg>>,
    /// Start of the raft client's last connection attempt to that store (µs).
    pub last_attempt: Vec<Option<u64>>,
    /// Last StoreUnreachable broadcast for that store (µs).
    pub last_broadcast: Vec<Option<u64>>,
    /// `recv_count` at the last broadcast (the fix's `received_message_count`).
    pub recv_at_broadcast: Vec<u64>,
    /// Raft messages from that store handed to local peers so far.
    pub recv_count: Vec<u64>,
    /// When this store's pollers will have finished the work scheduled so far (ns of
    /// simulated time): new work waits behind it, FIFO, as scheduled FSMs wait for a poller.
    pub poll_free_ns: u64,
    /// When the pollers' last inline raft log write ends (ns): work with I/O that is handled
    /// before then joins the next write instead of paying for one of its own.
    pub write_end_ns: u64,
    /// Until when a StoreUnreachable broadcast holds the router's mailbox lock (ns): raft
    /// messages received meanwhile are fed to their mailboxes only then.
    pub feed_held_ns: u64,
    /// Poller time scheduled per second (ns, summed over pollers): the load metric.
    pub scheduled_ns: PerSecond,
    /// Region heartbeats waiting to go to PD.
    pub region_hb: Vec<(u32, u64)>,
    /// This store's random stream (election timeouts, queueing delays).
    pub rng: SimRng,
}

impl Store {
    /// A store among `n` stores.
    pub fn new(n: usize, rng: SimRng) -> Self {
        Store {
            peers: Vec::new(),
            awake: Vec::new(),
            outbox: vec![Vec::new(); n],
            conn_broken: vec![false; n],
            detect_pending: vec![false; n],
            pending: vec![Vec::new(); n],
            last_attempt: vec![None; n],
            last_broadcast: vec![None; n],
            recv_at_broadcast: vec![0; n],
            recv_count: vec![0; n],
            poll_free_ns: 0,
            feed_held_ns: 0,
            write_end_ns: 0,
            scheduled_ns: PerSecond::default(),
            region_hb: Vec::new(),
            rng,
        }
    }

    /// Forgets everything volatile (process restart).
    pub fn reset_volatile(&mut self) {
        let n = self.outbox.len();
        let rng = self.rng.clone();
        let peers = std::mem::take(&mut self.peers);
        *self = Store::new(n, rng);
        self.peers = peers;
    }
}
