//! PD's etcd answering the captures' session requests, as a component: lease grant with the
//! capture key and campaign (`Join`), keepalive, revoke, owner resign, the watch that follows
//! every change, and the lessor's periodic expiry check (etcd `lease/lessor.go`,
//! `(*lessor).runLoop` revoking expired leases). State changes are [`Etcd`]'s; this file
//! writes the answers to an [`Out`]. `lessor.rs` wires it to the kernel.

use faultline_sim::{Level, NodeId, SimDuration, SimTime};

use crate::etcd::wire::{SessionMsg, SessionTimer};
use crate::etcd::Etcd;
use crate::msg::{CdcMsg, CdcTimer};
use crate::out::Out;

/// PD's node and the captures' nodes by index: who the etcd server answers.
#[derive(Clone, Copy, Debug)]
pub struct Peers<'a> {
    /// PD, hosting etcd.
    pub pd: NodeId,
    /// Capture nodes, by capture index.
    pub captures: &'a [NodeId],
}

impl<'a> Peers<'a> {
    /// PD's node `pd` and the capture nodes `captures`.
    pub fn new(pd: NodeId, captures: &'a [NodeId]) -> Self {
        Peers { pd, captures }
    }

    fn send(&self, out: &mut Out, c: u32, m: SessionMsg) {
        out.send(self.pd, self.captures[c as usize], CdcMsg::Session(m));
    }
}

impl Etcd {
    /// Capture `c` sent a session request `m` at `now`; leases live `ttl`.
    pub fn on_session_request(
        &mut self,
        (now, ttl): (SimTime, SimDuration),
        out: &mut Out,
        peers: Peers,
        c: u32,
        m: SessionMsg,
    ) {
        match m {
            SessionMsg::Join { epoch } => {
                let Some(lease) = self.register((c, epoch), now, ttl) else {
                    return peers.send(out, c, SessionMsg::JoinRefused { epoch });
                };
                let ttl = self.lease_ttl(lease, now);
                let snap = Box::new(self.snapshot());
                let joined = SessionMsg::Joined {
                    epoch,
                    lease,
                    ttl,
                    snap,
                };
                peers.send(out, c, joined);
                self.notify_watchers(out, peers);
            }
            SessionMsg::KeepAlive { lease } => {
                let ok = self.keepalive(lease, now, ttl);
                let snap = Box::new(self.snapshot());
                peers.send(out, c, SessionMsg::KeepAliveResp { lease, ok, snap });
            }
            SessionMsg::Revoke { lease } => {
                self.revoke(lease);
                peers.send(out, c, SessionMsg::Revoked { lease });
                self.notify_watchers(out, peers);
            }
            SessionMsg::ResignOwner { lease } => {
                self.resign(lease);
                self.notify_watchers(out, peers);
            }
            SessionMsg::PutStatus {
                lease,
                seq,
                checkpoints,
            } => {
                let ok = self.put_feed_status(lease, &checkpoints);
                peers.send(out, c, SessionMsg::StatusCommitted { seq, ok });
            }
            _ => {}
        }
    }

    /// Sends the current state to every watcher (a capture with a live key).
    pub fn notify_watchers(&self, out: &mut Out, peers: Peers) {
        let snap = self.snapshot();
        for (c, _) in self.watchers() {
            let snap = Box::new(snap.clone());
            peers.send(out, c, SessionMsg::Watch { snap });
        }
    }

    /// The lessor's check at `now`: revokes every expired lease, logs it, tells the watchers
    /// and arms the next check `every` later.
    pub fn lessor_check(&mut self, now: SimTime, every: SimDuration, out: &mut Out, peers: Peers) {
        let expired = self.expire(now);
        for (c, e) in &expired {
            let detail = format!("captureID=cdc-{}#{e}", c + 1);
            let message = "etcd lease expired, capture key deleted";
            out.log(Some(peers.pd), Level::Info, message, detail);
        }
        if !expired.is_empty() {
            self.notify_watchers(out, peers);
        }
        let tick = CdcTimer::Session(SessionTimer::LessorTick);
        out.set_timer(peers.pd, every, tick);
    }
}

#[cfg(test)]
mod tests {
    use faultline_sim::Network;

    use super::*;
    use crate::out::Command;

    const TTL: SimDuration = SimDuration::from_secs(10);

    /// PD and two capture nodes.
    fn nodes() -> (NodeId, Vec<NodeId>) {
        let mut net = Network::new((SimDuration::from_micros(500), SimDuration::from_millis(2)));
        let pd = net.add_node("pd-1", "pd");
        let captures = (1..=2)
            .map(|i| net.add_node(&format!("cdc-{i}"), "cdc"))
            .collect();
        (pd, captures)
    }

    /// Capture `c` joins with epoch 1 at `at`.
    fn join(etcd: &mut Etcd, peers: Peers, c: u32, at: SimTime) {
        let mut out = Out::default();
        etcd.on_session_request((at, TTL), &mut out, peers, c, SessionMsg::Join { epoch: 1 });
    }

    /// The session messages in `out` as (capture node, message name).
    fn answers(out: &Out) -> Vec<(NodeId, &'static str)> {
        out.commands()
            .iter()
            .filter_map(|c| match c {
                Command::Send {
                    to,
                    msg: CdcMsg::Session(m),
                    ..
                } => Some((*to, name(m))),
                _ => None,
            })
            .collect()
    }

