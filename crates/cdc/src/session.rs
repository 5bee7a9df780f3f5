//! Capture sessions, owner election and scheduling, wired into the TiCDC model.
//!
//! Each capture holds an etcd session (a lease kept alive every TTL/3) with its capture key and
//! an owner campaign key. PD's lessor revokes a lease it has not heard about for a TTL; the
//! owner is the first live campaigner. The owner runs scheduler v3 ([`crate::scheduler`]) over
//! the captures it sees in etcd; processors run the tables the owner dispatches to them.
//!
//! tiflow#9344 comes out of the timing here: when a capture's session ends, `deferred`
//! processors keep pulling and writing until the capture's goroutines exit (the owner resign
//! call waits for its timeout while etcd is unreachable), while an owner with a remove delay of
//! 0 re-adds the capture's tables elsewhere at once. Both copies write the table; MySQL applies
//! whatever arrives last.

use faultline_sim::{Kernel, Level, NodeId, NodeState, SimDuration, SimTime, TraceHasher};

use crate::cdc::Cdc;
use crate::etcd::{CaptureId, EtcdSnapshot, ProcessorClose};
use crate::msg::{CdcMsg, CdcTimer, CfIx};
use crate::processor::{Processor, TableSink};
use crate::scheduler::{Dispatch, ReplicationSet, RsState, TableReport, TableState};
use crate::stack::Stack;

/// A capture's view of its own session.
#[derive(Clone, Debug, Default)]
pub struct CaptureSession {
    /// Part of the cluster (false before a scale-out, after a scale-in).
    pub joined: bool,
    /// Current session epoch (the capture ID); bumped for every new session.
    pub epoch: u64,
    /// The granted lease while the session is alive.
    pub lease: Option<u64>,
    /// Client-side keepalive deadline: last keepalive response + TTL.
    pub deadline: SimTime,
    /// Next keepalive due.
    pub next_keepalive: SimTime,
    /// Latest etcd state seen by the watch.
    pub view: EtcdSnapshot,
    /// Session done, processors still open (deferred close): the epoch they belong to.
    pub closing: Option<u64>,
    /// Processor-side table states: (changefeed, table) -> state.
    pub tables: std::collections::BTreeMap<(CfIx, u32), TableState>,
    /// Owner campaign key resigned (draining owner).
    pub resigned_owner: bool,
    /// "campaign owner successfully" was logged for the current owner term. Kept apart from
    /// the view: a watch event can show this capture as owner before its `Joined` answer makes
    /// the session alive, and the term then starts only when the answer arrives.
    pub announced_owner: bool,
    /// The process was killed and has not restarted yet.
    pub crashed: bool,
}

impl CaptureSession {
    /// True while the session is alive.
    pub fn alive(&self) -> bool {
        self.lease.is_some()
    }

