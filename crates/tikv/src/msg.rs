//! Messages and timers of the TiKV/PD model, with their canonical trace encodings.

use faultline_sim::{TraceEncode, TraceHasher};

use crate::action::TikvAction;
use crate::encode::word_if_some;

/// Raft message types (the subset of `eraftpb::MessageType` the model needs, plus TiKV's
/// hibernate extra messages).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Kind {
    /// Log entries (possibly none) after `(index, log_term)`.
    Append = 0,
    /// Ack or rejection of an append; `index` is the matched index or a hint.
    AppendResp,
    /// Leader heartbeat carrying `commit`.
    Heartbeat,
    /// Heartbeat ack.
    HeartbeatResp,
    /// Pre-vote request for term `term` (not persisted).
    PreVote,
    /// Pre-vote answer.
    PreVoteResp,
    /// Vote request.
    Vote,
    /// Vote answer.
    VoteResp,
    /// Leader transfer: campaign now.
    TimeoutNow,
    /// Snapshot up to `index` with term `log_term`.
    Snapshot,
    /// Hibernate poll from the leader (TiKV extra message `MsgHibernateRequest`).
    HibernateRequest,
    /// A follower agrees to hibernate (`MsgHibernateResponse`).
    HibernateResponse,
}

impl Kind {
    /// raft-rs style name for logs.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Append => "MsgAppend",
            Kind::AppendResp => "MsgAppendResponse",
            Kind::Heartbeat => "MsgHeartbeat",
            Kind::HeartbeatResp => "MsgHeartbeatResponse",
            Kind::PreVote => "MsgRequestPreVote",
            Kind::PreVoteResp => "MsgRequestPreVoteResponse",
            Kind::Vote => "MsgRequestVote",
            Kind::VoteResp => "MsgRequestVoteResponse",
            Kind::TimeoutNow => "MsgTimeoutNow",
            Kind::Snapshot => "MsgSnapshot",
            Kind::HibernateRequest => "MsgHibernateRequest",
            Kind::HibernateResponse => "MsgHibernateResponse",
        }
    }

    /// Vote-like messages put a hibernated peer in Chaos (TiKV `is_vote_msg` + TimeoutNow).
    pub fn wakes_to_chaos(self) -> bool {
        matches!(self, Kind::PreVote | Kind::Vote | Kind::TimeoutNow)
    }

    /// TiKV's extra messages do not count as "a message from the leader" for GroupState.
    pub fn is_extra(self) -> bool {
        matches!(self, Kind::HibernateRequest | Kind::HibernateResponse)
    }
}

/// One Raft message between two peers of a region. Entries are not carried one by one: an
/// append carries `entries` entries all of term `ent_term` (the leader sends one term run per
/// message), which is all a model without payloads needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RaftMsg {
    /// Region.
    pub region: u32,
    /// Sender's replica slot.
    pub from: u8,
    /// Receiver's replica slot.
    pub to: u8,
    /// Type.
    pub kind: Kind,
    /// Rejection (responses) or forced campaign (votes during a leader transfer).
    pub flag: bool,
    /// Sent by the store writer after its ready's write: a non-leader's message from a ready
    /// with I/O (raft-rs puts a non-leader's messages in `persisted_messages`; TiKV
    /// `Peer::handle_raft_ready_append` sends them from the poll only when the ready has no
    /// I/O). Decides what a refused send does: see `store::raft_client::send_path`.
    pub after_write: bool,
    /// Sender's term (or the campaign term).
    pub term: u64,
    /// Append: prev index; responses: matched index, or the rejected index (the hint is in
    /// `commit`); votes: candidate's last index.
    pub index: u64,
    /// Term of `index`.
    pub log_term: u64,
    /// Leader's commit index; in a rejected append answer, the follower's hint of where its
    /// log ends (raft-rs `reject_hint`).
    pub commit: u64,
    /// Number of entries appended after `index`.
    pub entries: u32,
    /// Term of those entries.
    pub ent_term: u64,
}

impl RaftMsg {
    /// A message with only the routing fields and term set.
    pub fn new(region: u32, from: u8, to: u8, kind: Kind, term: u64) -> Self {
        RaftMsg {
            region,
            from,
            to,
            kind,
            flag: false,
            after_write: false,
            term,
            index: 0,
            log_term: 0,
            commit: 0,
            entries: 0,
            ent_term: 0,
        }
    }
}

