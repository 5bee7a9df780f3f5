//! A request that reaches a follower wakes it, and a client whose leader's store is down
//! tries a follower (TiKV `pre_propose_raft_command`, client-go `tryFollower`).

use crate::host::routed;
use faultline_sim::{Fault, SimDuration};

use crate::action::TikvAction;
use crate::ids::PeerId;
use crate::store::raft_client_tests::ms;
use crate::store::raft_client_tests::world;
use crate::store::state::GroupState;

#[test]
fn request_on_a_sleeping_follower_wakes_it_and_is_refused() {
    let mut w = world();
    w.run_until(ms(1_000));
    let follower = PeerId(1);
    assert_eq!(w.model.peers[follower.ix()].group, GroupState::Idle);
    routed(&mut w.kernel, |cx| w.model.propose_op(cx, 1, (0, 0), 0));
    let m = &w.model;
    assert_eq!(m.peers[follower.ix()].group, GroupState::Chaos);
    assert!(m.peers[follower.ix()].awake, "its tick is registered");
    assert_eq!(m.book.follower_wakeups, 1);
    assert_eq!(m.book.writes_proposed, 0, "NotLeader: nothing proposed");
}

#[test]
fn request_on_the_leader_wakes_no_follower() {
    let mut w = world();
    w.run_until(ms(1_000));
    routed(&mut w.kernel, |cx| w.model.propose_op(cx, 0, (0, 0), 0));
    assert_eq!(w.model.book.follower_wakeups, 0);
    assert_eq!(w.model.book.writes_proposed, 1);
}

#[test]
fn write_to_a_region_whose_leader_died_wakes_a_follower_that_then_campaigns() {
    let mut w = world();
    let victim = w.model.store_nodes()[0];
    w.kernel.schedule_fault(ms(5_000), Fault::Crash(victim));
    // Keep the StoreUnreachable broadcast out of the picture: put the followers back to sleep
    // after it, as the tikv#14547 race does.
    w.run_until(ms(6_000));
    for pid in [PeerId(1), PeerId(2)] {
        w.model.set_group(pid, GroupState::Idle);
        w.model.peers[pid.ix()].awake = false;
    }
    let (node, timer) = w.model.action_timer(TikvAction::Write { region: 0 });
    w.kernel.set_timer(node, SimDuration::from_millis(1), timer);
    w.run_until(ms(6_100));
    assert_eq!(
        w.model.book.follower_wakeups, 1,
        "the client tried a follower"
    );
    w.run_until(ms(40_000));
    assert!(
        w.model.book.leaderless.is_empty(),
        "the woken follower campaigned and won"
    );
}
