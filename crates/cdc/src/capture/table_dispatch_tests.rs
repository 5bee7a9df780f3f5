//! Message-level tests of a capture's answers to its owner: the heartbeat report and the
//! answer to one dispatch.

use faultline_sim::{NodeId, World};

use crate::etcd::wire::SessionMsg;
use crate::msg::CdcMsg;
use crate::out::{Command, Out};
use crate::owner::scheduler::{TableReport, TableState};
use crate::stack::Stack;
use crate::test_world::{mysql_feed, secs};
use crate::ts::Ts;

const OWNER: NodeId = NodeId(99);

/// One capture replicating tables 0 and 1 of one changefeed by 5 s.
fn world() -> World<Stack> {
    let mut w = crate::test_world::world(1, vec![mysql_feed(2)]);
    w.run_until(secs(5));
    w
}

/// The one message in `out`, which must go over the ordered stream from cdc-1 to the owner.
fn answer(w: &World<Stack>, out: &Out) -> SessionMsg {
    match out.commands() {
        [Command::SendOrdered {
            from,
            to,
            msg: CdcMsg::Session(m),
        }] => {
            assert_eq!((*from, *to), (w.model.cdc.captures[0], OWNER));
            m.clone()
        }
        other => panic!("expected one ordered session message: {other:?}"),
    }
}

#[test]
fn a_heartbeat_report_lists_every_table_with_its_state_and_checkpoint() {
    let mut w = world();
    let mut out = Out::default();
    w.model.cdc.send_report(&mut out, 0, OWNER);
    let SessionMsg::Report { from, tables } = answer(&w, &out) else {
        panic!("not a report");
    };
    assert_eq!(from, w.model.cdc.sessions[0].id(0));
    let states: Vec<(u32, TableState)> = tables.iter().map(|t| (t.table, t.state)).collect();
    assert_eq!(
        states,
        vec![(0, TableState::Replicating), (1, TableState::Replicating)]
    );
    for TableReport {
        table, checkpoint, ..
    } in &tables
    {
        let held = w.model.cdc.processors[0][0].tables[table].checkpoint;
        assert_eq!(*checkpoint, held, "table {table}");
        assert!(*checkpoint > Ts::ZERO, "table {table} has replicated");
    }
}

#[test]
fn a_dispatch_answer_carries_only_the_dispatched_table() {
    let mut w = world();
    let mut out = Out::default();
    w.model.cdc.send_dispatch_response(&mut out, 0, OWNER, 0, 1);
    let SessionMsg::DispatchResponse {
        cf, table, state, ..
    } = answer(&w, &out)
    else {
        panic!("not a dispatch answer");
    };
    assert_eq!((cf, table, state), (0, 1, Some(TableState::Replicating)));
    let mut out = Out::default();
    w.model.cdc.send_dispatch_response(&mut out, 0, OWNER, 0, 7);
    let SessionMsg::DispatchResponse {
        state, checkpoint, ..
    } = answer(&w, &out)
    else {
        panic!("not a dispatch answer");
    };
    assert_eq!(
        (state, checkpoint),
        (None, Ts::ZERO),
        "a table not held here"
    );
}