impl TraceEncode for RaftMsg {
    fn encode(&self, h: &mut TraceHasher) {
        h.word(
            (self.region as u64) << 32
                | (self.from as u64) << 24
                | (self.to as u64) << 16
                | (self.kind as u64) << 8
                | (self.after_write as u64) << 1
                | self.flag as u64,
        );
        h.word(self.term);
        h.word(self.index ^ self.log_term.rotate_left(40));
        h.word(self.commit ^ (self.entries as u64) << 40 ^ self.ent_term.rotate_left(20));
    }
}

/// A kernel message between nodes.
#[derive(Clone, Debug)]
pub enum Msg {
    /// All raft messages one store flushed to another at the end of one event (raftstore
    /// batches per connection).
    Raft(Vec<RaftMsg>),
    /// Store -> PD every `store_heartbeat`.
    StoreHeartbeat {
        /// Sender store.
        store: u32,
        /// Leaders it holds.
        leaders: u32,
        /// Peers it holds.
        peers: u32,
    },
    /// Store -> PD: region heartbeats of leaders, batched per store (`(region, term)`).
    RegionHeartbeats(Vec<(u32, u64)>),
    /// Client (TiDB, played by the PD node) -> leader store: propose one write.
    Propose {
        /// Target region.
        region: u32,
        /// The client's operation id, answered through `Cluster::take_op_events`; 0 for an
        /// untracked write.
        op: u64,
        /// The region's epoch version the client routed the request with; a region that
        /// split since answers EpochNotMatch. 0: not checked (the TiKV-only load's writes).
        version: u64,
    },
    /// PD -> leader store: transfer leadership of `region` to the peer on `to_store`.
    TransferLeader {
        /// Region.
        region: u32,
        /// Target store index.
        to_store: u32,
    },
    /// PD -> leader store: split `region` into `parts` regions.
    Split {
        /// Region.
        region: u32,
        /// Regions it becomes.
        parts: u32,
        /// The key to cut at (two parts), or `None` for an even cut.
        at: Option<u64>,
    },
    /// PD -> leader store: replace the replica in `slot` (on a Down store) by one on `store`.
    ReplacePeer {
        /// Region.
        region: u32,
        /// Replica slot to move.
        slot: u8,
        /// New store index.
        store: u32,
    },
    /// PD -> leader store: move the replica in `slot` (on a live store) to `store`.
    MovePeer {
        /// Region.
        region: u32,
        /// Replica slot to move.
        slot: u8,
        /// New store index.
        store: u32,
    },
    /// Leader store -> learner's store: the last chunk of a snapshot of `region` at `index`.
    LearnerSnapshot {
        /// Region.
        region: u32,
        /// The snapshot's index.
        index: u64,
    },
    /// PD -> leader store: promote `region`'s learner (`ChangePeerV2Enter`).
    PromoteLearner {
        /// Region.
        region: u32,
    },
    /// PD -> the source's leader store: merge `source` into `target` (`MergeRegion`).
    PrepareMerge {
        /// Region merged away.
        source: u32,
        /// Region that takes its range.
        target: u32,
        /// The target's epoch version PD saw.
        target_version: u64,
    },
}

impl TraceEncode for Msg {
    fn encode(&self, h: &mut TraceHasher) {
        match self {
            Msg::Raft(v) => {
                h.word(1);
                v.encode(h);
            }
            Msg::StoreHeartbeat {
                store,
                leaders,
                peers,
            } => {
                h.word(2);
                h.word(*store as u64);
                h.word((*leaders as u64) << 32 | *peers as u64);
            }
            Msg::RegionHeartbeats(v) => {
                h.word(3);
                h.word(v.len() as u64);
                for (r, t) in v {
                    h.word(*r as u64);
                    h.word(*t);
                }
            }
            Msg::Propose {
                region,
                op,
                version,
            } => {
                h.word(4);
                h.word(*region as u64);
                word_if_some(h, (*op != 0).then_some(*op));
                // Only a split region's version: runs without splits keep their hashes.
                if *version > crate::epoch::RegionEpoch::INIT.version {
                    h.word(*version);
                }
            }
            _ => self.encode_order(h),
        }
    }
}

