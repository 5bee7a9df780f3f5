//! The raft folder's data: a peer's role and its compact state, client operations riding on
//! log entries, and pending ReadIndex requests. Types only; the protocol's steps live beside.

use std::collections::BTreeMap;

use crate::ids::PeerId;
use crate::ids::NO_SLOT;
use crate::raft::log::{LogHead, LogRuns, RaftLog};
use crate::store::state::GroupState;
use crate::store::state::LeaderState;

/// Most replicas a region may have (progress is kept inline per peer).
pub const MAX_REPLICAS: usize = 5;

/// A peer's Raft role.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Follows `leader` (or nobody).
    Follower,
    /// Pre-vote phase: asking whether an election could win, without bumping the term.
    PreCandidate,
    /// Campaigning for `term`.
    Candidate,
    /// Leads `term`.
    Leader,
}

impl Role {
    /// Name as the UI shows it.
    pub fn name(self) -> &'static str {
        match self {
            Role::Follower => "follower",
            Role::PreCandidate => "precandidate",
            Role::Candidate => "candidate",
            Role::Leader => "leader",
        }
    }
}

/// All state of one peer. Persisted in TiKV: `term`, `vote`, `log` (with commit). Everything
/// else is volatile and reset when its store restarts.
///
/// Laid out for the cache, not for reading: at full scale each raft message and each tick
/// lands on a random one of 768,000 peers, so what a peer costs is the cache lines it touches.
/// `repr(C, align(128))` keeps declaration order and starts every peer on a 128-byte pair of
/// lines (the unit a CPU's adjacent-line prefetcher fetches together), and everything a tick,
/// a heartbeat, its answer or a vote reads lies in that pair ([`Peer::HOT_BYTES`]): the small
/// fields and clocks, the term, a leader's lease and matched indexes, and the log's indexes
/// with its cached last term. What only appends and their answers read, the log's term runs
/// and a leader's next indexes, is the peer's [`PeerTail`], kept apart (`Cluster::tails`): a
/// tick or a heartbeat then writes only this part, and a playground snapshot, which copies
/// each part's chunks on their first write, copies the tails only of peers that appended
/// (docs/bench.md, "A peer in two parts").
#[derive(Clone, Debug)]
#[repr(C, align(128))]
pub struct Peer {
    /// Role.
    pub role: Role,
    /// Slot voted for in `term`, or `NO_SLOT`.
    pub vote: u8,
    /// Slot of the known leader, or `NO_SLOT`.
    pub leader: u8,
    /// Leader only: slot a leadership transfer goes to, or `NO_SLOT`.
    pub transferee: u8,
    /// Hibernate GroupState.
    pub group: GroupState,
    /// Leader's hibernate poll.
    pub leader_state: LeaderState,
    /// Bitmask of slots that voted to hibernate (leader) in the current poll.
    pub hib_votes: u8,
    /// Bitmask of slots that granted the current (pre-)vote.
    pub granted: u8,
    /// Bitmask of slots that rejected the current (pre-)vote.
    pub rejected: u8,
    /// Leader: bitmask of slots heard from since the last check-quorum.
    pub recent_active: u8,
    /// In its store's awake (ticking) list.
    pub awake: bool,
    /// Ticks since the last reset of the election clock.
    pub election_elapsed: u16,
    /// Leader: ticks since the last heartbeat.
    pub heartbeat_elapsed: u16,
    /// Election timeout drawn in `[election_ticks, 2 * election_ticks)`.
    pub randomized_timeout: u16,
    /// Ticks an Idle follower skipped, replayed when it wakes (TiKV `PeerFsm::missing_ticks`).
    pub missing_ticks: u16,
    /// Current term.
    pub term: u64,
    /// When this follower started missing its leader (µs), `u64::MAX` if not missing.
    pub leader_missing_since: u64,
    /// Leader only: its lease ends here (µs of simulated time).
    pub lease_until: u64,
    /// Leader only: highest index known replicated on each slot.
    pub matched: [u64; MAX_REPLICAS],
    /// The log's indexes and last term (its runs are in the tail).
    pub log: LogHead,
}

/// The part of a peer that only appends, their answers and conflicts read and write.
#[derive(Clone, Debug)]
pub struct PeerTail {
    /// The log's term runs (its indexes are in [`Peer::log`]).
    pub runs: LogRuns,
    /// Leader only: next index to send to each slot.
    pub next: [u64; MAX_REPLICAS],
}

