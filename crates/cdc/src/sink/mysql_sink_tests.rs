//! Message-level tests of the MySQL sink: one capture, one MySQL changefeed, no workload; a
//! batch is put in flight by hand and sent as the table sink would send it.

use faultline_sim::World;

use crate::msg::CdcMsg;
use crate::owner::scheduler::TableState;
use crate::stack::Stack;
use crate::test_world::{mysql_feed, secs, ROW};
use crate::ts::Ts;

/// A world whose only table 0 replicates on capture 0 by 5 s.
fn world() -> World<Stack> {
    let mut w = crate::test_world::world(1, vec![mysql_feed(1)]);
    w.run_until(secs(5));
    let tables = &w.model.cdc.sessions[0].tables;
    assert_eq!(tables.get(&(0, 0)), Some(&TableState::Replicating));
    w
}

/// Puts one batch holding `ROW` in flight on table 0 and sends it to MySQL; returns the
/// checkpoint its acknowledgement promises.
fn write_batch(w: &mut World<Stack>) -> Ts {
    let Stack { tikv, cdc } = &mut w.model;
    let p = &mut cdc.processors[0][0];
    let batch = p.next_batch;
    p.next_batch += 1;
    let sink = p.tables.get_mut(&0).expect("table 0 is here");
    let up_to = Ts(sink.checkpoint.0 + (1 << 30));
    sink.in_flight = Some((batch, up_to, 1));
    sink.in_flight_rows = vec![ROW];
    let (capture, mysql) = (cdc.captures[0], cdc.mysql.expect("a MySQL changefeed"));
    let write = CdcMsg::MysqlWrite {
        cf: 0,
        table: 0,
        batch,
        rows: vec![ROW],
        up_to,
    };
    cdc.on_message(&mut w.kernel, tikv, capture, mysql, write);
    up_to
}

#[test]
fn a_batch_is_applied_after_the_write_latency_and_its_ack_moves_the_checkpoint() {
    let mut w = world();
    let up_to = write_batch(&mut w);
    let cdc = &w.model.cdc;
    assert_ne!(
        cdc.downstream[0].rows[3].value, 42,
        "not applied on arrival"
    );
    w.run_until(secs(6));
    let cdc = &w.model.cdc;
    assert_eq!(cdc.downstream[0].rows[3].value, 42);
    let sink = &cdc.processors[0][0].tables[&0];
    assert_eq!(sink.in_flight, None, "acknowledged");
    assert!(sink.checkpoint >= up_to);
}

#[test]
fn a_batch_of_a_connection_closed_before_it_commits_is_rolled_back() {
    let mut w = world();
    write_batch(&mut w);
    // The capture closes its processors (its session ended) while MySQL still waits to apply.
    w.model.cdc.close_mysql_connections(0);
    w.run_until(secs(6));
    let cdc = &w.model.cdc;
    assert_ne!(cdc.downstream[0].rows[3].value, 42, "rolled back");
    assert!(cdc.downstream[0].queued.is_empty());
}