    /// This capture's id in etcd.
    pub fn id(&self, c: u32) -> CaptureId {
        (c, self.epoch)
    }
}

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
        /// etcd state.
        snap: EtcdSnapshot,
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
        /// etcd state.
        snap: EtcdSnapshot,
    },
    /// PD -> capture: a watched key changed.
    Watch {
        /// etcd state.
        snap: EtcdSnapshot,
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
    /// Capture -> owner: every table of the capture.
    Report {
        /// Sender.
        from: CaptureId,
        /// Tables.
        tables: Vec<TableReport>,
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
            SessionMsg::Report { tables, .. } => {
                format!("schedulerv3 report {} tables", tables.len())
            }
        }
    }

    /// Folds into a trace hash.
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
            SessionMsg::Joined { epoch, lease, snap } => {
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

fn msg(m: SessionMsg) -> CdcMsg {
    CdcMsg::Session(m)
}

fn timer(t: SessionTimer) -> CdcTimer {
    CdcTimer::Session(t)
}

impl Cdc {
    /// Arms PD's lessor and starts the session of every capture that begins joined.
    pub(crate) fn sessions_init(&mut self, k: &mut Kernel<Stack>) {
        let s = &self.cfg.session;
        k.set_timer(
            self.pd,
            s.lessor_check_interval,
            timer(SessionTimer::LessorTick),
        );
        for c in 0..self.captures.len() as u32 {
            self.sessions[c as usize].joined = !s.initially_absent.contains(&c);
        }
    }

    /// A capture process (re)starts: arms its session tick and, if it is part of the cluster,
    /// opens a new session.
    pub(crate) fn session_start(&mut self, k: &mut Kernel<Stack>, c: u32) {
        let node = self.captures[c as usize];
        let every = self.cfg.session.session_check_interval;
        k.set_timer(node, every, timer(SessionTimer::SessionTick));
        if self.sessions[c as usize].joined {
            self.session_begin(k, c);
        }
    }

    fn session_begin(&mut self, k: &mut Kernel<Stack>, c: u32) {
        let s = &mut self.sessions[c as usize];
        s.epoch += 1;
        s.lease = None;
        s.closing = None;
        s.resigned_owner = false;
        s.announced_owner = false;
        let epoch = s.epoch;
        k.send(
            self.captures[c as usize],
            self.pd,
            msg(SessionMsg::Join { epoch }),
        );
    }

    /// PD (and the etcd inside it) restarted after a kill: its timers were dropped with the
    /// process, so the lessor's expiry check is armed again, and the lessor refreshes every
    /// lease it restored. Without the check, a lease whose holder's session ended while PD was
    /// down would never expire: its owner key would outlive the capture, the capture's new
    /// session could never become owner, and nobody would schedule the tables again.
    pub(crate) fn etcd_restarted(&mut self, k: &mut Kernel<Stack>) {
        self.etcd.promote(k.now(), self.cfg.session.ttl);
        k.set_timer(
            self.pd,
            self.cfg.session.lessor_check_interval,
            timer(SessionTimer::LessorTick),
        );
    }

    /// The capture process died: the session's client side is gone with it.
    pub(crate) fn session_crashed(&mut self, c: u32) {
        let s = &mut self.sessions[c as usize];
        s.lease = None;
        s.closing = None;
        s.tables.clear();
        s.crashed = true;
        self.transport_capture_reset(c);
    }

    /// True when capture `c` holds the owner role now (its session is alive and etcd says it
    /// holds the owner key).
    pub fn is_owner(&self, c: u32) -> bool {
        let s = &self.sessions[c as usize];
        s.alive() && s.view.owner == Some(s.id(c))
    }

    /// The 0-based index of the current owner, as etcd has it.
    pub fn owner_capture(&self) -> Option<u32> {
        self.etcd.owner().map(|(c, _)| c)
    }

    /// Where capture `c` sends owner-bound messages: the owner it knows (itself if none).
    pub(crate) fn owner_node_for(&self, c: u32) -> NodeId {
        let s = &self.sessions[c as usize];
        let owner = s.view.owner.map_or(c, |(o, _)| o);
        self.captures[owner as usize]
    }

    /// Handles a session message.
    pub(crate) fn on_session_msg(
        &mut self,
        k: &mut Kernel<Stack>,
        from: NodeId,
        to: NodeId,
        m: SessionMsg,
    ) {
        if to == self.pd {
            return self.pd_on_msg(k, from, m);
        }
        let Some(c) = self.capture_index(to) else {
            return;
        };
        match m {
            SessionMsg::Joined { epoch, lease, snap } => {
                let s = &mut self.sessions[c as usize];
                if epoch != s.epoch || s.alive() || !s.joined || s.closing.is_some() {
                    return;
                }
                let ttl = self.cfg.session.ttl;
                s.lease = Some(lease);
                s.deadline = k.now().plus(ttl);
                s.next_keepalive = k.now().plus(SimDuration(ttl.0 / 3));
                let detail = format!("captureID=cdc-{}#{epoch} lease={lease}", c + 1);
                k.log(Some(to), Level::Info, "capture registered", detail);
                self.session_view(k, c, snap);
            }
            SessionMsg::JoinRefused { epoch } => {
                let s = &self.sessions[c as usize];
                if epoch != s.epoch || s.alive() || !s.joined || s.closing.is_some() {
                    return;
                }
                let detail = format!("captureID=cdc-{}#{epoch}", c + 1);
                k.log(
                    Some(to),
                    Level::Warn,
                    "register capture failed, lease not found",
                    detail,
                );
                self.session_begin(k, c);
            }
            SessionMsg::KeepAliveResp { lease, ok, snap } => {
                if self.sessions[c as usize].lease != Some(lease) {
                    return;
                }
                if ok {
                    let ttl = self.cfg.session.ttl;
                    self.sessions[c as usize].deadline = k.now().plus(ttl);
                    self.session_view(k, c, snap);
                } else {
                    self.session_done(k, c, "lease not found (TTL -1)");
                }
            }
            SessionMsg::Watch { snap } => {
                // A watch event may overtake the Joined answer; the watch itself is open.
                let s = &self.sessions[c as usize];
                if s.joined && s.closing.is_none() {
                    self.session_view(k, c, snap);
                }
            }
            SessionMsg::Revoked { .. } => {
                if let Some(epoch) = self.sessions[c as usize].closing {
                    self.session_close(k, c, epoch);
                }
            }
            SessionMsg::Heartbeat { to: id } => {
                let s = &self.sessions[c as usize];
                if s.alive() && s.id(c) == id {
                    self.send_report(k, c, from);
                }
            }
            SessionMsg::Dispatch {
                to: id,
                cf,
                table,
                op,
            } => {
                let s = &self.sessions[c as usize];
                if s.alive() && s.id(c) == id {
                    self.on_dispatch(k, c, cf, table, op);
                    self.send_report(k, c, from);
                }
            }
            SessionMsg::Report { from: id, tables } => self.owner_on_report(k, c, id, tables),
            _ => {}
        }
    }

    fn pd_on_msg(&mut self, k: &mut Kernel<Stack>, from: NodeId, m: SessionMsg) {
        let Some(c) = self.capture_index(from) else {
            return;
        };
        let ttl = self.cfg.session.ttl;
        let now = k.now();
        match m {
            SessionMsg::Join { epoch } => {
                let Some(lease) = self.etcd.register((c, epoch), now, ttl) else {
                    k.send(self.pd, from, msg(SessionMsg::JoinRefused { epoch }));
                    return;
                };
                let snap = self.etcd.snapshot();
                k.send(
                    self.pd,
                    from,
                    msg(SessionMsg::Joined { epoch, lease, snap }),
                );
                self.etcd_notify(k);
            }
            SessionMsg::KeepAlive { lease } => {
                let ok = self.etcd.keepalive(lease, now, ttl);
                let snap = self.etcd.snapshot();
                k.send(
                    self.pd,
                    from,
                    msg(SessionMsg::KeepAliveResp { lease, ok, snap }),
                );
            }
            SessionMsg::Revoke { lease } => {
                self.etcd.revoke(lease);
                k.send(self.pd, from, msg(SessionMsg::Revoked { lease }));
                self.etcd_notify(k);
            }
            SessionMsg::ResignOwner { lease } => {
                self.etcd.resign(lease);
                self.etcd_notify(k);
            }
            _ => {}
        }
    }

    /// Sends the current etcd state to every watcher (a capture with a live key).
    fn etcd_notify(&mut self, k: &mut Kernel<Stack>) {
        let snap = self.etcd.snapshot();
        for (c, _) in self.etcd.watchers() {
            let node = self.captures[c as usize];
            k.send(self.pd, node, msg(SessionMsg::Watch { snap: snap.clone() }));
        }
    }

    fn session_view(&mut self, k: &mut Kernel<Stack>, c: u32, snap: EtcdSnapshot) {
        let s = &mut self.sessions[c as usize];
        if snap.revision < s.view.revision {
            return;
        }
        s.view = snap;
        let now_owner = self.is_owner(c);
        let announced =
            std::mem::replace(&mut self.sessions[c as usize].announced_owner, now_owner);
        if now_owner && !announced {
            let detail = format!(
                "captureID=cdc-{}#{}",
                c + 1,
                self.sessions[c as usize].epoch
            );
            k.log(
                Some(self.captures[c as usize]),
                Level::Info,
                "campaign owner successfully",
                detail,
            );
        }
        self.maybe_leave(k, c);
    }

    /// Handles a session timer.
    pub(crate) fn on_session_timer(
        &mut self,
        k: &mut Kernel<Stack>,
        node: NodeId,
        t: SessionTimer,
    ) {
        match t {
            SessionTimer::LessorTick => {
                let expired = self.etcd.expire(k.now());
                for (c, e) in &expired {
                    let detail = format!("captureID=cdc-{}#{e}", c + 1);
                    k.log(
                        Some(self.pd),
                        Level::Info,
                        "etcd lease expired, capture key deleted",
                        detail,
                    );
                }
                if !expired.is_empty() {
                    self.etcd_notify(k);
                }
                k.set_timer(
                    node,
                    self.cfg.session.lessor_check_interval,
                    timer(SessionTimer::LessorTick),
                );
            }
            SessionTimer::SessionTick => {
                let Some(c) = self.capture_index(node) else {
                    return;
                };
                self.session_tick(k, c);
                k.set_timer(
                    node,
                    self.cfg.session.session_check_interval,
                    timer(SessionTimer::SessionTick),
                );
            }
            SessionTimer::ResignTimeout { epoch } => {
                let Some(c) = self.capture_index(node) else {
                    return;
                };
                if self.sessions[c as usize].closing == Some(epoch) {
                    self.session_close(k, c, epoch);
                }
            }
            SessionTimer::Action(a) => self.operator_action(k, a),
        }
    }

    fn session_tick(&mut self, k: &mut Kernel<Stack>, c: u32) {
        let now = k.now();
        let node = self.captures[c as usize];
        let ttl = self.cfg.session.ttl;
        let s = &mut self.sessions[c as usize];
        if !s.joined || s.closing.is_some() {
            return;
        }
        match s.lease {
            None => {
                // The Join (or its answer) was lost: ask again.
                let epoch = s.epoch;
                k.send(node, self.pd, msg(SessionMsg::Join { epoch }));
            }
            Some(lease) => {
                if now >= s.deadline {
                    self.session_done(k, c, "keepalive deadline passed");
                    return;
                }
                if now >= s.next_keepalive {
                    s.next_keepalive = now.plus(SimDuration(ttl.0 / 3));
                    k.send(node, self.pd, msg(SessionMsg::KeepAlive { lease }));
                }
            }
        }
    }

    /// The session ended (client side): the capture stops being owner and, depending on the
    /// tiflow#9344 toggle, closes its processors now or once its goroutines exit.
    fn session_done(&mut self, k: &mut Kernel<Stack>, c: u32, why: &str) {
        let node = self.captures[c as usize];
        let was_owner = self.is_owner(c);
        let s = &mut self.sessions[c as usize];
        let Some(lease) = s.lease.take() else {
            return;
        };
        let epoch = s.epoch;
        let detail = format!(
            "captureID=cdc-{}#{epoch} reason={why} owner={was_owner}",
            c + 1
        );
        k.log(
            Some(node),
            Level::Warn,
            "capture session done, capture suicide itself",
            detail,
        );
        // Resign: revoke the lease so the keys go at once (lost while etcd is unreachable).
        k.send(node, self.pd, msg(SessionMsg::Revoke { lease }));
        match self.cfg.session.processor_close {
            ProcessorClose::Immediate => self.session_close(k, c, epoch),
            ProcessorClose::Deferred => {
                s.closing = Some(epoch);
                let wait = self.cfg.session.owner_resign_timeout;
                k.set_timer(node, wait, timer(SessionTimer::ResignTimeout { epoch }));
            }
        }
    }

    /// Every goroutine of the old session exited: close its processors and, if the capture is
    /// still part of the cluster, start a new session (a new capture ID).
    fn session_close(&mut self, k: &mut Kernel<Stack>, c: u32, epoch: u64) {
        let node = self.captures[c as usize];
        let open = self.sessions[c as usize].tables.len();
        self.close_processors(c);
        let detail = format!("captureID=cdc-{}#{epoch} tables={open}", c + 1);
        k.log(Some(node), Level::Info, "processors closed", detail);
        self.sessions[c as usize].closing = None;
        if self.sessions[c as usize].joined {
            self.session_begin(k, c);
        }
    }

    fn close_processors(&mut self, c: u32) {
        self.rollback_parked(c);
        self.transport_capture_reset(c);
        // Ids go on from the closed clients': a fresh client starting at 1 again would collide
        // with the subscriptions the stores still hold from the closed session, and its
        // regions would never initialise (the tables stayed in Prepare forever).
        self.close_mysql_connections(c);
        for p in &mut self.processors[c as usize] {
            let next_batch = p.next_batch;
            *p = Processor::new(p.kv.successor());
            p.next_batch = next_batch;
        }
        self.sessions[c as usize].tables.clear();
    }

    /// A drained capture leaves once it holds no tables (or no other capture can take them).
    fn maybe_leave(&mut self, k: &mut Kernel<Stack>, c: u32) {
        let s = &self.sessions[c as usize];
        let Some(lease) = s.lease else { return };
        if !s.view.draining.contains(&c) {
            return;
        }
        let node = self.captures[c as usize];
        if self.is_owner(c) && !s.resigned_owner {
            self.sessions[c as usize].resigned_owner = true;
            k.send(node, self.pd, msg(SessionMsg::ResignOwner { lease }));
            return;
        }
        let s = &self.sessions[c as usize];
        let others = s
            .view
            .captures
            .iter()
            .any(|(o, _)| *o != c && !s.view.draining.contains(o));
        if !s.tables.is_empty() && others {
            return;
        }
        let detail = format!("captureID=cdc-{}#{}", c + 1, s.epoch);
        k.log(
            Some(node),
            Level::Info,
            "capture drained, exiting (scale-in)",
            detail,
        );
        let s = &mut self.sessions[c as usize];
        s.joined = false;
        s.lease = None;
        k.send(node, self.pd, msg(SessionMsg::Revoke { lease }));
        self.close_processors(c);
    }

    fn operator_action(&mut self, k: &mut Kernel<Stack>, a: OperatorAction) {
        match a {
            OperatorAction::PauseChangefeed(cf) | OperatorAction::ResumeChangefeed(cf) => {
                let pause = matches!(a, OperatorAction::PauseChangefeed(_));
                if let Some(p) = self.paused.get_mut(cf as usize) {
                    *p = pause;
                }
                let what = if pause {
                    "changefeed paused"
                } else {
                    "changefeed resumed"
                };
                let detail = format!("changefeed={}", self.cf_id(cf));
                k.log(Some(self.pd), Level::Info, what, detail);
                self.etcd.revision += 1;
                self.etcd_notify(k);
            }
            OperatorAction::RemoveCapture(c) => {
                self.etcd.draining.insert(c);
                self.etcd.revision += 1;
                let detail = format!("capture=cdc-{}", c + 1);
                k.log(
                    Some(self.pd),
                    Level::Info,
                    "drain capture (scale-in)",
                    detail,
                );
                self.etcd_notify(k);
            }
            OperatorAction::AddCapture(c) => {
                self.etcd.draining.remove(&c);
                let s = &mut self.sessions[c as usize];
                let detail = format!("capture=cdc-{}", c + 1);
                k.log(
                    Some(self.pd),
                    Level::Info,
                    "add capture (scale-out)",
                    detail,
                );
                if !s.joined {
                    s.joined = true;
                    let up = k.net.node(self.captures[c as usize]).state == NodeState::Up;
                    if up && s.lease.is_none() && s.closing.is_none() {
                        self.session_begin(k, c);
                    }
                }
                self.etcd.revision += 1;
                self.etcd_notify(k);
            }
        }
    }

    // ---- processor side -------------------------------------------------------------------

    /// True when capture `c` may write `table` downstream (it is the table's primary here).
    pub(crate) fn may_write(&self, c: u32, cf: CfIx, table: u32) -> bool {
        self.sessions[c as usize].tables.get(&(cf, table)) == Some(&TableState::Replicating)
    }

    fn on_dispatch(&mut self, k: &mut Kernel<Stack>, c: u32, cf: CfIx, table: u32, op: Dispatch) {
        let state = self.sessions[c as usize].tables.get(&(cf, table)).copied();
        match (op, state) {
            (Dispatch::AddSecondary { checkpoint }, None) => {
                let mut out = Vec::new();
                let p = &mut self.processors[c as usize][cf as usize];
                p.tables.insert(table, TableSink::new(checkpoint));
                let (a, b) = self.ks.table_regions(table);
                for region in a..=b {
                    // A region shared with a table already here may be ahead of this table's
                    // checkpoint: subscribe again from the checkpoint so nothing is missed.
                    let ahead =
                        p.kv.regions()
                            .get(&region)
                            .is_none_or(|t| t.resolved > checkpoint);
                    if ahead {
                        p.kv.track(region, checkpoint, &mut out);
                    }
                }
                self.sessions[c as usize]
                    .tables
                    .insert((cf, table), TableState::Preparing);
                self.apply_kv(k, c, cf, out);
            }
            (Dispatch::Promote, Some(TableState::Prepared | TableState::Preparing)) => {
                self.sessions[c as usize]
                    .tables
                    .insert((cf, table), TableState::Replicating);
            }
            (
                Dispatch::Remove,
                Some(TableState::Preparing | TableState::Prepared | TableState::Replicating),
            ) => {
                self.sessions[c as usize]
                    .tables
                    .insert((cf, table), TableState::Stopping);
                self.processor_table_progress(c);
            }
            _ => {}
        }
    }

    /// Per processor tick: secondaries whose puller caught up become `Prepared`; stopping
    /// tables whose last write was acknowledged go away.
    pub(crate) fn processor_table_progress(&mut self, c: u32) {
        let entries: Vec<((CfIx, u32), TableState)> = self.sessions[c as usize]
            .tables
            .iter()
            .map(|(k, v)| (*k, *v))
            .collect();
        for ((cf, table), state) in entries {
            let p = &self.processors[c as usize][cf as usize];
            let Some(sink) = p.tables.get(&table) else {
                // The processor dropped it (changefeed stopped): forget the state too.
                self.sessions[c as usize].tables.remove(&(cf, table));
                continue;
            };
            match state {
                TableState::Preparing => {
                    let (a, b) = self.ks.table_regions(table);
                    let ready =
                        (a..=b).all(|r| p.kv.regions().get(&r).is_some_and(|t| t.initialized));
                    if ready {
                        self.sessions[c as usize]
                            .tables
                            .insert((cf, table), TableState::Prepared);
                    }
                }
                TableState::Stopping if sink.in_flight.is_none() => {
                    self.remove_table(c, cf, table);
                }
                _ => {}
            }
        }
    }

    fn remove_table(&mut self, c: u32, cf: CfIx, table: u32) {
        self.sessions[c as usize].tables.remove(&(cf, table));
        let p = &mut self.processors[c as usize][cf as usize];
        p.tables.remove(&table);
        let (a, b) = self.ks.table_regions(table);
        for region in a..=b {
            let shared = p.tables.keys().any(|t| {
                let (x, y) = self.ks.table_regions(*t);
                (x..=y).contains(&region)
            });
            if !shared {
                p.kv.untrack(region);
            }
        }
    }

    fn send_report(&mut self, k: &mut Kernel<Stack>, c: u32, owner: NodeId) {
        self.processor_table_progress(c);
        let s = &self.sessions[c as usize];
        let tables = s
            .tables
            .iter()
            .map(|((cf, table), state)| TableReport {
                cf: *cf,
                table: *table,
                state: *state,
                checkpoint: self.processors[c as usize][*cf as usize]
                    .tables
                    .get(table)
                    .map_or(crate::ts::Ts::ZERO, |t| t.checkpoint),
            })
            .collect();
        let from = s.id(c);
        k.send_ordered(
            self.captures[c as usize],
            owner,
            msg(SessionMsg::Report { from, tables }),
        );
    }

    // ---- owner side -----------------------------------------------------------------------

    /// The scheduler part of an owner tick on capture node `node`. Returns true when this
    /// capture is the owner (the caller then runs the changefeed watermarks).
    pub(crate) fn owner_role_tick(&mut self, k: &mut Kernel<Stack>, node: NodeId) -> bool {
        let Some(c) = self.capture_index(node) else {
            return false;
        };
        if !self.is_owner(c) {
            return false;
        }
        let me = self.sessions[c as usize].id(c);
        if self.sched.owner != Some(me) {
            self.sched = crate::scheduler::Scheduler {
                owner: Some(me),
                tables: vec![Default::default(); self.cfg.changefeeds.len()],
                last_balance: k.now(),
                ..Default::default()
            };
            // Table watermarks are owner memory: the new owner hears them again.
            for f in &mut self.feeds {
                f.tables.clear();
            }
        }
        self.sched_sync_captures(k, c);
        self.sched.ticks += 1;
        let heartbeat = self.sched.ticks % self.cfg.session.heartbeat_ticks.max(1) as u64 == 1
            || self.cfg.session.heartbeat_ticks <= 1;
        if heartbeat {
            for (id, gone) in self.sched.captures.clone() {
                if gone.is_none() {
                    k.send_ordered(
                        node,
                        self.captures[id.0 as usize],
                        msg(SessionMsg::Heartbeat { to: id }),
                    );
                }
            }
        }
        if self.sched.initialized() {
            self.sched_plan(k, c);
            if heartbeat {
                self.sched_dispatch(k, node);
            }
        }
        true
    }

    /// True when the owner may advance `cf`'s watermarks: every table replicates and reported.
    pub(crate) fn owner_may_advance(&self, cf: usize) -> bool {
        let Some(sets) = self.sched.tables.get(cf) else {
            return false;
        };
        self.sched.initialized()
            && !self.paused.get(cf).copied().unwrap_or(false)
            && self.cf_tables(cf as CfIx).all(|t| {
                sets.get(&t).is_some_and(|rs| rs.primary.is_some())
                    && self.feeds[cf].tables.contains_key(&t)
            })
    }

    /// Accepts a processor's table watermarks only from the table's primary.
    pub(crate) fn status_from_primary(
        &mut self,
        from: NodeId,
        cf: CfIx,
        table: u32,
        cp: crate::ts::Ts,
    ) -> bool {
        let Some(c) = self.capture_index(from) else {
            return false;
        };
        let id = self.sessions[c as usize].id(c);
        let ok = self.sessions[c as usize].alive() && self.sched.primary(cf, table) == Some(id);
        if ok {
            if let Some(rs) = self.sched.tables[cf as usize].get_mut(&table) {
                rs.checkpoint = rs.checkpoint.max(cp);
            }
        }
        ok
    }

    fn sched_sync_captures(&mut self, k: &mut Kernel<Stack>, c: u32) {
        let now = k.now();
        let node = self.captures[c as usize];
        let view = self.sessions[c as usize].view.captures.clone();
        for id in &view {
            self.sched.captures.entry(*id).or_insert(None);
        }
        let delay = self.cfg.session.capture_remove_delay;
        let known: Vec<(CaptureId, Option<SimTime>)> =
            self.sched.captures.iter().map(|(a, b)| (*a, *b)).collect();
        for (id, gone) in known {
            if view.contains(&id) {
                continue;
            }
            let since = match gone {
                Some(t) => t,
                None => {
                    self.sched.captures.insert(id, Some(now));
                    now
                }
            };
            if now.since(since) >= delay {
                self.sched.captures.remove(&id);
                self.sched.answered.remove(&id);
                let mut moved = 0;
                for sets in &mut self.sched.tables {
                    for rs in sets.values_mut() {
                        if rs.primary == Some(id) || rs.secondary == Some(id) {
                            moved += 1;
                            rs.on_capture_removed(id);
                        }
                    }
                }
                let detail = format!(
                    "captureID=cdc-{}#{} tables={moved} delay={delay}",
                    id.0 + 1,
                    id.1
                );
                k.log(Some(node), Level::Warn, "remove capture", detail);
            }
        }
    }

    fn owner_on_report(
        &mut self,
        k: &mut Kernel<Stack>,
        c: u32,
        from: CaptureId,
        tables: Vec<TableReport>,
    ) {
        if !self.is_owner(c) || self.sched.owner != Some(self.sessions[c as usize].id(c)) {
            return;
        }
        if self.sched.captures.get(&from) != Some(&None) {
            return; // unknown or vanished capture: its word no longer counts
        }
        let first = !self.sched.answered.get(&from).copied().unwrap_or(false);
        self.sched.answered.insert(from, true);
        let node = self.captures[c as usize];
        for cf in 0..self.sched.tables.len() {
            let mine: Vec<&TableReport> = tables.iter().filter(|t| t.cf as usize == cf).collect();
            if first {
                // A new owner rebuilds its sets from what the captures run.
                for t in &mine {
                    let rs = self.sched.tables[cf]
                        .entry(t.table)
                        .or_insert(ReplicationSet::absent(t.checkpoint));
                    match t.state {
                        TableState::Replicating if rs.primary.is_none() => {
                            rs.primary = Some(from);
                            rs.checkpoint = rs.checkpoint.max(t.checkpoint);
                            if rs.state == RsState::Absent {
                                rs.state = RsState::Replicating;
                            }
                        }
                        TableState::Preparing | TableState::Prepared if rs.secondary.is_none() => {
                            rs.secondary = Some(from);
                            if rs.state == RsState::Absent {
                                rs.state = RsState::Prepare;
                            }
                        }
                        _ => {}
                    }
                }
            }
            let sets: Vec<u32> = self.sched.tables[cf].keys().copied().collect();
            for table in sets {
                let report = mine.iter().find(|t| t.table == table);
                let rs = self.sched.tables[cf].get_mut(&table).expect("listed");
                if rs.primary != Some(from) && rs.secondary != Some(from) {
                    continue;
                }
                let before = (rs.primary, rs.state);
                rs.on_report(
                    from,
                    report.map(|t| t.state),
                    report.map_or(crate::ts::Ts::ZERO, |t| t.checkpoint),
                );
                let after = (rs.primary, rs.state);
                if before != after && after.1 == RsState::Replicating {
                    let detail = format!(
                        "changefeed={} table={table} capture=cdc-{}",
                        self.cfg.changefeeds[cf].id,
                        after.0.map_or(0, |p| p.0 + 1)
                    );
                    k.log(Some(node), Level::Info, "table moved", detail);
                }
            }
        }
    }

    /// Decides adds, moves and removals (owner memory only; dispatches go out separately).
    fn sched_plan(&mut self, k: &mut Kernel<Stack>, c: u32) {
        let now = k.now();
        let draining = self.sessions[c as usize].view.draining.clone();
        for cf in 0..self.cfg.changefeeds.len() {
            let paused = self.paused.get(cf).copied().unwrap_or(false);
            let from = self.feeds[cf].checkpoint.max(self.start_ts);
            for table in self.cf_tables(cf as CfIx) {
                self.sched.tables[cf]
                    .entry(table)
                    .or_insert(ReplicationSet::absent(from));
            }
            let tables: Vec<u32> = self.sched.tables[cf].keys().copied().collect();
            for table in tables {
                let target = self.sched.pick(&draining);
                let rs = self.sched.tables[cf].get_mut(&table).expect("listed");
                if paused {
                    if rs.primary.is_some() && rs.state != RsState::Removing {
                        rs.state = RsState::Removing;
                        rs.secondary = None;
                    } else if rs.primary.is_none() {
                        *rs = ReplicationSet::absent(rs.checkpoint.max(from));
                    }
                    continue;
                }
                if rs.state == RsState::Absent {
                    if let Some(t) = target {
                        rs.secondary = Some(t);
                        rs.state = RsState::Prepare;
                    }
                }
            }
        }
        // Drain and balance: two-phase moves, at most `max_task_concurrency` at once.
        let limit = self.cfg.session.max_task_concurrency as usize;
        let balance_due = now.since(self.sched.last_balance) >= self.cfg.session.balance_interval;
        if balance_due {
            self.sched.last_balance = now;
        }
        loop {
            if self.sched.moves_in_flight() >= limit {
                break;
            }
            let candidates = self.sched.candidates(&draining);
            let Some(to) = self.sched.pick(&draining) else {
                break;
            };
            // A table on a draining capture first; else, if balancing is due, from the most
            // loaded capture when it has at least two more tables than the least loaded.
            let mut pick: Option<(usize, u32)> = None;
            'find: for (cf, sets) in self.sched.tables.iter().enumerate() {
                for (t, rs) in sets {
                    if rs.state == RsState::Replicating
                        && rs.primary.is_some_and(|p| draining.contains(&p.0))
                    {
                        pick = Some((cf, *t));
                        break 'find;
                    }
                }
            }
            if pick.is_none() && balance_due {
                let busiest = candidates
                    .iter()
                    .copied()
                    .max_by_key(|c| (self.sched.load(*c), std::cmp::Reverse(*c)));
                if let Some(b) = busiest {
                    if self.sched.load(b) >= self.sched.load(to) + 2 {
                        'find2: for (cf, sets) in self.sched.tables.iter().enumerate() {
                            for (t, rs) in sets {
                                if rs.state == RsState::Replicating && rs.primary == Some(b) {
                                    pick = Some((cf, *t));
                                    break 'find2;
                                }
                            }
                        }
                    }
                }
            }
            let Some((cf, t)) = pick else { break };
            let rs = self.sched.tables[cf].get_mut(&t).expect("picked");
            if rs.primary == Some(to) {
                break;
            }
            rs.secondary = Some(to);
            rs.state = RsState::Prepare;
        }
    }

    fn sched_dispatch(&mut self, k: &mut Kernel<Stack>, node: NodeId) {
        for cf in 0..self.sched.tables.len() {
            let pending: Vec<(u32, CaptureId, Dispatch)> = self.sched.tables[cf]
                .iter()
                .filter_map(|(t, rs)| rs.pending_dispatch().map(|(c, d)| (*t, c, d)))
                .collect();
            for (table, to, op) in pending {
                let m = SessionMsg::Dispatch {
                    to,
                    cf: cf as CfIx,
                    table,
                    op,
                };
                k.send_ordered(node, self.captures[to.0 as usize], msg(m));
            }
        }
    }

    fn capture_index(&self, n: NodeId) -> Option<u32> {
        self.captures.iter().position(|s| *s == n).map(|i| i as u32)
    }

    /// Captures writing `table` downstream right now (2 = a double write).
    pub fn writers(&self, cf: CfIx, table: u32) -> usize {
        (0..self.captures.len())
            .filter(|c| {
                let s = &self.sessions[*c];
                match s.tables.get(&(cf, table)) {
                    Some(TableState::Replicating) => true,
                    Some(TableState::Stopping) => self.processors[*c][cf as usize]
                        .tables
                        .get(&table)
                        .is_some_and(|t| t.in_flight.is_some()),
                    _ => false,
                }
            })
            .count()
    }
}

