//! Unit tests of PD's answers to the clients' requests.

use crate::test_world::{mysql_feed, secs, world};
use crate::ts::Ts;
use crate::upstream::pd_wire::PdMsg;

fn tso(answer: Option<PdMsg>) -> (Ts, u32) {
    match answer {
        Some(PdMsg::TsoResponse { first, count, .. }) => (first, count),
        other => panic!("not a TSO answer: {other:?}"),
    }
}

#[test]
fn tso_batches_never_overlap_even_within_one_instant() {
    let mut w = world(1, vec![mysql_feed(1)]);
    w.run_until(secs(2));
    let crate::stack::Stack { tikv, cdc } = &mut w.model;
    let ask = |batch, count| PdMsg::TsoRequest { batch, count };
    let (a, n) = tso(cdc.pd_answer(tikv, secs(3), &ask(1, 5)));
    assert_eq!(n, 5, "a batch answers as many as asked");
    let (b, _) = tso(cdc.pd_answer(tikv, secs(3), &ask(2, 1)));
    assert!(
        b.0 >= a.0 + 5,
        "the second batch starts after the first's 5: {a:?} {b:?}"
    );
    let (c, _) = tso(cdc.pd_answer(tikv, secs(4), &ask(3, 1)));
    assert!(
        c.0 > b.0 && c >= Ts::at(secs(4), 0),
        "a later instant: {c:?}"
    );
}

#[test]
fn get_region_answers_the_leader_pd_last_heard_of_and_nothing_for_an_answer() {
    let mut w = world(1, vec![mysql_feed(1)]);
    w.run_until(secs(5));
    let crate::stack::Stack { tikv, cdc } = &mut w.model;
    let answer = cdc.pd_answer(tikv, secs(5), &PdMsg::GetRegion { region: 3 });
    let leader = tikv.pd_region_leader_store(3);
    assert!(leader.is_some(), "PD knows region 3's leader by 5 s");
    assert_eq!(answer, Some(PdMsg::GetRegionResponse { region: 3, leader }));
    let reply = PdMsg::GetRegionResponse { region: 3, leader };
    assert_eq!(cdc.pd_answer(tikv, secs(5), &reply), None);
}
