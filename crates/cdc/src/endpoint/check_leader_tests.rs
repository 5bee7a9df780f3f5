//! Message-level tests of the resolved-ts CheckLeader round: what a store's endpoint asks when
//! PD's min ts arrives, and what a follower's store answers.

use faultline_sim::World;

use crate::msg::CdcMsg;
use crate::out::{Command, Out};
use crate::stack::Stack;
use crate::test_world::{mysql_feed, secs};
use crate::ts::Ts;
use crate::upstream::txn_wire::TxnMsg;

/// A world replicating table 0 by 5 s, so endpoints hold subscriptions.
fn world() -> World<Stack> {
    let mut w = crate::test_world::world(1, vec![mysql_feed(1)]);
    w.run_until(secs(5));
    w
}

/// One CheckLeader request: to which store index, its round, and its `(region, term)` pairs.
type Ask = (usize, u64, Vec<(u32, u64)>);

/// Every CheckLeader request in `out`.
fn asks(w: &World<Stack>, out: &Out) -> Vec<Ask> {
    let stores = &w.model.cdc.stores;
    out.commands()
        .iter()
        .filter_map(|c| match c {
            Command::Send {
                to,
                msg: CdcMsg::Txn(TxnMsg::CheckLeader { round, regions }),
                ..
            } => Some((
                stores.iter().position(|s| s == to).unwrap(),
                *round,
                regions.clone(),
            )),
            _ => None,
        })
        .collect()
}

/// The first store whose endpoint holds a subscription.
fn subscribed_store(w: &World<Stack>) -> usize {
    let eps = &w.model.cdc.endpoints;
    eps.iter()
        .position(|ep| !ep.subs.is_empty())
        .expect("some store serves the changefeed by 5 s")
}

#[test]
fn a_min_ts_asks_each_follower_store_once_about_every_region_the_store_leads() {
    let mut w = world();
    let s = subscribed_store(&w);
    let round = w.model.cdc.endpoints[s].check.round;
    let Stack { tikv, cdc } = &mut w.model;
    let mut out = Out::default();
    cdc.endpoint_advance(&mut out, tikv, s as u32, Ts(1_000));
    let asked = asks(&w, &out);
    assert!(
        !asked.is_empty(),
        "a store with subscriptions asks its followers"
    );
    let mut targets: Vec<usize> = asked.iter().map(|(t, _, _)| *t).collect();
    targets.dedup();
    assert_eq!(targets.len(), asked.len(), "one request per store pair");
    let tikv = &w.model.tikv;
    for (t, r, regions) in &asked {
        assert_ne!(*t, s, "a store does not ask itself");
        assert_eq!(*r, round + 1, "a new round");
        for (region, term) in regions {
            assert_eq!(tikv.local_leader_term(s as u32, *region), Some(*term));
            let (stores, n) = tikv.region_stores(*region);
            assert!(
                stores[..n].contains(&(*t as u32)),
                "store {t} holds {region}"
            );
        }
    }
    let waiting = w.model.cdc.endpoints[s].check.waiting_len();
    assert_eq!(waiting, w.model.cdc.endpoints[s].subs.len());
}

#[test]
fn a_follower_confirms_the_leader_and_term_it_knows_and_nothing_else() {
    let w = world();
    let s = subscribed_store(&w);
    let tikv = &w.model.tikv;
    let cdc = &w.model.cdc;
    let region = *cdc.endpoints[s].subs.keys().next().unwrap();
    let term = tikv.local_leader_term(s as u32, region).unwrap();
    let (stores, n) = tikv.region_stores(region);
    let follower = *stores[..n].iter().find(|t| **t as usize != s).unwrap();
    let (from, to) = (cdc.stores[s], cdc.stores[follower as usize]);
    let mut out = Out::default();
    let asked = vec![(region, term), (region, term + 1)];
    cdc.on_check_leader(&mut out, tikv, from, to, 9, asked);
    let answer = CdcMsg::Txn(TxnMsg::CheckLeaderResp {
        round: 9,
        regions: vec![region],
    });
    let expected = Command::Send {
        from: to,
        to: from,
        msg: answer,
    };
    assert_eq!(
        out.commands(),
        &[expected],
        "only the right term is confirmed"
    );
}