impl Cdc {
    /// Series of sessions and scheduling: per table writers and owning capture (first 16
    /// tables), the max writers per changefeed, the owner, and lease remaining per capture.
    pub(crate) fn session_metric_names(&self) -> Vec<String> {
        let mut names = Vec::new();
        let limit = crate::metrics::TABLE_SERIES_LIMIT as usize;
        for (cf, c) in self.cfg.changefeeds.iter().enumerate() {
            for t in self.cf_tables(cf as CfIx).take(limit) {
                names.push(format!("writers.{}.t{t}", c.id));
            }
            names.push(format!("writers_max.{}", c.id));
            for t in self.cf_tables(cf as CfIx).take(limit) {
                names.push(format!("table_capture.{}.t{t}", c.id));
            }
        }
        names.push("owner_capture".to_string());
        for i in 1..=self.captures.len() {
            names.push(format!("lease_remaining.cdc-{i}"));
        }
        names
    }

    /// One sample of the series of `session_metric_names`, in order.
    pub(crate) fn sample_session_metrics(&self, now: SimTime, out: &mut Vec<f64>) {
        let limit = crate::metrics::TABLE_SERIES_LIMIT as usize;
        for cf in 0..self.cfg.changefeeds.len() as CfIx {
            for t in self.cf_tables(cf).take(limit) {
                out.push(self.writers(cf, t) as f64);
            }
            let max = self
                .cf_tables(cf)
                .map(|t| self.writers(cf, t))
                .max()
                .unwrap_or(0);
            out.push(max as f64);
            for t in self.cf_tables(cf).take(limit) {
                out.push(self.table_primary(cf, t).map_or(0.0, |c| c as f64 + 1.0));
            }
        }
        out.push(self.owner_capture().map_or(0.0, |c| c as f64 + 1.0));
        for c in 0..self.captures.len() as u32 {
            out.push(self.etcd.lease_remaining(c, now).as_secs_f64());
        }
    }
}
