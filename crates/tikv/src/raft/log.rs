//! A Raft log without payloads: only the term of each index matters to the protocol, and terms
//! come in runs (a leader appends only entries of its own term), so the log is a snapshot point
//! plus at most [`MAX_RUNS`] `(first_index, term)` runs. It is a fixed-size value: no heap per
//! peer, which keeps 768,000 peers compact. A peer keeps it in two parts, [`LogHead`] and
//! [`LogRuns`]; [`RaftLog`] holds both where no peer is involved.

/// Term runs kept before the oldest committed run is compacted into the snapshot point.
pub const MAX_RUNS: usize = 4;

/// The part of a peer's log that every tick, heartbeat and vote reads: its indexes and the
/// last entry's term. It lives in the peer itself (`Peer::log`); the term runs, which only
/// appends and conflicts read, live in the peer's tail ([`LogRuns`], `PeerTail::runs`), so a
/// playground snapshot copies the runs only of peers that appended (docs/bench.md, "A peer in
/// two parts"). Methods that need the runs take them as an argument.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct LogHead {
    /// Last index in the log.
    pub last_index: u64,
    /// Highest index known committed (persisted with the hard state).
    pub commit: u64,
    /// Term of `last_index`, kept by every change to the log so that a follower's tick
    /// (`follower_may_sleep`) and a vote (`is_up_to_date`) need not read the runs.
    last_term: u64,
    /// Entries up to here are compacted (applied and dropped); its term is `snap_term`.
    pub snap_index: u64,
    /// Term of `snap_index`.
    pub snap_term: u64,
}

/// The term runs of a log: at most [`MAX_RUNS`] `(first_index, term)` pairs after the
/// snapshot point, oldest first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LogRuns {
    runs: [(u64, u64); MAX_RUNS],
    nruns: u8,
}

impl LogRuns {
    fn as_slice(&self) -> &[(u64, u64)] {
        &self.runs[..self.nruns as usize]
    }
}

impl LogHead {
    /// A log compacted at `(index, term)` with that index committed; its runs are empty.
    pub fn at_snapshot(index: u64, term: u64) -> Self {
        LogHead {
            snap_index: index,
            snap_term: term,
            last_index: index,
            commit: index,
            last_term: term,
        }
    }

    /// Term of entry `i`, or `None` if compacted away or beyond the end.
    pub fn term_at(&self, runs: &LogRuns, i: u64) -> Option<u64> {
        if i == self.snap_index {
            return Some(self.snap_term);
        }
        if i < self.snap_index || i > self.last_index {
            return None;
        }
        runs.as_slice()
            .iter()
            .rev()
            .find(|(start, _)| *start <= i)
            .map(|(_, t)| *t)
    }

    /// Term of the last entry.
    pub fn last_term(&self) -> u64 {
        self.last_term
    }

    /// Term of the last entry, read off the runs (what `last_term` caches).
    fn last_term_from_runs(&self, runs: &LogRuns) -> u64 {
        self.term_at(runs, self.last_index)
            .unwrap_or(self.snap_term)
    }

    /// Last index of the run containing `i` (entries `i..=end` share one term).
    pub fn run_end(&self, runs: &LogRuns, i: u64) -> u64 {
        let r = runs.as_slice();
        for k in 0..r.len() {
            let next_start = r.get(k + 1).map_or(self.last_index + 1, |n| n.0);
            if r[k].0 <= i && i < next_start {
                return next_start - 1;
            }
        }
        self.last_index
    }

    /// Raft's up-to-date rule for granting a vote.
    pub fn is_up_to_date(&self, last_index: u64, last_term: u64) -> bool {
        let my_term = self.last_term();
        last_term > my_term || (last_term == my_term && last_index >= self.last_index)
    }

    /// Appends `n` entries of `term` at the end.
    pub fn append(&mut self, runs: &mut LogRuns, n: u64, term: u64) {
        if n == 0 {
            return;
        }
        let start = self.last_index + 1;
        self.last_index += n;
        self.last_term = term;
        let k = runs.nruns as usize;
        if k > 0 && runs.runs[k - 1].1 == term {
            return;
        }
        if k == MAX_RUNS {
            self.compact_oldest_run(runs);
        }
        let k = runs.nruns as usize;
        runs.runs[k] = (start, term);
        runs.nruns += 1;
    }

    /// Folds the oldest run into the snapshot point. Normally that run is committed (log GC);
    /// if it is not (a peer that led several terms without committing), the model still
    /// compacts it: a simplification the committed-entry invariant would expose if it ever
    /// mattered.
    fn compact_oldest_run(&mut self, runs: &mut LogRuns) {
        let end = runs.runs[1].0 - 1;
        self.snap_term = runs.runs[0].1;
        self.snap_index = end;
        runs.runs.copy_within(1.., 0);
        runs.nruns -= 1;
    }

    /// Drops every entry after `i` (conflict resolution). Returns false if that would drop a
    /// committed entry, which Raft forbids.
    pub fn truncate_after(&mut self, runs: &mut LogRuns, i: u64) -> bool {
        if i >= self.last_index {
            return true;
        }
        if i < self.commit {
            return false;
        }
        self.last_index = i;
        while runs.nruns > 0 && runs.runs[runs.nruns as usize - 1].0 > i {
            runs.nruns -= 1;
        }
        self.last_term = self.last_term_from_runs(runs);
        true
    }

