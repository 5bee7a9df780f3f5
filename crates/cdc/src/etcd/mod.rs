//! The etcd embedded in PD, as TiCDC uses it: leases with a TTL, capture keys bound to a
//! capture's session lease, the owner election key, and watches.
//!
//! A pure state machine; `session.rs` moves its messages. Simplifications (stated here and in
//! docs/scenario-format.md):
//! - Keys are typed (capture keys, campaign keys) rather than byte strings; the owner is the
//!   campaigner whose key has the lowest create revision, as `concurrency.Election` decides.
//! - A watch event carries the full state of the watched prefixes at its revision (what a
//!   watcher sees after a re-sync), so a lost event is made good by the next one or by the
//!   snapshot piggy-backed on every keepalive response.
//! - The lessor revokes expired leases on a 500 ms check, like etcd's lessor loop.

pub mod feed_status;
pub mod lessor;
pub mod server;
pub mod wire;

use std::collections::{BTreeMap, BTreeSet};

use faultline_sim::{SimDuration, SimTime, TraceHasher};

use crate::ts::Ts;

/// A capture's identity in etcd: its index (`cdc-<index+1>`) and the session epoch. Every new
/// session is a new capture ID in TiCDC; the epoch plays that role.
pub type CaptureId = (u32, u64);

/// tiflow#9344 toggle: when a capture whose session ended closes its processors.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ProcessorClose {
    /// Buggy (v7.3.0-alpha): only after every capture goroutine has exited, which waits for
    /// the owner resign call to time out while etcd is unreachable. Until then the old
    /// processors keep pulling and writing.
    Deferred,
    /// Fixed (tiflow#9396): as soon as the session is done.
    #[default]
    Immediate,
}

/// Session, election and scheduling parameters (TiCDC 7.x defaults).
#[derive(Clone, Debug, PartialEq)]
pub struct SessionConfig {
    /// Capture session lease TTL: 10 s.
    pub ttl: SimDuration,
    /// tiflow#9344 toggle: processor close on session loss.
    pub processor_close: ProcessorClose,
    /// tiflow#9344 toggle: how long the owner waits after a capture key disappears before
    /// removing the capture and re-adding its tables (fixed: max(TTL/2, 5 s) = 5 s; buggy: 0).
    pub capture_remove_delay: SimDuration,
    /// How long a capture waits for its owner resign / campaign-key delete call when etcd does
    /// not answer (the call's context timeout): 5 s.
    pub owner_resign_timeout: SimDuration,
    /// etcd lessor expiry check interval: 500 ms.
    pub lessor_check_interval: SimDuration,
    /// etcd client: how often the session checks its keepalive deadline: 500 ms.
    pub session_check_interval: SimDuration,
    /// How long the owner's status txn goes unanswered before it is sent again (1 s; stands
    /// in for TCP's retransmission of the blocked call, `owner/status_txn.rs`).
    pub status_txn_retry: SimDuration,
    /// Scheduler v3 heartbeat: every this many owner ticks (2).
    pub heartbeat_ticks: u32,
    /// Scheduler v3 balance check interval: 60 s.
    pub balance_interval: SimDuration,
    /// Scheduler v3 `max-task-concurrency`: table moves in flight at once (10).
    pub max_task_concurrency: u32,
    /// Captures (0-based) that start outside the cluster, for a later scale-out.
    pub initially_absent: Vec<u32>,
}

impl Default for SessionConfig {
    fn default() -> Self {
        SessionConfig {
            ttl: SimDuration::from_secs(10),
            processor_close: ProcessorClose::default(),
            capture_remove_delay: SimDuration::from_secs(5),
            owner_resign_timeout: SimDuration::from_secs(5),
            lessor_check_interval: SimDuration::from_millis(500),
            session_check_interval: SimDuration::from_millis(500),
            status_txn_retry: SimDuration::from_secs(1),
            heartbeat_ticks: 2,
            balance_interval: SimDuration::from_secs(60),
            max_task_concurrency: 10,
            initially_absent: Vec::new(),
        }
    }
}

/// A granted lease.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lease {
    /// Holder.
    pub capture: CaptureId,
    /// PD revokes the lease at this instant unless a keepalive arrives first.
    pub expires: SimTime,
}

/// What a watcher of the capture and owner prefixes sees at one revision.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EtcdSnapshot {
    /// Store revision.
    pub revision: u64,
    /// Live capture keys.
    pub captures: Vec<CaptureId>,
    /// Holder of the owner key.
    pub owner: Option<CaptureId>,
    /// Captures asked to drain (scale-in), by index.
    pub draining: Vec<u32>,
    /// Persisted changefeed checkpoints, by changefeed (empty before the first commit).
    pub feed_checkpoints: Vec<Ts>,
}

