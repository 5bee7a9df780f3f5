//! A capture's own view of its etcd session: the lease it holds, its keepalive deadline, the
//! latest etcd state its watch saw, and the processor-side table states that live and die
//! with the session. As a component it answers PD's grant and its own session check, writing
//! to an [`Out`]; `session.rs` wires the rest of the session (watch, end, rejoin).
//!
//! Upstream: tiflow `cdc/capture/capture.go` (`captureImpl.run` and its session), whose etcd
//! client (`concurrency.NewSession`) keeps the lease alive every TTL/3 and ends the session
//! once no keepalive answer came for a TTL.

use std::collections::BTreeMap;

use faultline_sim::{Level, NodeId, SimDuration, SimTime};

use crate::etcd::wire::SessionMsg;
use crate::etcd::{CaptureId, EtcdSnapshot};
use crate::ids::CfIx;
use crate::msg::CdcMsg;
use crate::out::Out;
use crate::owner::scheduler::TableState;

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
    pub tables: BTreeMap<(CfIx, u32), TableState>,
    /// Owner campaign key resigned (draining owner).
    pub resigned_owner: bool,
    /// "campaign owner successfully" was logged for the current owner term. Kept apart from
    /// the view: a watch event can show this capture as owner before its `Joined` answer makes
    /// the session alive, and the term then starts only when the answer arrives.
    pub announced_owner: bool,
    /// The process was killed and has not restarted yet.
    pub crashed: bool,
    /// The owner's changefeed status txns in this session.
    pub status_txn: crate::owner::status_txn_state::StatusTxn,
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

impl CaptureSession {
    /// PD granted `lease`, with `ttl` left on it, to this session's `Join`; the answer arrived
    /// at `now` (`node` is capture `c`). Taken only by the session that asked and is not alive
    /// or closing yet. Returns true when taken; the answer's etcd snapshot then applies.
    ///
    /// The deadline and the next keepalive follow the TTL PD reported, as etcd's client does
    /// with every lease response (clientv3 `lease.go`, `recvKeepAlive`: deadline = now + TTL,
    /// next keepalive = now + TTL/3), never the configured TTL: a retried `Join` is answered
    /// with the lease its first copy was granted, which may have only seconds left. Counting a
    /// full TTL from the late answer let a capture believe in a lease PD had already revoked,
    /// and write while the owner gave its tables to another capture (explore, seed 91 of the
    /// scale scenario: 71% loss on PD's links, two writers with every fix toggle on).
    pub fn on_joined(
        &mut self,
        (now, ttl): (SimTime, SimDuration),
        out: &mut Out,
        (node, c): (NodeId, u32),
        epoch: u64,
        lease: u64,
    ) -> bool {
        if epoch != self.epoch || self.alive() || !self.joined || self.closing.is_some() {
            return false;
        }
        self.lease = Some(lease);
        self.deadline = now.plus(ttl);
        self.next_keepalive = now.plus(SimDuration(ttl.0 / 3));
        let detail = format!("captureID=cdc-{}#{epoch} lease={lease}", c + 1);
        out.log(Some(node), Level::Info, "capture registered", detail);
        true
    }

