//! PD's side of the etcd sessions: the lessor that grants, keeps alive and expires leases,
//! answers the captures' session requests and notifies the watchers. The state machine itself
//! is [`crate::etcd::Etcd`]; this file moves its messages.

use faultline_sim::{Kernel, Level, NodeId};

use crate::cdc::Cdc;
use crate::etcd::wire::{SessionMsg, SessionTimer};
use crate::session::{msg, timer};
use crate::stack::Stack;

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

    pub(crate) fn pd_on_msg(&mut self, k: &mut Kernel<Stack>, from: NodeId, m: SessionMsg) {
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
    pub(crate) fn etcd_notify(&mut self, k: &mut Kernel<Stack>) {
        let snap = self.etcd.snapshot();
        for (c, _) in self.etcd.watchers() {
            let node = self.captures[c as usize];
            k.send(self.pd, node, msg(SessionMsg::Watch { snap: snap.clone() }));
        }
    }

    /// PD's lessor check: revokes every expired lease, logs it, tells the watchers and arms
    /// the next check.
    pub(crate) fn lessor_tick(&mut self, k: &mut Kernel<Stack>, node: NodeId) {
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
}
