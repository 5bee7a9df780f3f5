//! The etcd session messages and timers between captures and PD, and between the owner and
//! the processors (scheduler v3's heartbeat, dispatch and report), with their trace encoding.

use faultline_sim::{SimDuration, TraceHasher};

use crate::etcd::{CaptureId, EtcdSnapshot};
use crate::ids::CfIx;
use crate::owner::scheduler::{Dispatch, TableReport, TableState};
use crate::ts::Ts;

/// Operator actions (the CLI / API of TiCDC and the cluster manager), scheduled as PD timers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OperatorAction {
    /// `cdc cli changefeed pause`.
    PauseChangefeed(CfIx),
    /// `cdc cli changefeed resume`.
    ResumeChangefeed(CfIx),
    /// Scale in: drain the capture's tables, then it leaves.
    RemoveCapture(u32),
    /// Scale out: the capture starts and joins.
    AddCapture(u32),
}

/// Session and scheduling messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionMsg {
    /// Capture -> PD: grant a lease, put the capture key, campaign for owner.
    Join {
        /// Session epoch.
        epoch: u64,
    },
    /// PD -> capture: joined.
    Joined {
        /// Session epoch.
        epoch: u64,
        /// Lease.
        lease: u64,
        /// The TTL the lease has left as PD answers: the full TTL for a new lease, less for a
        /// retried `Join` answered with the lease granted to the first one (etcd's grant and
        /// keepalive responses carry the TTL, and the client's deadline follows it).
        ttl: SimDuration,
        /// etcd state (boxed: every message waits in the event queue in a slot the size of
        /// the largest one, and these are rare).
        snap: Box<EtcdSnapshot>,
    },
    /// PD -> capture: this session's keys were deleted before its `Joined` answer arrived
    /// (etcd: "requested lease not found"); the capture starts a new session.
    JoinRefused {
        /// Session epoch.
        epoch: u64,
    },
    /// Capture -> PD: lease keepalive.
    KeepAlive {
        /// Lease.
        lease: u64,
    },
    /// PD -> capture: keepalive answer (`ok = false`: the lease is gone, TTL -1).
    KeepAliveResp {
        /// Lease.
        lease: u64,
        /// Lease still exists.
        ok: bool,
        /// etcd state (boxed: every message waits in the event queue in a slot the size of
        /// the largest one, and these are rare).
        snap: Box<EtcdSnapshot>,
    },
    /// PD -> capture: a watched key changed.
    Watch {
        /// etcd state (boxed: every message waits in the event queue in a slot the size of
        /// the largest one, and these are rare).
        snap: Box<EtcdSnapshot>,
    },
    /// Capture -> PD: revoke the lease (resign and close the session).
    Revoke {
        /// Lease.
        lease: u64,
    },
    /// PD -> capture: revoked.
    Revoked {
        /// Lease.
        lease: u64,
    },
    /// Capture -> PD: delete only the campaign key (an owner being drained resigns).
    ResignOwner {
        /// Lease.
        lease: u64,
    },
    /// Owner -> capture: heartbeat; answer with a report.
    Heartbeat {
        /// Addressee.
        to: CaptureId,
    },
    /// Owner -> capture: do something with a table.
    Dispatch {
        /// Addressee.
        to: CaptureId,
        /// Changefeed.
        cf: CfIx,
        /// Table.
        table: u32,
        /// What.
        op: Dispatch,
    },
    /// Capture -> owner: every table of the capture (the answer to a heartbeat).
    Report {
        /// Sender.
        from: CaptureId,
        /// Tables.
        tables: Vec<TableReport>,
    },
    /// Capture -> owner: the one table a dispatch named, once handled (tiflow scheduler v3
    /// `agent/table.go` answers a dispatch with a `DispatchTableResponse` for its span only;
    /// the owner's `replication_manager.go` `handleMessageDispatchTableResponse` updates that
    /// one table). `state` is `None` when the capture no longer has the table.
    DispatchResponse {
        /// Sender.
        from: CaptureId,
        /// Changefeed.
        cf: CfIx,
        /// Table.
        table: u32,
        /// Its state here now.
        state: Option<TableState>,
        /// Its checkpoint here (zero without the table).
        checkpoint: Ts,
    },
    /// Owner -> PD: the etcd worker's txn of the tick's status patches (`feed_status.rs`).
    PutStatus {
        /// The owner's session lease.
        lease: u64,
        /// The owner's txn number, to match the answer.
        seq: u64,
        /// Each changefeed's checkpoint.
        checkpoints: Vec<Ts>,
    },
    /// PD -> owner: the txn's outcome (`ok = false`: its compare failed, not the owner).
    StatusCommitted {
        /// The txn number.
        seq: u64,
        /// Committed.
        ok: bool,
    },
}

/// Session timers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionTimer {
    /// PD: the etcd lessor's expiry check.
    LessorTick,
    /// Capture: keepalive and deadline check.
    SessionTick,
    /// Capture: the owner resign call timed out; the goroutines exit.
    ResignTimeout {
        /// Session epoch that ended.
        epoch: u64,
    },
    /// PD: an operator action.
    Action(OperatorAction),
}

