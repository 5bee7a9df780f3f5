//! PD's side of the etcd sessions, wired to the kernel: the lessor that grants, keeps alive
//! and expires leases, answers the captures' session requests and notifies the watchers. The
//! state machine is [`crate::etcd::Etcd`], its answers [`crate::etcd::server`].

use faultline_sim::NodeId;

use crate::capture::session::timer;
use crate::cdc::Cdc;
use crate::etcd::server::Peers;
use crate::etcd::wire::{SessionMsg, SessionTimer};
use crate::out::{Cx, Out};

impl Cdc {
    /// Arms PD's lessor and starts the session of every capture that begins joined.
    pub(crate) fn sessions_init(&mut self, out: &mut Out) {
        let s = &self.cfg.session;
        out.set_timer(
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
    pub(crate) fn etcd_restarted(&mut self, cx: &mut Cx) {
        self.etcd.promote(cx.now, self.cfg.session.ttl);
        cx.out.set_timer(
            self.pd,
            self.cfg.session.lessor_check_interval,
            timer(SessionTimer::LessorTick),
        );
    }

    /// A capture's session request `m` reached PD at `now`; etcd answers it.
    pub(crate) fn pd_on_msg(&mut self, cx: &mut Cx, from: NodeId, m: SessionMsg) {
        let Some(c) = self.capture_index(from) else {
            return;
        };
        let peers = Peers::new(self.pd, &self.captures);
        let at = (cx.now, self.cfg.session.ttl);
        self.etcd.on_session_request(at, &mut cx.out, peers, c, m);
    }

    /// Sends the current etcd state to every watcher (a capture with a live key).
    pub(crate) fn etcd_notify(&mut self, out: &mut Out) {
        let peers = Peers::new(self.pd, &self.captures);
        self.etcd.notify_watchers(out, peers);
    }

    /// PD's lessor check: revokes every expired lease, logs it, tells the watchers and arms
    /// the next check.
    pub(crate) fn lessor_tick(&mut self, cx: &mut Cx) {
        let peers = Peers::new(self.pd, &self.captures);
        let every = self.cfg.session.lessor_check_interval;
        self.etcd.lessor_check(cx.now, every, &mut cx.out, peers);
    }
}
