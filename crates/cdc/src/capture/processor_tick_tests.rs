//! Message-level tests of a processor's writes: one MySQL batch in flight per table, nothing
//! while MySQL cannot be reached, and every table's watermarks for the owner either way.

use faultline_sim::{Fault, LinkChange, World};

use crate::change::RowChange;
use crate::msg::CdcMsg;
use crate::out::{Command, Out, Reach};
use crate::stack::Stack;
use crate::test_world::{cx_at, mysql_feed, secs};
use crate::ts::Ts;

/// One capture replicating tables 0 and 1 by 5 s, table 0 with one row ready to write (its
/// previous batch acknowledged) and table 1 with nothing new.
fn world() -> World<Stack> {
    let mut w = crate::test_world::world(1, vec![mysql_feed(2)]);
    w.run_until(secs(5));
    let p = &mut w.model.cdc.processors[0][0];
    p.barrier = Ts::at(secs(5), 0);
    for sink in p.tables.values_mut() {
        sink.in_flight = None;
        sink.buffer.clear();
    }
    let row = RowChange {
        key: 3,
        value: 42,
        start_ts: Ts::at(secs(1), 0),
        commit_ts: Ts::at(secs(1), 1),
    };
    let sink = p.tables.get_mut(&0).unwrap();
    sink.buffer.insert((row.commit_ts, row.key), row);
    w
}

/// `(table, rows)` of every MySQL write in `out`.
fn writes(out: &Out) -> Vec<(u32, usize)> {
    out.commands()
        .iter()
        .filter_map(|c| match c {
            Command::SendOrdered {
                msg: CdcMsg::MysqlWrite { table, rows, .. },
                ..
            } => Some((*table, rows.len())),
            _ => None,
        })
        .collect()
}

#[test]
fn a_ready_row_goes_out_as_one_batch_and_the_next_waits_for_its_ack() {
    let mut w = world();
    let mut cx = cx_at(w.kernel.now(), &w.kernel.net);
    let first = w.model.cdc.write_tables(&mut cx, 0, 0);
    assert_eq!(
        writes(&cx.out),
        vec![(0, 1)],
        "table 1 has nothing to write"
    );
    assert!(
        first.kafka.is_empty(),
        "a MySQL changefeed produces nothing to Kafka"
    );
    let tables: Vec<u32> = first.status.iter().map(|(t, _, _)| *t).collect();
    assert_eq!(
        tables,
        vec![0, 1],
        "every table's watermarks go to the owner"
    );
    let row = RowChange {
        key: 4,
        value: 1,
        start_ts: Ts::at(secs(2), 0),
        commit_ts: Ts::at(secs(2), 1),
    };
    let p = &mut w.model.cdc.processors[0][0];
    p.tables
        .get_mut(&0)
        .unwrap()
        .buffer
        .insert((row.commit_ts, row.key), row);
    let mut cx = cx_at(w.kernel.now(), &w.kernel.net);
    w.model.cdc.write_tables(&mut cx, 0, 0);
    assert!(writes(&cx.out).is_empty(), "one batch in flight per table");
}

#[test]
fn nothing_is_written_while_the_link_to_mysql_is_cut() {
    let mut w = world();
    let (capture, mysql) = (w.model.cdc.captures[0], w.model.cdc.mysql.unwrap());
    w.kernel.schedule_fault(
        secs(5),
        Fault::Links {
            from: vec![capture],
            to: vec![mysql],
            both_ways: true,
            change: LinkChange::Cut,
        },
    );
    w.run_until(secs(5));
    let reach = Reach::new(&w.kernel.net);
    assert!(!reach.link_clean(capture, mysql), "the cut is in place");
    let mut cx = cx_at(w.kernel.now(), &w.kernel.net);
    let written = w.model.cdc.write_tables(&mut cx, 0, 0);
    assert!(writes(&cx.out).is_empty(), "{:?}", cx.out);
    assert_eq!(written.status.len(), 2, "the owner still hears both tables");
    let sink = &w.model.cdc.processors[0][0].tables[&0];
    assert_eq!(sink.buffer.len(), 1, "the row waits");
}