    fn name(m: &SessionMsg) -> &'static str {
        match m {
            SessionMsg::Joined { .. } => "Joined",
            SessionMsg::JoinRefused { .. } => "JoinRefused",
            SessionMsg::KeepAliveResp { ok: true, .. } => "KeepAliveResp ok",
            SessionMsg::KeepAliveResp { ok: false, .. } => "KeepAliveResp lease not found",
            SessionMsg::Revoked { .. } => "Revoked",
            SessionMsg::Watch { .. } => "Watch",
            _ => "other",
        }
    }

    /// A `Join` retried 7 s after its first copy was granted (the answer was lost) gets the
    /// same lease with the 3 s it has left, so the capture's deadline ends with PD's lease.
    #[test]
    fn a_retried_join_is_answered_with_the_ttl_the_lease_has_left() {
        let (pd, caps) = nodes();
        let peers = Peers::new(pd, &caps);
        let mut etcd = Etcd::default();
        let ttls = |out: &Out| -> Vec<SimDuration> {
            out.commands()
                .iter()
                .filter_map(|c| match c {
                    Command::Send {
                        msg: CdcMsg::Session(SessionMsg::Joined { ttl, .. }),
                        ..
                    } => Some(*ttl),
                    _ => None,
                })
                .collect()
        };
        let mut out = Out::default();
        let join = SessionMsg::Join { epoch: 1 };
        etcd.on_session_request((SimTime(0), TTL), &mut out, peers, 0, join.clone());
        assert_eq!(ttls(&out), vec![TTL], "a new lease: the full TTL");
        let mut out = Out::default();
        let at = SimTime(7_000_000);
        etcd.on_session_request((at, TTL), &mut out, peers, 0, join);
        assert_eq!(ttls(&out), vec![SimDuration::from_secs(3)]);
    }

    #[test]
    fn each_session_request_gets_its_answer_and_changes_reach_every_watcher() {
        let (pd, caps) = nodes();
        let peers = Peers::new(pd, &caps);
        let mut etcd = Etcd::default();
        join(&mut etcd, peers, 0, SimTime(0));
        let now = (SimTime(0), TTL);
        let lease = etcd.captures[&(0, 1)];
        // (capture, request, answers in order)
        type Case = (u32, SessionMsg, Vec<(NodeId, &'static str)>);
        let cases: Vec<Case> = vec![
            (
                1,
                SessionMsg::Join { epoch: 1 },
                vec![(caps[1], "Joined"), (caps[0], "Watch"), (caps[1], "Watch")],
            ),
            (
                0,
                SessionMsg::KeepAlive { lease },
                vec![(caps[0], "KeepAliveResp ok")],
            ),
            (
                0,
                SessionMsg::KeepAlive { lease: 999 },
                vec![(caps[0], "KeepAliveResp lease not found")],
            ),
            (
                0,
                SessionMsg::ResignOwner { lease },
                vec![(caps[0], "Watch"), (caps[1], "Watch")],
            ),
            (
                0,
                SessionMsg::Revoke { lease },
                vec![(caps[0], "Revoked"), (caps[1], "Watch")],
            ),
            // A retried Join of a session whose key is gone starts no new lease.
            (
                0,
                SessionMsg::Join { epoch: 1 },
                vec![(caps[0], "JoinRefused")],
            ),
        ];
        for (c, request, want) in cases {
            let mut out = Out::default();
            let label = format!("{request:?}");
            etcd.on_session_request(now, &mut out, peers, c, request);
            assert_eq!(answers(&out), want, "capture {c}: {label}");
        }
        assert_eq!(etcd.snapshot().captures, vec![(1, 1)]);
        assert_eq!(
            etcd.snapshot().owner,
            Some((1, 1)),
            "the resigned owner's successor"
        );
    }

    #[test]
    fn the_lessor_check_deletes_expired_keys_tells_the_watchers_and_rearms() {
        let (pd, caps) = nodes();
        let peers = Peers::new(pd, &caps);
        let mut etcd = Etcd::default();
        join(&mut etcd, peers, 0, SimTime(0));
        join(&mut etcd, peers, 1, SimTime(5_000_000));
        let every = SimDuration::from_millis(500);
        // (check at, keys deleted, watchers told)
        let cases = [
            (SimTime(9_000_000), vec![], vec![]),
            (
                SimTime(10_000_000),
                vec!["etcd lease expired, capture key deleted"],
                vec![(caps[1], "Watch")],
            ),
            (SimTime(10_500_000), vec![], vec![]),
        ];
        for (at, logged, told) in cases {
            let mut out = Out::default();
            etcd.lessor_check(at, every, &mut out, peers);
            assert_eq!(out.logged(), logged, "at {at:?}");
            assert_eq!(answers(&out), told, "at {at:?}");
            let rearmed = Command::SetTimer {
                node: pd,
                after: every,
                timer: CdcTimer::Session(SessionTimer::LessorTick),
            };
            assert_eq!(out.commands().last(), Some(&rearmed));
        }
        assert_eq!(etcd.snapshot().captures, vec![(1, 1)]);
    }
}