impl EtcdSnapshot {
    /// Folds the snapshot into a trace hash.
    pub fn encode(&self, h: &mut TraceHasher) {
        h.word(self.revision);
        h.word(self.captures.len() as u64);
        for (c, e) in &self.captures {
            h.word(*c as u64);
            h.word(*e);
        }
        match self.owner {
            Some((c, e)) => {
                h.word(1 + c as u64);
                h.word(e)
            }
            None => h.word(0),
        }
        h.word(self.draining.len() as u64);
        self.draining.iter().for_each(|c| h.word(*c as u64));
        h.word(self.feed_checkpoints.len() as u64);
        self.feed_checkpoints.iter().for_each(|t| h.word(t.0));
    }
}

/// etcd state inside PD.
#[derive(Clone, Debug, Default)]
pub struct Etcd {
    /// Leases by id.
    pub leases: BTreeMap<u64, Lease>,
    /// Capture keys: capture -> lease.
    pub captures: BTreeMap<CaptureId, u64>,
    /// Owner campaign keys in create-revision order: (lease, capture). The first is the owner.
    pub campaign: Vec<(u64, CaptureId)>,
    /// Captures an operator asked to drain (scale-in), by index.
    pub draining: BTreeSet<u32>,
    /// Store revision; bumped on every change of a watched key.
    pub revision: u64,
    /// PD (with this etcd) was killed and has not restarted yet (a pause does not count).
    pub crashed: bool,
    /// Per capture index, the newest session epoch whose keys were deleted. Upstream every
    /// session is a fresh UUID (`captureImpl.reset` in tiflow's cdc/capture/capture.go), so a
    /// capture ID whose key was deleted never registers again; [`Etcd::register`] refuses it.
    pub retired: BTreeMap<u32, u64>,
    /// The changefeed status keys: the checkpoint the owner last committed, by changefeed
    /// (`feed_status.rs`).
    pub feed_checkpoints: Vec<Ts>,
    next_lease: u64,
}

impl Etcd {
    /// Grants a lease for `capture`, puts its capture key and its campaign key (register, then
    /// campaign, as a capture does at start). Returns the lease id.
    pub fn join(&mut self, capture: CaptureId, now: SimTime, ttl: SimDuration) -> u64 {
        self.next_lease += 1;
        let id = self.next_lease;
        self.leases.insert(
            id,
            Lease {
                capture,
                expires: now.plus(ttl),
            },
        );
        self.captures.insert(capture, id);
        self.campaign.push((id, capture));
        self.revision += 1;
        id
    }

    /// A capture's `Join` for `capture`: the existing lease when its keys are still there (a
    /// retried Join whose answer was lost), a new lease and keys for an ID never seen, or `None`
    /// when this ID's keys were deleted already. Upstream the capture's put of its key with
    /// an expired lease fails ("requested lease not found"), its run loop returns and `reset`
    /// starts a session under a new ID; reusing the old ID would bring a capture back that the
    /// owner already counted as gone.
    pub fn register(&mut self, capture: CaptureId, now: SimTime, ttl: SimDuration) -> Option<u64> {
        if let Some(lease) = self.captures.get(&capture) {
            return Some(*lease);
        }
        if self
            .retired
            .get(&capture.0)
            .is_some_and(|e| *e >= capture.1)
        {
            return None;
        }
        Some(self.join(capture, now, ttl))
    }

    /// A keepalive for `lease`: extends it and returns true, or false if it no longer exists
    /// (etcd answers TTL = -1).
    pub fn keepalive(&mut self, lease: u64, now: SimTime, ttl: SimDuration) -> bool {
        match self.leases.get_mut(&lease) {
            Some(l) => {
                l.expires = now.plus(ttl);
                true
            }
            None => false,
        }
    }

    /// Revokes a lease and deletes its keys; returns the holder if it existed.
    pub fn revoke(&mut self, lease: u64) -> Option<CaptureId> {
        let l = self.leases.remove(&lease)?;
        let (index, epoch) = l.capture;
        let retired = self.retired.entry(index).or_insert(0);
        *retired = (*retired).max(epoch);
        self.captures.retain(|_, id| *id != lease);
        self.campaign.retain(|(id, _)| *id != lease);
        self.revision += 1;
        Some(l.capture)
    }

    /// Deletes only the campaign key of `lease` (the owner resigns but stays a capture).
    pub fn resign(&mut self, lease: u64) {
        let before = self.campaign.len();
        self.campaign.retain(|(id, _)| *id != lease);
        if self.campaign.len() != before {
            self.revision += 1;
        }
    }

    /// The lessor's check: revokes every lease that expired by `now`; returns their holders.
    pub fn expire(&mut self, now: SimTime) -> Vec<CaptureId> {
        let expired: Vec<u64> = self
            .leases
            .iter()
            .filter(|(_, l)| l.expires <= now)
            .map(|(id, _)| *id)
            .collect();
        expired
            .into_iter()
            .filter_map(|id| self.revoke(id))
            .collect()
    }