impl Peer {
    /// Bytes at the start of a peer that hold everything a tick, a heartbeat, its answer or a
    /// vote reads; what the stores' walks warm (`Cluster::warm_block`).
    pub const HOT_BYTES: usize = 128;

    /// A peer bootstrapped as a member of an existing, hibernated region, and its tail.
    pub fn bootstrapped(term: u64, log: RaftLog, leader: u8, is_leader: bool) -> (Self, PeerTail) {
        let last = log.head.last_index;
        let tail = PeerTail {
            runs: log.runs,
            next: [last + 1; MAX_REPLICAS],
        };
        let peer = Peer {
            term,
            log: log.head,
            matched: [last; MAX_REPLICAS],
            lease_until: 0,
            leader_missing_since: u64::MAX,
            role: if is_leader {
                Role::Leader
            } else {
                Role::Follower
            },
            vote: leader,
            leader,
            transferee: NO_SLOT,
            group: GroupState::Idle,
            leader_state: if is_leader {
                LeaderState::Hibernated
            } else {
                LeaderState::Awaken
            },
            hib_votes: 0,
            granted: 0,
            rejected: 0,
            recent_active: 0,
            election_elapsed: 0,
            heartbeat_elapsed: 0,
            randomized_timeout: 0,
            awake: false,
            missing_ticks: 0,
        };
        (peer, tail)
    }

    /// A peer just created with `log` in `term`: no vote, no leader, awake (`Ordered`).
    pub fn fresh(term: u64, log: RaftLog) -> (Self, PeerTail) {
        let (mut p, tail) = Peer::bootstrapped(term, log, NO_SLOT, false);
        p.vote = NO_SLOT;
        p.group = GroupState::Ordered;
        (p, tail)
    }

    /// Forgets volatile state, as a restart does (term, vote and log are persisted).
    pub fn reset_volatile(&mut self) {
        self.role = Role::Follower;
        self.leader = NO_SLOT;
        self.transferee = NO_SLOT;
        self.leader_state = LeaderState::Awaken;
        self.hib_votes = 0;
        self.granted = 0;
        self.rejected = 0;
        self.recent_active = 0;
        self.election_elapsed = 0;
        self.heartbeat_elapsed = 0;
        self.lease_until = 0;
        self.leader_missing_since = u64::MAX;
        self.awake = false;
        self.missing_ticks = 0;
    }

    /// True if this peer is leader.
    pub fn is_leader(&self) -> bool {
        self.role == Role::Leader
    }
}

/// What happened to an operation a client proposed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpOutcome {
    /// The entry was applied on `store` (the layer above changes its state now).
    Applied,
    /// The proposer answers its client with success.
    Done,
    /// The proposer answers `StaleCommand`: a newer leader's log replaced the entry.
    Stale,
    /// The store refused the proposal: its peer is not leader (or is transferring
    /// leadership). `leader` is the store its peer believes leads, if any.
    NotLeader {
        /// Leader hint (store index).
        leader: Option<u32>,
    },
    /// A ReadIndex asked with [`Cluster::read_index`] is confirmed: a quorum answered the
    /// leader's heartbeats carrying it (see [`crate::raft::read_index`]).
    ReadReady,
    /// A ReadIndex was refused at once: the local peer is not leader (or the replica moved
    /// away). `leader` is the store its peer believes leads, if any.
    ReadNotLeader {
        /// Leader hint (store index).
        leader: Option<u32>,
    },
    /// A ReadIndex was pending when its leader stepped down: TiKV answers `StaleCommand`.
    ReadStale,
    /// The proposer answers `EpochNotMatch`: the request was routed with an older epoch
    /// version than the region has (it split), checked when the leader takes it and again
    /// when its entry applies (TiKV `fsm/peer.rs` `pre_propose_raft_command` and `fsm/apply.rs`
    /// `exec_raft_cmd`, both `util::check_req_region_epoch`: normal requests compare the
    /// version, exactly). The entry changed nothing.
    EpochNotMatch,
    /// The region split: `added` new regions, ids `first..first + added`, took the first parts
    /// of its range, and every part's epoch version is now `version`. Reported when the
    /// `BatchSplit` entry applies, in order with the entries applied around it.
    Split {
        /// The first new region.
        first: u32,
        /// New regions.
        added: u32,
        /// Epoch version of the parent and the new regions.
        version: u64,
        /// The key a two-part split cut at (the new region ends there); `None`: cut evenly.
        at: Option<u64>,
    },
    /// The proposer answers `ProposalInMergingMode`: the region is a Merging source and takes
    /// no proposal until its merge commits or rolls back.
    MergingMode,
    /// The proposer answers `RegionNotFound`: the region merged into another and is gone.
    RegionNotFound,
    /// PrepareMerge applied on the source (this event's region): its epoch version is now
    /// `version` and it takes no more writes.
    PrepareMerge {
        /// The source's epoch version.
        version: u64,
    },
    /// CommitMerge applied on the target (this event's region): it took `source`'s range, and
    /// its epoch version is now `version`; `source` is gone.
    CommitMerge {
        /// The merged-away region.
        source: u32,
        /// The target's epoch version.
        version: u64,
    },
    /// RollbackMerge applied on the source (this event's region): the merge is off, and its
    /// epoch version is now `version`.
    RollbackMerge {
        /// The source's epoch version.
        version: u64,
    },
}

