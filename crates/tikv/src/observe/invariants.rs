//! Raft safety invariants, checked incrementally where state changes (never by scanning all
//! peers): at most one leader per region per term, and a committed entry is never lost.

use faultline_sim::CowVec;

use crate::ids::RegionId;
use crate::raft::log::LogHead;
use crate::raft::log::LogRuns;

/// Per-region records and the first violation seen. The records are copy-on-write: a
/// snapshot of the world shares those of regions that did not change since the last one.
#[derive(Clone, Debug)]
pub struct Invariants {
    /// Highest committed `(index, entry term, term it was committed in)` seen in each region.
    committed: CowVec<(u64, u64, u64)>,
    /// The two most recent `(term, slot)` elections per region. Two leaders of one term would
    /// be elected close together (each voter votes once per term), so two entries suffice.
    leaders: CowVec<[(u64, u8); 2]>,
    /// First violation.
    pub violation: Option<String>,
}

impl Invariants {
    /// Records for `regions` regions bootstrapped at `(index, term)` led by `slot` in `term`.
    pub fn new(
        regions: usize,
        index: u64,
        term: u64,
        leader_term: u64,
        slot_of: impl Fn(usize) -> u8,
    ) -> Self {
        Invariants {
            committed: vec![(index, term, term); regions].into(),
            leaders: (0..regions)
                .map(|r| [(leader_term, slot_of(r)), (0, 0)])
                .collect(),
            violation: None,
        }
    }

    /// A region split off: its log starts at `index` of `term`, which counts as committed.
    pub fn add_region(&mut self, index: u64, term: u64) {
        self.committed.push((index, term, term));
        self.leaders.push([(0, 0), (0, 0)]);
    }

    /// Records a violation (the first one wins).
    pub fn fail(&mut self, what: String) {
        if self.violation.is_none() {
            self.violation = Some(what);
        }
    }

    fn holds(log: &LogHead, runs: &LogRuns, index: u64, term: u64) -> bool {
        // Compacted entries were committed before compaction; they cannot be checked here.
        index < log.snap_index || log.term_at(runs, index) == Some(term)
    }

    /// A peer became leader of `term` with `log` (and its `runs`).
    pub fn on_leader(&mut self, r: RegionId, term: u64, slot: u8, log: &LogHead, runs: &LogRuns) {
        let rec = &mut self.leaders[r.0 as usize];
        let twice = rec.iter().any(|(t, s)| *t == term && *s != slot);
        rec[1] = rec[0];
        rec[0] = (term, slot);
        if twice {
            self.fail(format!("two leaders in region {} term {term}", r.0));
        }
        // Leader Completeness binds leaders of later terms only: a stale candidate can still
        // win an earlier term (a vote granted then, delivered late) without entries committed
        // since. Only the latest commit is kept, so older ones are checked through it.
        let (ci, ct, in_term) = self.committed[r.0 as usize];
        if term > in_term && !Self::holds(log, runs, ci, ct) {
            self.fail(format!(
                "committed entry lost: new leader (slot {slot}, term {term}) of region {} lacks committed index {ci} term {ct}",
                r.0
            ));
        }
    }

    /// A peer in `term` advanced its commit index to `log.commit`.
    pub fn on_commit(&mut self, r: RegionId, log: &LogHead, runs: &LogRuns, term: u64) {
        let (ci, ct, _) = self.committed[r.0 as usize];
        let c = log.commit;
        if c < ci {
            return;
        }
        if !Self::holds(log, runs, ci, ct) {
            self.fail(format!(
                "committed entry lost: region {} committed index {ci} term {ct} differs on a peer committing {c}",
                r.0
            ));
        }
        if let Some(t) = log.term_at(runs, c) {
            self.committed[r.0 as usize] = (c, t, term);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raft::log::RaftLog;

    fn log_with(last_index: u64, term: u64) -> RaftLog {
        let mut log = RaftLog::at_snapshot(0, 0);
        log.append(last_index, term);
        log.commit_to(last_index);
        log
    }

    #[test]
    fn a_stale_term_leader_may_lack_a_later_commit_but_a_newer_one_may_not() {
        let r = RegionId(0);
        let mut inv = Invariants::new(1, 0, 0, 0, |_| 0);
        // Term 11 commits index 5 (entries of term 11).
        let l = log_with(5, 11);
        inv.on_commit(r, &l.head, &l.runs, 11);
        // A candidate of term 10 wins with a vote granted back in term 10: allowed.
        let l = log_with(3, 9);
        inv.on_leader(r, 10, 2, &l.head, &l.runs);
        assert_eq!(inv.violation, None);
        // A leader of term 12 without the entry breaks Leader Completeness.
        inv.on_leader(r, 12, 1, &l.head, &l.runs);
        assert!(inv
            .violation
            .as_deref()
            .is_some_and(|v| v.contains("lacks committed index 5")));
    }
}