    /// etcd (re)started and its lessor became primary: every lease restored from disk gets a
    /// fresh TTL from `now` (etcd's `lessor.Promote` refreshes all expiries, so a leader that
    /// was down does not revoke every lease at once when it comes back).
    pub fn promote(&mut self, now: SimTime, ttl: SimDuration) {
        for l in self.leases.values_mut() {
            l.expires = now.plus(ttl);
        }
    }

    /// The current owner: the campaigner with the lowest create revision.
    pub fn owner(&self) -> Option<CaptureId> {
        self.campaign.first().map(|(_, c)| *c)
    }

    /// The TTL `lease` has left at `now` (zero when it is gone), as etcd's lease responses
    /// report it (server `lessor.Renew` / `LeaseTimeToLive`).
    pub fn lease_ttl(&self, lease: u64, now: SimTime) -> SimDuration {
        self.leases
            .get(&lease)
            .map_or(SimDuration::ZERO, |l| l.expires.since(now))
    }

    /// Remaining TTL of the newest live lease of capture index `c`, as PD sees it.
    pub fn lease_remaining(&self, c: u32, now: SimTime) -> SimDuration {
        self.leases
            .values()
            .filter(|l| l.capture.0 == c)
            .map(|l| l.expires.since(now))
            .max()
            .unwrap_or(SimDuration::ZERO)
    }

    /// What a watcher sees now.
    pub fn snapshot(&self) -> EtcdSnapshot {
        EtcdSnapshot {
            revision: self.revision,
            captures: self.captures.keys().copied().collect(),
            owner: self.owner(),
            draining: self.draining.iter().copied().collect(),
            feed_checkpoints: self.feed_checkpoints.clone(),
        }
    }

    /// Holders of live leases (the watchers to notify).
    pub fn watchers(&self) -> Vec<CaptureId> {
        self.captures.keys().copied().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TTL: SimDuration = SimDuration::from_secs(10);

    fn at(s: u64) -> SimTime {
        SimTime(s * 1_000_000)
    }

    #[test]
    fn lease_expires_only_without_keepalives() {
        let mut e = Etcd::default();
        let l = e.join((0, 1), at(0), TTL);
        assert!(e.expire(at(9)).is_empty());
        assert!(e.keepalive(l, at(9), TTL));
        assert!(
            e.expire(at(18)).is_empty(),
            "the keepalive at 9 s extends to 19 s"
        );
        assert_eq!(e.lease_remaining(0, at(18)), SimDuration::from_secs(1));
        assert_eq!(e.expire(at(19)), vec![(0, 1)]);
        assert!(e.captures.is_empty(), "the capture key goes with the lease");
        assert!(
            !e.keepalive(l, at(20), TTL),
            "etcd answers TTL -1 after expiry"
        );
    }

    #[test]
    fn a_restarted_etcd_refreshes_every_lease() {
        let mut e = Etcd::default();
        e.join((0, 1), at(0), TTL);
        e.promote(at(15), TTL);
        assert!(e.expire(at(24)).is_empty(), "down time does not count");
        assert_eq!(e.expire(at(25)), vec![(0, 1)]);
    }

    #[test]
    fn owner_is_the_first_campaigner_and_fails_over_in_order() {
        let mut e = Etcd::default();
        let a = e.join((0, 1), at(0), TTL);
        let _b = e.join((1, 1), at(0), TTL);
        let _c = e.join((2, 1), at(0), TTL);
        assert_eq!(e.owner(), Some((0, 1)));
        let rev = e.revision;
        e.revoke(a);
        assert_eq!(e.owner(), Some((1, 1)), "the next campaigner wins");
        assert!(e.revision > rev, "watchers see a new revision");
        // A restarted capture campaigns again, behind the others.
        e.join((0, 2), at(1), TTL);
        assert_eq!(e.snapshot().captures, vec![(0, 2), (1, 1), (2, 1)]);
        assert_eq!(e.owner(), Some((1, 1)));
    }

    #[test]
    fn a_retried_join_gets_its_lease_until_the_key_is_deleted_then_never_again() {
        let mut e = Etcd::default();
        let l = e.register((0, 1), at(0), TTL).expect("a new id registers");
        assert_eq!(
            e.register((0, 1), at(1), TTL),
            Some(l),
            "a retry whose answer was lost finds the same lease"
        );
        assert_eq!(e.expire(at(10)), vec![(0, 1)]);
        assert_eq!(
            e.register((0, 1), at(11), TTL),
            None,
            "the expired id must not come back"
        );
        assert!(e.captures.is_empty() && e.leases.is_empty());
        assert!(
            e.register((0, 2), at(11), TTL).is_some(),
            "a new session does"
        );
    }
}