impl SessionMsg {
    /// A short label.
    pub fn label(&self) -> String {
        match self {
            SessionMsg::Join { epoch } => {
                format!("etcd: grant lease, register capture (epoch {epoch})")
            }
            SessionMsg::Joined { lease, .. } => format!("etcd: lease {lease} granted"),
            SessionMsg::JoinRefused { epoch } => {
                format!("etcd: requested lease not found (epoch {epoch})")
            }
            SessionMsg::KeepAlive { lease } => format!("etcd: keepalive lease {lease}"),
            SessionMsg::KeepAliveResp { lease, ok, .. } => {
                format!(
                    "etcd: keepalive lease {lease} {}",
                    if *ok { "ok" } else { "TTL -1" }
                )
            }
            SessionMsg::Watch { snap } => format!("etcd watch: revision {}", snap.revision),
            SessionMsg::Revoke { lease } => format!("etcd: revoke lease {lease}"),
            SessionMsg::Revoked { lease } => format!("etcd: lease {lease} revoked"),
            SessionMsg::ResignOwner { .. } => "etcd: resign owner".to_string(),
            SessionMsg::Heartbeat { .. } => "schedulerv3 heartbeat".to_string(),
            SessionMsg::Dispatch { table, op, .. } => format!("schedulerv3 {op:?} table {table}"),
            SessionMsg::DispatchResponse { table, state, .. } => match state {
                Some(s) => format!("schedulerv3 table {table} is {s:?}"),
                None => format!("schedulerv3 table {table} is absent"),
            },
            SessionMsg::Report { tables, .. } => {
                format!("schedulerv3 report {} tables", tables.len())
            }
            SessionMsg::PutStatus { seq, .. } => format!("etcd: txn {seq}, changefeed status"),
            SessionMsg::StatusCommitted { seq, ok } => {
                format!(
                    "etcd: txn {seq} {}",
                    if *ok { "committed" } else { "compare failed" }
                )
            }
        }
    }

    /// Folds into a trace hash.
    // Long because it matches every message, one short arm each: read whole, the variant
    // tags (1-15) are easy to check for uniqueness.
    #[allow(clippy::too_many_lines)]
    pub fn encode(&self, h: &mut TraceHasher) {
        let id = |h: &mut TraceHasher, c: &CaptureId| {
            h.word(c.0 as u64);
            h.word(c.1)
        };
        match self {
            SessionMsg::Join { epoch } => {
                h.word(1);
                h.word(*epoch)
            }
            // `ttl` is not hashed: it follows from the lease's expiry, and a different one shows
            // in the hash as a session that ends at a different time.
            SessionMsg::Joined {
                epoch, lease, snap, ..
            } => {
                h.word(2);
                h.word(*epoch);
                h.word(*lease);
                snap.encode(h)
            }
            SessionMsg::KeepAlive { lease } => {
                h.word(3);
                h.word(*lease)
            }
            SessionMsg::KeepAliveResp { lease, ok, snap } => {
                h.word(4);
                h.word(*lease);
                h.word(*ok as u64);
                snap.encode(h)
            }
            SessionMsg::Watch { snap } => {
                h.word(5);
                snap.encode(h)
            }
            SessionMsg::Revoke { lease } => {
                h.word(6);
                h.word(*lease)
            }
            SessionMsg::Revoked { lease } => {
                h.word(7);
                h.word(*lease)
            }
            SessionMsg::ResignOwner { lease } => {
                h.word(8);
                h.word(*lease)
            }
            SessionMsg::Heartbeat { to } => {
                h.word(9);
                id(h, to)
            }
            SessionMsg::Dispatch { to, cf, table, op } => {
                h.word(10);
                id(h, to);
                h.word(*cf as u64);
                h.word(*table as u64);
                op.encode(h)
            }
            SessionMsg::Report { from, tables } => {
                h.word(11);
                id(h, from);
                h.word(tables.len() as u64);
                tables.iter().for_each(|t| t.encode(h));
            }
            SessionMsg::JoinRefused { epoch } => {
                h.word(12);
                h.word(*epoch)
            }
            SessionMsg::DispatchResponse {
                from,
                cf,
                table,
                state,
                checkpoint,
            } => {
                h.word(13);
                id(h, from);
                h.word(*cf as u64);
                h.word(*table as u64);
                h.word(state.map_or(u64::MAX, |s| s as u64));
                h.word(checkpoint.0);
            }
            SessionMsg::PutStatus {
                lease,
                seq,
                checkpoints,
            } => {
                h.word(14);
                h.word(*lease);
                h.word(*seq);
                h.word(checkpoints.len() as u64);
                checkpoints.iter().for_each(|t| h.word(t.0));
            }
            SessionMsg::StatusCommitted { seq, ok } => {
                h.word(15);
                h.word(*seq);
                h.word(*ok as u64)
            }
        }
    }
}

impl SessionTimer {
    /// Folds into a trace hash.
    pub fn encode(&self, h: &mut TraceHasher) {
        match self {
            SessionTimer::LessorTick => h.word(1),
            SessionTimer::SessionTick => h.word(2),
            SessionTimer::ResignTimeout { epoch } => {
                h.word(3);
                h.word(*epoch)
            }
            SessionTimer::Action(a) => {
                h.word(4);
                match a {
                    OperatorAction::PauseChangefeed(cf) => (1, *cf as u64),
                    OperatorAction::ResumeChangefeed(cf) => (2, *cf as u64),
                    OperatorAction::RemoveCapture(c) => (3, *c as u64),
                    OperatorAction::AddCapture(c) => (4, *c as u64),
                }
                .encode_pair(h)
            }
        }
    }
}

trait EncodePair {
    fn encode_pair(self, h: &mut TraceHasher);
}

impl EncodePair for (u64, u64) {
    fn encode_pair(self, h: &mut TraceHasher) {
        h.word(self.0);
        h.word(self.1);
    }
}
