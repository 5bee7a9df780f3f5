//! The replication sets' two-phase moves and the scheduler's picks.

use super::*;

const A: CaptureId = (0, 1);
const B: CaptureId = (1, 1);

#[test]
fn two_phase_move_adds_secondary_commits_removes_then_promotes() {
    let mut rs = ReplicationSet {
        state: RsState::Replicating,
        primary: Some(A),
        secondary: None,
        checkpoint: Ts(10),
    };
    // The owner starts a move to B.
    rs.secondary = Some(B);
    rs.state = RsState::Prepare;
    assert_eq!(
        rs.pending_dispatch(),
        Some((B, Dispatch::AddSecondary { checkpoint: Ts(10) }))
    );
    // A keeps writing and reporting while B prepares.
    rs.on_report(A, Some(TableState::Replicating), Ts(12));
    assert_eq!(rs.checkpoint, Ts(12));
    rs.on_report(B, Some(TableState::Preparing), Ts(10));
    assert_eq!(rs.state, RsState::Prepare);
    rs.on_report(B, Some(TableState::Prepared), Ts(10));
    assert_eq!(rs.state, RsState::Commit);
    assert_eq!(rs.pending_dispatch(), Some((A, Dispatch::Remove)));
    // Still stopping: B must not be promoted yet (no double write).
    rs.on_report(A, Some(TableState::Stopping), Ts(12));
    assert_eq!(rs.pending_dispatch(), Some((A, Dispatch::Remove)));
    rs.on_report(A, Some(TableState::Stopped), Ts(13));
    assert_eq!(rs.pending_dispatch(), Some((B, Dispatch::Promote)));
    rs.on_report(B, Some(TableState::Replicating), Ts(13));
    assert_eq!(rs.state, RsState::Replicating);
    assert_eq!((rs.primary, rs.secondary), (Some(B), None));
}

#[test]
fn a_vanished_primary_leaves_the_table_absent_from_its_checkpoint() {
    let mut rs = ReplicationSet {
        state: RsState::Replicating,
        primary: Some(A),
        secondary: None,
        checkpoint: Ts(42),
    };
    rs.on_capture_removed(A);
    assert_eq!(rs, ReplicationSet::absent(Ts(42)));
}

#[test]
fn a_vanished_primary_during_commit_promotes_the_prepared_secondary() {
    let mut rs = ReplicationSet {
        state: RsState::Commit,
        primary: Some(A),
        secondary: Some(B),
        checkpoint: Ts(7),
    };
    rs.on_capture_removed(A);
    assert_eq!(rs.pending_dispatch(), Some((B, Dispatch::Promote)));
}

const C: CaptureId = (2, 1);

fn replicating_on(p: CaptureId) -> ReplicationSet {
    ReplicationSet {
        state: RsState::Replicating,
        primary: Some(p),
        secondary: None,
        checkpoint: Ts(1),
    }
}

/// One changefeed whose tables 0..n are replicating on the given captures, in order.
fn scheduler(primaries: &[CaptureId]) -> Scheduler {
    let mut s = Scheduler::default();
    for c in [A, B, C] {
        s.captures.insert(c, None);
    }
    let sets = primaries
        .iter()
        .enumerate()
        .map(|(t, p)| (t as u32, replicating_on(*p)))
        .collect();
    s.tables = vec![sets];
    s
}

#[test]
fn the_planner_dispatches_what_each_transitional_set_needs_next() {
    let mut s = scheduler(&[A, A, B, A]);
    assert_eq!(s.dispatches(), vec![], "replicating sets need nothing");
    let sets = &mut s.tables[0];
    // Table 0 moves A -> C (prepare); table 1's move onto C is at commit; table 2 lost its
    // primary at commit; table 3 belongs to a paused changefeed.
    let prepare = sets.get_mut(&0).expect("table 0");
    (prepare.state, prepare.secondary) = (RsState::Prepare, Some(C));
    let commit = sets.get_mut(&1).expect("table 1");
    (commit.state, commit.secondary) = (RsState::Commit, Some(C));
    let promote = sets.get_mut(&2).expect("table 2");
    (promote.state, promote.primary, promote.secondary) = (RsState::Commit, None, Some(A));
    sets.get_mut(&3).expect("table 3").state = RsState::Removing;
    let add = Dispatch::AddSecondary { checkpoint: Ts(1) };
    assert_eq!(
        s.dispatches(),
        vec![
            (0, 0, C, add),
            (0, 1, A, Dispatch::Remove),
            (0, 2, A, Dispatch::Promote),
            (0, 3, A, Dispatch::Remove),
        ]
    );
}

#[test]
fn the_planner_moves_a_draining_captures_table_first_balance_or_not() {
    // A holds 3 tables, B 1 (on the draining capture index 1), C none.
    let s = scheduler(&[A, A, B, A]);
    assert_eq!(s.pick(&[1]), Some(C), "the least loaded candidate");
    for balance_due in [false, true] {
        assert_eq!(s.next_move(&[1], balance_due, C), Some((0, 2)));
    }
}

#[test]
fn the_planner_balances_only_when_due_and_the_gap_is_two_tables() {
    // (tables per capture as primaries, balance due, expected move onto C)
    type Move = Option<(usize, u32)>;
    let cases: &[(&[CaptureId], bool, Move)] = &[
        (&[A, A, B], false, None),
        (&[A, A, B], true, Some((0, 0))),
        (&[A, B], true, None),
        (&[B, A, B, B], true, Some((0, 0))),
    ];
    for (primaries, due, want) in cases {
        let s = scheduler(primaries);
        assert_eq!(
            s.next_move(&[], *due, C),
            *want,
            "{primaries:?} balance due {due}"
        );
    }
}

/// tiflow `pollOnCommit`: a secondary that lost the table during Commit (its processor
/// restarted with the changefeed) is forgotten, and with no primary the table is added again;
/// a primary that kept replicating takes the set back to Replicating.
#[test]
fn a_secondary_that_lost_the_table_during_commit_is_forgotten() {
    let mut rs = ReplicationSet {
        state: RsState::Commit,
        primary: None,
        secondary: Some(B),
        checkpoint: Ts(7),
    };
    assert_eq!(rs.pending_dispatch(), Some((B, Dispatch::Promote)));
    rs.on_report(B, None, Ts::ZERO);
    assert_eq!(rs, ReplicationSet::absent(Ts(7)));
    let mut kept = ReplicationSet {
        state: RsState::Commit,
        primary: Some(A),
        secondary: Some(B),
        checkpoint: Ts(7),
    };
    kept.on_report(B, None, Ts::ZERO);
    assert_eq!((kept.state, kept.secondary), (RsState::Commit, None));
    let mut stopped = kept;
    kept.on_report(A, Some(TableState::Replicating), Ts(9));
    assert_eq!(kept.state, RsState::Replicating);
    // Or the primary stops too: nobody has the table, so it is added again.
    stopped.on_report(A, Some(TableState::Stopped), Ts(8));
    assert_eq!(stopped, ReplicationSet::absent(Ts(7)));
}
