//! The capture side of an etcd session: its lease kept alive every TTL/3, its capture key and
//! owner campaign, the watch, and what the capture does when the session ends.
//!
//! PD's side (the lessor) is in [`crate::etcd::lessor`], the messages in [`crate::etcd::wire`],
//! the processor's table dispatch in [`crate::capture::table_dispatch`] and the owner's scheduling in
//! [`crate::owner::owner_schedule`].
//!
//! tiflow#9344 comes out of the timing here: when the owner capture's session ends, `deferred`
//! processors keep writing until the capture's goroutines exit (the owner resign call waits
//! for its timeout while etcd is unreachable), while the new owner with a remove delay of 0
//! re-adds the capture's tables elsewhere at once. Both copies write the table; MySQL applies
//! whatever arrives last. A capture that was not the owner has no resign to wait for: its
//! processors close when its run loop returns, with either toggle.

use faultline_sim::{Level, NodeId};

use crate::capture::processor::Processor;
use crate::cdc::Cdc;
pub use crate::etcd::wire::{OperatorAction, SessionMsg, SessionTimer};
use crate::etcd::{EtcdSnapshot, ProcessorClose};
use crate::msg::{CdcMsg, CdcTimer};
use crate::out::{Cx, Out};

/// Wraps a session message for the kernel.
pub(crate) fn msg(m: SessionMsg) -> CdcMsg {
    CdcMsg::Session(m)
}

/// Wraps a session timer for the kernel.
pub(crate) fn timer(t: SessionTimer) -> CdcTimer {
    CdcTimer::Session(t)
}

impl Cdc {
    /// A capture process (re)starts: arms its session tick and, if it is part of the cluster,
    /// opens a new session.
    pub(crate) fn session_start(&mut self, out: &mut Out, c: u32) {
        let node = self.captures[c as usize];
        let every = self.cfg.session.session_check_interval;
        out.set_timer(node, every, timer(SessionTimer::SessionTick));
        if self.sessions[c as usize].joined {
            self.session_begin(out, c);
        }
    }

