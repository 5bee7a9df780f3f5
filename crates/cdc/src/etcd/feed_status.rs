//! The changefeed status keys in PD's etcd: the checkpoint each changefeed's owner persisted,
//! which is what a new owner starts from.
//!
//! Upstream (tiflow `cdc/owner/owner.go`, `updateStatus`): every owner tick patches each
//! changefeed's `ChangeFeedStatus` with the checkpoint the tick computed, and the owner's etcd
//! worker (`pkg/orchestrator/etcd_worker.go`, `EtcdWorker.Run` and `commitChangedState`)
//! commits the patches in one txn whose compares are the keys' mod revisions. A new owner's
//! etcd worker reads the keys when it starts (`syncRawState`) and its changefeeds start from
//! that status (`cdc/owner/changefeed.go`, `initialize`).
//!
//! Simplifications: only the current owner's txn is accepted, standing in for the mod-revision
//! compares (a new owner rewrites the status, so a deposed owner's txn fails its compare); the
//! status key is not watched by the captures (in the model processors take their barrier from
//! the owner's heartbeat, not from the status), so a put bumps no revision and sends no watch
//! event; only the checkpoint is persisted (`MinTableBarrierTs` has no DDL to guard here).

use crate::etcd::Etcd;
use crate::ts::Ts;

impl Etcd {
    /// The owner holding `lease` commits `checkpoints` (one per changefeed). Returns false,
    /// storing nothing, when `lease` does not hold the owner key (upstream the txn's compare
    /// fails: `ErrEtcdTryAgain`).
    pub fn put_feed_status(&mut self, lease: u64, checkpoints: &[Ts]) -> bool {
        if self.campaign.first().map(|(l, _)| *l) != Some(lease) {
            return false;
        }
        self.feed_checkpoints = checkpoints.to_vec();
        true
    }

    /// The persisted checkpoint of changefeed `cf`, or `None` before its first commit (then
    /// it is the changefeed's start ts).
    pub fn feed_checkpoint(&self, cf: usize) -> Option<Ts> {
        self.feed_checkpoints.get(cf).copied()
    }
}

#[cfg(test)]
mod tests {
    use faultline_sim::{SimDuration, SimTime};

    use super::*;

    #[test]
    fn only_the_owner_key_holder_commits_a_status() {
        let mut e = Etcd::default();
        let ttl = SimDuration::from_secs(10);
        let owner = e.join((0, 1), SimTime(0), ttl);
        let other = e.join((1, 1), SimTime(0), ttl);
        assert_eq!(e.feed_checkpoint(0), None, "nothing persisted yet");
        assert!(!e.put_feed_status(other, &[Ts(7)]), "not the owner");
        assert_eq!(e.feed_checkpoint(0), None);
        assert!(e.put_feed_status(owner, &[Ts(9)]));
        assert_eq!(e.feed_checkpoint(0), Some(Ts(9)));
        // The owner's lease is revoked: the next campaigner owns, the deposed owner's txn
        // fails and the status stays what it was.
        e.revoke(owner);
        assert!(!e.put_feed_status(owner, &[Ts(11)]));
        assert_eq!(e.feed_checkpoint(0), Some(Ts(9)));
        assert!(e.put_feed_status(other, &[Ts(12)]));
        assert_eq!(e.feed_checkpoint(0), Some(Ts(12)));
    }
}