impl Msg {
    /// The orders PD and leaders send to one region's peers (the rest of [`TraceEncode`]).
    fn encode_order(&self, h: &mut TraceHasher) {
        match self {
            Msg::TransferLeader { region, to_store } => {
                h.word(5);
                h.word((*region as u64) << 32 | *to_store as u64);
            }
            Msg::ReplacePeer {
                region,
                slot,
                store,
            } => {
                h.word(6);
                h.word((*region as u64) << 32 | (*slot as u64) << 24 | *store as u64);
            }
            Msg::Split { region, parts, at } => {
                h.word(8);
                h.word((*region as u64) << 32 | *parts as u64);
                word_if_some(h, *at);
            }
            Msg::MovePeer {
                region,
                slot,
                store,
            } => {
                h.word(7);
                h.word((*region as u64) << 32 | (*slot as u64) << 24 | *store as u64);
            }
            Msg::LearnerSnapshot { region, index } => {
                h.word(9);
                h.word(*region as u64);
                h.word(*index);
            }
            Msg::PromoteLearner { region } => {
                h.word(10);
                h.word(*region as u64);
            }
            Msg::PrepareMerge {
                source,
                target,
                target_version,
            } => {
                h.word(11);
                h.word((*source as u64) << 32 | *target as u64);
                h.word(*target_version);
            }
            _ => unreachable!("encoded in TraceEncode::encode"),
        }
    }
}

/// A timer payload.
#[derive(Clone, Debug)]
pub enum Timer {
    /// Store: raft base tick for every awake peer.
    RaftTick,
    /// Store: `peer_stale_state_check_interval` check over all its peers.
    StaleCheck,
    /// Store: the pollers reach a received batch from `from_store` (after the FIFO of work
    /// scheduled before it) and hand it to its peers.
    Process {
        /// Sending store index.
        from_store: u32,
        /// The batch.
        msgs: Vec<RaftMsg>,
    },
    /// Store: SIGTERM; the gRPC server shuts down first.
    Sigterm,
    /// Store: a received batch from `from_store` that waited for the router's lock reaches
    /// its mailboxes.
    Feed {
        /// Sending store index.
        from_store: u32,
        /// The batch.
        msgs: Vec<RaftMsg>,
    },
    /// Store: the pollers have handled the StoreUnreachable(`store`) a broadcast put in every
    /// local peer's mailbox.
    UnreachableHandled {
        /// The unreachable store's index.
        store: u32,
    },
    /// Store: the raft client notices its connection to `store` broke.
    ConnFailed {
        /// Target store index.
        store: u32,
    },
    /// Store: the raft client retries connecting to `store`.
    Reconnect {
        /// Target store index.
        store: u32,
    },
    /// Store: send a store heartbeat to PD.
    StoreHeartbeat,
    /// Store: send region heartbeats of awake leaders to PD.
    RegionHeartbeat,
    /// Store: the split checker measures the regions it leads whose size diff is due.
    SplitCheck,
    /// Store: a learner snapshot's transfer to `to_store` is done (its last chunk goes out).
    SnapshotSent {
        /// Region.
        region: u32,
        /// The learner's store index.
        to_store: u32,
        /// The snapshot's index.
        index: u64,
    },
    /// Store: a Merging source's merge check (`merge-check-tick-interval`).
    MergeCheck {
        /// The source region.
        source: u32,
    },
    /// PD: scheduling round (down stores, replica repair, leader balance), every second.
    PdTick,
    /// PD node (standing in for TiDB): issue the next writes of the workload.
    Load,
    /// PD node: a model-level action requested by the scenario.
    Action(TikvAction),
}

impl TraceEncode for Timer {
    fn encode(&self, h: &mut TraceHasher) {
        match self {
            Timer::RaftTick => h.word(1),
            Timer::StaleCheck => h.word(2),
            Timer::Process { from_store, msgs } => {
                h.word(3);
                h.word(*from_store as u64);
                msgs.encode(h);
            }
            Timer::ConnFailed { store } => {
                h.word(4);
                h.word(*store as u64)
            }
            Timer::Reconnect { store } => {
                h.word(5);
                h.word(*store as u64)
            }
            Timer::StoreHeartbeat => h.word(6),
            Timer::RegionHeartbeat => h.word(7),
            Timer::PdTick => h.word(8),
            Timer::Load => h.word(9),
            Timer::Action(a) => {
                h.word(10);
                a.encode(h);
            }
            Timer::SplitCheck => h.word(12),
            Timer::Sigterm => h.word(16),
            Timer::Feed { from_store, msgs } => {
                h.word(15);
                h.word(*from_store as u64);
                msgs.encode(h);
            }
            Timer::UnreachableHandled { store } => {
                h.word(14);
                h.word(*store as u64);
            }
            Timer::MergeCheck { source } => {
                h.word(13);
                h.word(*source as u64);
            }
            Timer::SnapshotSent {
                region,
                to_store,
                index,
            } => {
                h.word(11);
                h.word((*region as u64) << 32 | *to_store as u64);
                h.word(*index);
            }
        }
    }
}