    pub(crate) fn session_begin(&mut self, out: &mut Out, c: u32) {
        let s = &mut self.sessions[c as usize];
        s.epoch += 1;
        s.lease = None;
        s.closing = None;
        s.resigned_owner = false;
        s.announced_owner = false;
        s.status_txn = Default::default();
        let epoch = s.epoch;
        out.send(
            self.captures[c as usize],
            self.pd,
            msg(SessionMsg::Join { epoch }),
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
    // Long because it matches every session message a capture receives, one arm each; the
    // arms read better side by side than split.
    #[allow(clippy::too_many_lines)]
    pub(crate) fn on_session_msg(&mut self, cx: &mut Cx, from: NodeId, to: NodeId, m: SessionMsg) {
        if to == self.pd {
            return self.pd_on_msg(cx, from, m);
        }
        let (now, out) = (cx.now, &mut cx.out);
        let Some(c) = self.capture_index(to) else {
            return;
        };
        match m {
            SessionMsg::Joined {
                epoch,
                lease,
                ttl,
                snap,
            } => {
                let at = (now, ttl);
                let s = &mut self.sessions[c as usize];
                let taken = s.on_joined(at, out, (to, c), epoch, lease);
                if taken {
                    self.session_view(out, c, *snap);
                }
            }
            SessionMsg::JoinRefused { epoch } => {
                let s = &self.sessions[c as usize];
                if epoch != s.epoch || s.alive() || !s.joined || s.closing.is_some() {
                    return;
                }
                let detail = format!("captureID=cdc-{}#{epoch}", c + 1);
                out.log(
                    Some(to),
                    Level::Warn,
                    "register capture failed, lease not found",
                    detail,
                );
                self.session_begin(out, c);
            }
            SessionMsg::KeepAliveResp { lease, ok, snap } => {
                if self.sessions[c as usize].lease != Some(lease) {
                    return;
                }
                if ok {
                    let ttl = self.cfg.session.ttl;
                    self.sessions[c as usize].deadline = now.plus(ttl);
                    self.session_view(out, c, *snap);
                } else {
                    self.session_done(out, c, "lease not found (TTL -1)");
                }
            }
            SessionMsg::Watch { snap } => {
                // A watch event may overtake the Joined answer; the watch itself is open.
                let s = &self.sessions[c as usize];
                if s.joined && s.closing.is_none() {
                    self.session_view(out, c, *snap);
                }
            }
            SessionMsg::Revoked { .. } => {
                if let Some(epoch) = self.sessions[c as usize].closing {
                    self.session_close(out, c, epoch);
                }
            }
            SessionMsg::Heartbeat { to: id } => {
                let s = &self.sessions[c as usize];
                if s.alive() && s.id(c) == id {
                    self.hear_owner_barrier(c);
                    self.send_report(out, c, from);
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
                    self.on_dispatch(out, c, cf, table, op);
                    self.send_dispatch_response(out, c, from, cf, table);
                }
            }
            SessionMsg::StatusCommitted { seq, ok } => self.on_status_committed(c, seq, ok),
            SessionMsg::Report { from: id, tables } => {
                self.owner_on_report(out, c, id, tables);
            }
            SessionMsg::DispatchResponse {
                from: id,
                cf,
                table,
                state,
                checkpoint,
            } => {
                self.owner_on_dispatch_response(out, c, id, (cf, table), (state, checkpoint));
            }
            _ => {}
        }
    }

    /// A heartbeat from the owner reached capture `c`: each processor's barrier moves to the
    /// changefeed's resolved ts the owner holds. Simplification: the value is read when the
    /// heartbeat arrives rather than carried in it (one network hop apart); a blocked owner
    /// sends no heartbeat and advances no resolved ts, so either way the barrier stops.
    fn hear_owner_barrier(&mut self, c: u32) {
        for (cf, p) in self.processors[c as usize].iter_mut().enumerate() {
            p.hear_barrier(self.watermarks[cf].resolved);
        }
    }

    fn session_view(&mut self, out: &mut Out, c: u32, snap: EtcdSnapshot) {
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
            out.log(
                Some(self.captures[c as usize]),
                Level::Info,
                "campaign owner successfully",
                detail,
            );
        }
        self.maybe_leave(out, c);
    }

    /// Handles a session timer.
    pub(crate) fn on_session_timer(&mut self, cx: &mut Cx, node: NodeId, t: SessionTimer) {
        match t {
            // Armed on PD only (`sessions_init`, `etcd_restarted` and the check itself).
            SessionTimer::LessorTick => self.lessor_tick(cx),
            SessionTimer::SessionTick => {
                let Some(c) = self.capture_index(node) else {
                    return;
                };
                self.session_tick(cx, c);
                cx.out.set_timer(
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
                    self.session_close(&mut cx.out, c, epoch);
                }
            }
            SessionTimer::Action(a) => self.operator_action(cx, a),
        }
    }

    fn session_tick(&mut self, cx: &mut Cx, c: u32) {
        let (at, out) = ((cx.now, self.cfg.session.ttl), &mut cx.out);
        let ends = (self.captures[c as usize], self.pd);
        let expired = self.sessions[c as usize].check(at, out, ends);
        if expired {
            self.session_done(out, c, "keepalive deadline passed");
        }
    }

    /// The session ended (client side): the capture stops being owner and, depending on the
    /// tiflow#9344 toggle, closes its processors now or once its goroutines exit.
    fn session_done(&mut self, out: &mut Out, c: u32, why: &str) {
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
        out.log(
            Some(node),
            Level::Warn,
            "capture session done, capture suicide itself",
            detail,
        );
        // Resign: revoke the lease so the keys go at once (lost while etcd is unreachable).
        out.send(node, self.pd, msg(SessionMsg::Revoke { lease }));
        // v7.3.0-alpha `cdc/capture/capture.go` `(*captureImpl).run` closes the processor
        // manager only after every goroutine of its errgroup returned. A non-owner's
        // `campaignOwner` returns as soon as the context is cancelled; only the owner's exit
        // path waits for `resign` on a fresh 5 s context, which times out while etcd is
        // unreachable. tiflow#9396 closes the processor manager when its own loop returns.
        let waits_for_resign =
            was_owner && self.cfg.session.processor_close == ProcessorClose::Deferred;
        if waits_for_resign {
            s.closing = Some(epoch);
            let wait = self.cfg.session.owner_resign_timeout;
            out.set_timer(node, wait, timer(SessionTimer::ResignTimeout { epoch }));
        } else {
            self.session_close(out, c, epoch);
        }
    }

    /// Every goroutine of the old session exited: close its processors and, if the capture is
    /// still part of the cluster, start a new session (a new capture ID).
    fn session_close(&mut self, out: &mut Out, c: u32, epoch: u64) {
        let node = self.captures[c as usize];
        let open = self.sessions[c as usize].tables.len();
        self.close_processors(c);
        let detail = format!("captureID=cdc-{}#{epoch} tables={open}", c + 1);
        out.log(Some(node), Level::Info, "processors closed", detail);
        self.sessions[c as usize].closing = None;
        if self.sessions[c as usize].joined {
            self.session_begin(out, c);
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
    pub(crate) fn maybe_leave(&mut self, out: &mut Out, c: u32) {
        let s = &self.sessions[c as usize];
        let Some(lease) = s.lease else { return };
        if !s.view.draining.contains(&c) {
            return;
        }
        let node = self.captures[c as usize];
        if self.is_owner(c) && !s.resigned_owner {
            self.sessions[c as usize].resigned_owner = true;
            out.send(node, self.pd, msg(SessionMsg::ResignOwner { lease }));
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
        out.log(
            Some(node),
            Level::Info,
            "capture drained, exiting (scale-in)",
            detail,
        );
        let s = &mut self.sessions[c as usize];
        s.joined = false;
        s.lease = None;
        out.send(node, self.pd, msg(SessionMsg::Revoke { lease }));
        self.close_processors(c);
    }

    pub(crate) fn capture_index(&self, n: NodeId) -> Option<u32> {
        self.captures.iter().position(|s| *s == n).map(|i| i as u32)
    }
}