    /// The session check at `now` on capture `node`: asks PD (`pd`) again for a lease whose
    /// `Join` or answer was lost, or sends the keepalive due every TTL/3. Returns true when
    /// the keepalive deadline passed: the session is done.
    pub fn check(
        &mut self,
        (now, ttl): (SimTime, SimDuration),
        out: &mut Out,
        (node, pd): (NodeId, NodeId),
    ) -> bool {
        if !self.joined || self.closing.is_some() {
            return false;
        }
        let Some(lease) = self.lease else {
            let epoch = self.epoch;
            out.send(node, pd, CdcMsg::Session(SessionMsg::Join { epoch }));
            return false;
        };
        if now >= self.deadline {
            return true;
        }
        if now >= self.next_keepalive {
            self.next_keepalive = now.plus(SimDuration(ttl.0 / 3));
            out.send(node, pd, CdcMsg::Session(SessionMsg::KeepAlive { lease }));
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use faultline_sim::Network;

    use super::*;
    use crate::out::Command;

    const TTL: SimDuration = SimDuration::from_secs(9);

    fn ends() -> (NodeId, NodeId) {
        let mut net = Network::new((SimDuration::from_micros(500), SimDuration::from_millis(2)));
        let capture = net.add_node("cdc-1", "cdc");
        let pd = net.add_node("pd-1", "pd");
        (capture, pd)
    }

    fn secs(s: u64) -> SimTime {
        SimTime(s * 1_000_000)
    }

    /// A joined session granted lease 7 at time zero.
    fn alive() -> CaptureSession {
        let mut s = CaptureSession {
            joined: true,
            epoch: 1,
            ..CaptureSession::default()
        };
        let mut out = Out::default();
        assert!(s.on_joined((secs(0), TTL), &mut out, (ends().0, 0), 1, 7));
        assert_eq!(out.logged(), vec!["capture registered"]);
        s
    }

    fn sent(out: &Out) -> Vec<SessionMsg> {
        out.commands()
            .iter()
            .map(|c| match c {
                Command::Send {
                    msg: CdcMsg::Session(m),
                    ..
                } => m.clone(),
                other => panic!("only session messages, got {other:?}"),
            })
            .collect()
    }

    #[test]
    fn a_grant_is_taken_only_by_the_live_joined_session_that_asked() {
        let (node, _) = ends();
        // (how the session differs from a fresh joined one at epoch 1, answer's epoch, taken)
        type Case = (&'static str, fn(&mut CaptureSession), u64, bool);
        let cases: [Case; 5] = [
            ("as asked", |_| {}, 1, true),
            ("an older session's answer", |_| {}, 0, false),
            ("already alive", |s| s.lease = Some(3), 1, false),
            ("scaled in", |s| s.joined = false, 1, false),
            ("closing", |s| s.closing = Some(1), 1, false),
        ];
        for (what, setup, epoch, taken) in cases {
            let mut s = CaptureSession {
                joined: true,
                epoch: 1,
                ..CaptureSession::default()
            };
            setup(&mut s);
            let mut out = Out::default();
            let got = s.on_joined((secs(2), TTL), &mut out, (node, 0), epoch, 7);
            assert_eq!(got, taken, "{what}");
            assert_eq!(
                out.commands().is_empty(),
                !taken,
                "{what}: logged only when taken"
            );
            if taken {
                assert_eq!(
                    (s.lease, s.deadline, s.next_keepalive),
                    (Some(7), secs(11), secs(5))
                );
            }
        }
    }

    /// A retried `Join` answered with a lease that has 3 s of its 10 s left: the deadline is
    /// 3 s after the answer, not 10 (PD revokes the lease then; a capture that counted a full
    /// TTL wrote for 7 s more while the owner gave its tables away).
    #[test]
    fn a_late_answer_counts_the_ttl_pd_reported_not_a_full_one() {
        let mut s = CaptureSession {
            joined: true,
            epoch: 1,
            ..CaptureSession::default()
        };
        let (node, pd) = ends();
        let mut out = Out::default();
        let left = SimDuration::from_secs(3);
        assert!(s.on_joined((secs(20), left), &mut out, (node, 0), 1, 7));
        assert_eq!((s.deadline, s.next_keepalive), (secs(23), secs(21)));
        let mut out = Out::default();
        assert!(
            !s.check((secs(22), TTL), &mut out, (node, pd)),
            "alive at 22 s"
        );
        assert!(
            s.check((secs(23), TTL), &mut out, (node, pd)),
            "done at 23 s"
        );
    }

    #[test]
    fn the_session_check_keeps_the_lease_alive_every_third_of_the_ttl_until_the_deadline() {
        let ends = ends();
        let mut s = alive();
        // (check at, keepalive sent, session done)
        let cases = [
            (secs(1), false, false),
            (secs(3), true, false),
            (secs(4), false, false),
            (secs(6), true, false),
            (secs(9), true, true),
        ];
        for (at, keepalive, done) in cases {
            let mut out = Out::default();
            assert_eq!(s.check((at, TTL), &mut out, ends), done, "at {at:?}");
            if done {
                assert!(out.commands().is_empty(), "a done session sends nothing");
                continue;
            }
            let want = if keepalive {
                vec![SessionMsg::KeepAlive { lease: 7 }]
            } else {
                vec![]
            };
            assert_eq!(sent(&out), want, "at {at:?}");
        }
    }

    #[test]
    fn a_session_without_a_lease_asks_again_and_a_closing_one_is_quiet() {
        let ends = ends();
        let mut s = CaptureSession {
            joined: true,
            epoch: 4,
            ..CaptureSession::default()
        };
        let mut out = Out::default();
        assert!(!s.check((secs(1), TTL), &mut out, ends));
        assert_eq!(sent(&out), vec![SessionMsg::Join { epoch: 4 }]);
        s.closing = Some(4);
        let mut out = Out::default();
        assert!(!s.check((secs(60), TTL), &mut out, ends));
        assert!(out.commands().is_empty());
    }
}