    /// First index in `from..=to` whose existing term differs from `term`, or the first index
    /// past the end; `None` if all of `from..=to` already hold `term`.
    pub fn first_conflict(&self, runs: &LogRuns, from: u64, to: u64, term: u64) -> Option<u64> {
        let mut i = from;
        while i <= to {
            match self.term_at(runs, i) {
                None => return Some(i),
                Some(t) if t != term => return Some(i),
                Some(_) => i = self.run_end(runs, i) + 1,
            }
        }
        None
    }

    /// Replaces the log by a snapshot at `(index, term)`.
    pub fn restore(&mut self, runs: &mut LogRuns, index: u64, term: u64) {
        *self = LogHead::at_snapshot(index, term);
        *runs = LogRuns::default();
    }

    /// Raises the commit index (never lowers it); returns how many entries became committed.
    pub fn commit_to(&mut self, c: u64) -> u64 {
        let c = c.min(self.last_index);
        if c > self.commit {
            let n = c - self.commit;
            self.commit = c;
            n
        } else {
            0
        }
    }
}

/// A whole log in one value, head and runs: what a peer is built from, and what the
/// invariants and tests keep where no peer is involved.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RaftLog {
    /// Indexes and last term.
    pub head: LogHead,
    /// Term runs.
    pub runs: LogRuns,
}

impl RaftLog {
    /// A log compacted at `(index, term)` with that index committed (TiKV bootstraps regions
    /// at `RAFT_INIT_LOG_INDEX = 5`, term 5).
    pub fn at_snapshot(index: u64, term: u64) -> Self {
        RaftLog {
            head: LogHead::at_snapshot(index, term),
            runs: LogRuns::default(),
        }
    }

    /// Term of entry `i` (see [`LogHead::term_at`]).
    pub fn term_at(&self, i: u64) -> Option<u64> {
        self.head.term_at(&self.runs, i)
    }

    /// Appends `n` entries of `term` (see [`LogHead::append`]).
    pub fn append(&mut self, n: u64, term: u64) {
        self.head.append(&mut self.runs, n, term);
    }

    /// Raises the commit index (see [`LogHead::commit_to`]).
    pub fn commit_to(&mut self, c: u64) -> u64 {
        self.head.commit_to(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_answer_terms_and_conflicts() {
        let RaftLog {
            head: mut l,
            mut runs,
        } = RaftLog::at_snapshot(5, 5);
        l.append(&mut runs, 2, 6); // 6,7 @6
        l.append(&mut runs, 1, 7); // 8 @7
        assert_eq!(l.term_at(&runs, 5), Some(5));
        assert_eq!(l.term_at(&runs, 7), Some(6));
        assert_eq!(l.term_at(&runs, 8), Some(7));
        assert_eq!(l.term_at(&runs, 9), None);
        assert_eq!(l.run_end(&runs, 6), 7);
        assert_eq!(l.first_conflict(&runs, 6, 7, 6), None);
        assert_eq!(l.first_conflict(&runs, 6, 9, 6), Some(8));
        assert!(l.truncate_after(&mut runs, 7));
        assert_eq!(l.last_term(), 6);
        l.commit_to(7);
        assert!(
            !l.truncate_after(&mut runs, 6),
            "committed entries cannot be truncated"
        );
    }

    #[test]
    fn compaction_keeps_recent_terms() {
        let mut l = RaftLog::at_snapshot(5, 5);
        for t in 6..12 {
            l.append(1, t);
            l.commit_to(l.head.last_index);
        }
        assert_eq!(l.head.last_index, 11);
        assert_eq!(l.term_at(11), Some(11));
        assert!(l.head.snap_index >= 7);
    }

    /// One change to a log, as Raft makes them.
    #[derive(Clone, Debug)]
    enum Change {
        Append(u64, u64),
        TruncateAfter(u64),
        CommitTo(u64),
        Restore(u64, u64),
    }

    fn change() -> impl proptest::strategy::Strategy<Value = Change> {
        use proptest::prelude::*;
        prop_oneof![
            (0u64..4, 0u64..3).prop_map(|(n, dt)| Change::Append(n, dt)),
            (0u64..40).prop_map(Change::TruncateAfter),
            (0u64..40).prop_map(Change::CommitTo),
            (0u64..40, 0u64..3).prop_map(|(i, dt)| Change::Restore(i, dt)),
        ]
    }

    proptest::proptest! {
        /// The cached last term always equals the term the runs give the last index, through
        /// appends (with compaction), truncations, commits and snapshots.
        #[test]
        fn the_cached_last_term_matches_the_runs(changes in proptest::collection::vec(change(), 0..60)) {
            let RaftLog { head: mut l, mut runs } = RaftLog::at_snapshot(5, 5);
            let mut term = 5;
            for c in changes {
                match c {
                    Change::Append(n, dt) => {
                        term += dt;
                        l.append(&mut runs, n, term);
                    }
                    Change::TruncateAfter(i) => {
                        l.truncate_after(&mut runs, i.max(l.snap_index));
                    }
                    Change::CommitTo(c) => {
                        l.commit_to(c);
                    }
                    Change::Restore(i, dt) => {
                        term += dt;
                        l.restore(&mut runs, i, term);
                    }
                }
                proptest::prop_assert_eq!(l.last_term(), l.last_term_from_runs(&runs));
            }
        }
    }
}
