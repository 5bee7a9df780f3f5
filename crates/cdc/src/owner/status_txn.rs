//! The owner's etcd worker as it paces the owner: the status a tick computed is committed to
//! PD's etcd before the owner ticks again.
//!
//! Upstream (tiflow `pkg/orchestrator/etcd_worker.go`, `EtcdWorker.Run`): after the reactor's
//! tick the worker commits its patches in a txn; while the commit fails with a retryable error
//! (deadline exceeded, a broken etcd connection) it retries "until the session is done" and
//! does not tick the reactor. The owner's reactor is everything the owner does
//! (`cdc/owner/owner.go`, `ownerImpl.Tick`: the changefeeds' ticks with their scheduler), so an
//! owner that cannot reach etcd computes no checkpoint, sends no scheduler heartbeat (no
//! processor's barrier moves, so downstream writes stop too) and moves no table, until its
//! session ends and another capture owns. A txn goes out only when a status changed
//! (`commitChangedState` returns at once when nothing did).
//!
//! Simplification: a txn lost on a cut link is sent again every `status_txn_retry` while it
//! is unanswered, standing in for TCP retransmitting the blocked call; the call's own 30 s
//! deadline (`pkg/etcd/client.go`, `etcdClientTimeoutDuration`) is not modelled, since a cut
//! that long ends the 10 s session first.

use crate::capture::session::msg;
use crate::cdc::Cdc;
use crate::etcd::wire::SessionMsg;
use crate::out::{Cx, Out};
use crate::ts::Ts;

impl Cdc {
    /// Capture `c`'s owner tick at `now`: true while its last txn is unanswered (the tick is
    /// skipped); a txn unanswered for `status_txn_retry` is sent again.
    pub(crate) fn status_txn_waits(&mut self, cx: &mut Cx, c: u32) -> bool {
        let (now, out) = (cx.now, &mut cx.out);
        let retry = self.cfg.session.status_txn_retry;
        let s = &mut self.sessions[c as usize];
        let (Some(lease), Some((checkpoints, sent))) = (s.lease, s.status_txn.pending.as_mut())
        else {
            return false;
        };
        if now.since(*sent) >= retry {
            *sent = now;
            let (seq, checkpoints) = (s.status_txn.seq, checkpoints.clone());
            self.send_status(out, c, (lease, seq, checkpoints));
        }
        true
    }

    /// Owner `c` finished a pass at `now`: commits the changefeed checkpoints if any changed.
    pub(crate) fn status_txn_commit(&mut self, cx: &mut Cx, c: u32) {
        let (now, out) = (cx.now, &mut cx.out);
        let checkpoints: Vec<Ts> = self.watermarks.iter().map(|w| w.checkpoint).collect();
        let s = &mut self.sessions[c as usize];
        let Some(lease) = s.lease else {
            return;
        };
        if s.status_txn.pending.is_some() || s.status_txn.committed == checkpoints {
            return;
        }
        s.status_txn.seq += 1;
        s.status_txn.pending = Some((checkpoints.clone(), now));
        let seq = s.status_txn.seq;
        self.send_status(out, c, (lease, seq, checkpoints));
    }

    /// Capture `c` sends its txn `seq` writing `checkpoints` under `lease` to PD's etcd.
    fn send_status(&self, out: &mut Out, c: u32, (lease, seq, checkpoints): (u64, u64, Vec<Ts>)) {
        let m = SessionMsg::PutStatus {
            lease,
            seq,
            checkpoints,
        };
        out.send(self.captures[c as usize], self.pd, msg(m));
    }

    /// PD answered txn `seq` of capture `c`. A failed compare (`ok = false`: another capture
    /// owns now) leaves `committed` as it was; the next tick finds the capture is no owner.
    pub(crate) fn on_status_committed(&mut self, c: u32, seq: u64, ok: bool) {
        let t = &mut self.sessions[c as usize].status_txn;
        if t.seq != seq {
            return;
        }
        if let Some((checkpoints, _)) = t.pending.take() {
            if ok {
                t.committed = checkpoints;
            }
        }
    }

    /// Capture `c` begins an owner term: its changefeeds start from the checkpoints its etcd
    /// view holds (the start ts before any commit), and the barrier it sends starts there too,
    /// until the tables report (`cdc/owner/changefeed.go`, `initialize`).
    pub(crate) fn status_txn_term_begins(&mut self, c: u32) {
        let start = self.start_ts;
        let s = &mut self.sessions[c as usize];
        let stored = s.view.feed_checkpoints.clone();
        s.status_txn.pending = None;
        s.status_txn.committed = stored.clone();
        for (cf, w) in self.watermarks.iter_mut().enumerate() {
            w.checkpoint = stored.get(cf).copied().unwrap_or(start);
            w.resolved = w.checkpoint;
        }
    }
}
