//! Raft safety invariants, checked incrementally where state changes (never by scanning all
//! peers): at most one leader per region per term, and a committed entry is never lost.

use crate::ids::RegionId;
use crate::raft::log::RaftLog;

/// Per-region records and the first violation seen.
#[derive(Clone, Debug)]
pub struct Invariants {
    /// Highest committed `(index, term)` seen in each region.
    committed: Vec<(u64, u64)>,
    /// The two most recent `(term, slot)` elections per region. Two leaders of one term would
    /// be elected close together (each voter votes once per term), so two entries suffice.
    leaders: Vec<[(u64, u8); 2]>,
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
            committed: vec![(index, term); regions],
            leaders: (0..regions)
                .map(|r| [(leader_term, slot_of(r)), (0, 0)])
                .collect(),
            violation: None,
        }
    }

    /// Records a violation (the first one wins).
    pub fn fail(&mut self, what: String) {
        if self.violation.is_none() {
            self.violation = Some(what);
        }
    }

    fn holds(log: &RaftLog, index: u64, term: u64) -> bool {
        // Compacted entries were committed before compaction; they cannot be checked here.
        index < log.snap_index || log.term_at(index) == Some(term)
    }

    /// A peer became leader of `term` with `log`.
    pub fn on_leader(&mut self, r: RegionId, term: u64, slot: u8, log: &RaftLog) {
        let rec = &mut self.leaders[r.0 as usize];
        let twice = rec.iter().any(|(t, s)| *t == term && *s != slot);
        rec[1] = rec[0];
        rec[0] = (term, slot);
        if twice {
            self.fail(format!("two leaders in region {} term {term}", r.0));
        }
        let (ci, ct) = self.committed[r.0 as usize];
        if !Self::holds(log, ci, ct) {
            self.fail(format!(
                "committed entry lost: new leader (slot {slot}, term {term}) of region {} lacks committed index {ci} term {ct}",
                r.0
            ));
        }
    }

    /// A peer's commit index advanced to `log.commit`.
    pub fn on_commit(&mut self, r: RegionId, log: &RaftLog) {
        let (ci, ct) = self.committed[r.0 as usize];
        let c = log.commit;
        if c < ci {
            return;
        }
        if !Self::holds(log, ci, ct) {
            self.fail(format!(
                "committed entry lost: region {} committed index {ci} term {ct} differs on a peer committing {c}",
                r.0
            ));
        }
        if let Some(t) = log.term_at(c) {
            self.committed[r.0 as usize] = (c, t);
        }
    }
}