/// One outcome for the layer above to act on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpEvent {
    /// The operation id the client gave with its proposal.
    pub op: u64,
    /// Region.
    pub region: u32,
    /// Store where it happened (the applying peer's, or the proposer's for answers).
    pub store: u32,
    /// What happened.
    pub outcome: OpOutcome,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Pending {
    pub(crate) term: u64,
    pub(crate) op: u64,
    /// The epoch version the request was routed with (0: not checked).
    pub(crate) version: u64,
    /// Its apply found the region's epoch newer: it changed nothing and answers
    /// EpochNotMatch.
    pub(crate) epoch_stale: bool,
    pub(crate) proposer: PeerId,
    /// The proposer's store restarted since: nobody is left to answer the client.
    pub(crate) orphaned: bool,
    pub(crate) applied: bool,
}

/// Tracked entries and the outcomes not yet taken by the layer above.
#[derive(Clone, Debug, Default)]
pub struct Proposals {
    pub(crate) pending: BTreeMap<(u32, u64), Pending>,
    pub(crate) events: Vec<OpEvent>,
}

/// One read waiting for a quorum of heartbeat answers.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PendingRead {
    /// The caller's id, answered through `Cluster::take_op_events`.
    pub(crate) op: u64,
    /// The context its heartbeats carry (unique in the cluster, never 0).
    pub(crate) ctx: u64,
    /// Bitmask of slots that answered a heartbeat carrying `ctx` (the leader counts itself).
    pub(crate) acks: u8,
}

/// Pending reads per leader peer, oldest first.
#[derive(Clone, Debug, Default)]
pub struct ReadIndexes {
    pub(crate) by_leader: BTreeMap<u32, Vec<PendingRead>>,
    pub(crate) last_ctx: u64,
}

#[cfg(test)]
mod layout_tests {
    use std::mem::{align_of, offset_of, size_of};

    use super::{Peer, MAX_REPLICAS};
    use crate::raft::log::LogHead;

    /// What `Peer`'s layout note promises: each peer is one pair of cache lines, and holds
    /// the fields that every tick, heartbeat, heartbeat answer and vote read.
    #[test]
    fn the_fields_every_tick_and_heartbeat_reads_share_the_first_two_lines() {
        assert_eq!(align_of::<Peer>(), Peer::HOT_BYTES);
        assert_eq!(size_of::<Peer>(), Peer::HOT_BYTES);
        let log = offset_of!(Peer, log);
        let hot = [
            ("role", offset_of!(Peer, role) + 1),
            ("leader", offset_of!(Peer, leader) + 1),
            ("group", offset_of!(Peer, group) + 1),
            ("awake", offset_of!(Peer, awake) + 1),
            ("missing_ticks", offset_of!(Peer, missing_ticks) + 2),
            ("election_elapsed", offset_of!(Peer, election_elapsed) + 2),
            ("term", offset_of!(Peer, term) + 8),
            (
                "leader_missing_since",
                offset_of!(Peer, leader_missing_since) + 8,
            ),
            ("lease_until", offset_of!(Peer, lease_until) + 8),
            (
                "matched",
                offset_of!(Peer, matched) + size_of::<[u64; MAX_REPLICAS]>(),
            ),
            ("log.commit", log + offset_of!(LogHead, commit) + 8),
            ("log.last_index", log + offset_of!(LogHead, last_index) + 8),
            ("log.snap_term", log + offset_of!(LogHead, snap_term) + 8),
        ];
        for (field, end) in hot {
            assert!(
                end <= Peer::HOT_BYTES,
                "{field} ends at byte {end}, past the hot lines"
            );
        }
    }
}
