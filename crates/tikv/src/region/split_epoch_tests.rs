//! A split changes the region's epoch where its entry applies, and a request routed with the
//! old epoch answers EpochNotMatch, whether the leader takes it after the split applied or
//! before (then its entry is refused when it applies after the split's).

use crate::host::routed;
use crate::raft::state::OpEvent;
use crate::raft::state::OpOutcome;
use crate::store::raft_client_tests::ms;
use crate::store::raft_client_tests::world;

fn outcomes(events: Vec<OpEvent>, op: u64) -> Vec<OpOutcome> {
    events
        .into_iter()
        .filter(|e| e.op == op)
        .map(|e| e.outcome)
        .collect()
}

#[test]
fn a_request_with_the_old_epoch_is_refused_and_one_with_the_new_applies() {
    let mut w = world();
    w.run_until(ms(1_000));
    routed(&mut w.kernel, |cx| {
        w.model.propose_split(cx, 0, 0, (3, None))
    });
    routed(&mut w.kernel, |cx| w.model.flush(cx));
    w.run_until(ms(1_100));
    let events = w.model.take_op_events();
    let split = events.iter().find(|e| e.region == 0).map(|e| e.outcome);
    let want = OpOutcome::Split {
        first: 1,
        added: 2,
        version: 3,
        at: None,
    };
    assert_eq!(split, Some(want), "{events:?}");
    assert_eq!(w.model.region_count(), 3);
    routed(&mut w.kernel, |cx| w.model.propose_op(cx, 0, (0, 1), 7));
    assert_eq!(
        outcomes(w.model.take_op_events(), 7),
        vec![OpOutcome::EpochNotMatch],
        "refused at once, nothing proposed"
    );
    routed(&mut w.kernel, |cx| w.model.propose_op(cx, 0, (0, 3), 8));
    routed(&mut w.kernel, |cx| w.model.flush(cx));
    w.run_until(ms(1_200));
    let got = outcomes(w.model.take_op_events(), 8);
    assert_eq!(got, vec![OpOutcome::Applied, OpOutcome::Done]);
}

#[test]
fn a_request_taken_while_the_split_is_in_flight_is_refused_when_it_applies() {
    let mut w = world();
    w.run_until(ms(1_000));
    routed(&mut w.kernel, |cx| {
        w.model.propose_split(cx, 0, 0, (2, None))
    });
    // The split is proposed, not yet committed: the old epoch still passes at propose.
    routed(&mut w.kernel, |cx| w.model.propose_op(cx, 0, (0, 1), 9));
    assert!(w.model.take_op_events().is_empty());
    routed(&mut w.kernel, |cx| w.model.flush(cx));
    w.run_until(ms(1_100));
    let events = w.model.take_op_events();
    let order: Vec<OpOutcome> = events.iter().map(|e| e.outcome).collect();
    let split = OpOutcome::Split {
        first: 1,
        added: 1,
        version: 2,
        at: None,
    };
    assert_eq!(order, vec![split, OpOutcome::EpochNotMatch], "{events:?}");
}
