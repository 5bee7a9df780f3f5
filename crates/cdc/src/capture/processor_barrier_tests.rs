//! Message-level tests of the processor's barrier: a table sink writes no further than the
//! changefeed's resolved ts the owner's heartbeat last brought, so an owner that stops
//! ticking stops downstream writes on every capture, not only the checkpoint.

use faultline_sim::{Fault, NodeId, SimTime, World};

use crate::config::{CdcConfig, WorkloadConfig};
use crate::stack::Stack;
use crate::test_world::{mysql_feed, secs, world_with};
use crate::ts::Ts;

/// Two captures, two tables of a MySQL changefeed, 50 txn/s, running for 5 s.
fn world() -> World<Stack> {
    let cdc = CdcConfig {
        captures: 2,
        changefeeds: vec![mysql_feed(2)],
        workload: WorkloadConfig {
            txns_per_sec: 50,
            tables: 2,
            ..WorkloadConfig::default()
        },
        ..CdcConfig::default()
    };
    let mut w = world_with(cdc);
    w.run_until(secs(5));
    w
}

/// The owner capture and a (capture, table) whose primary is another capture.
fn owner_and_other_table(w: &World<Stack>) -> (u32, (u32, u32)) {
    let cdc = &w.model.cdc;
    let owner = cdc.owner_capture().expect("an owner");
    let table = (0..2)
        .find(|t| cdc.table_primary(0, *t).is_some_and(|c| c != owner))
        .expect("the scheduler spreads two tables over two captures");
    (owner, (cdc.table_primary(0, table).expect("found"), table))
}

fn sink_checkpoint(w: &World<Stack>, (c, table): (u32, u32)) -> Ts {
    w.model.cdc.processors[c as usize][0].tables[&table].checkpoint
}

#[test]
fn a_barrier_only_moves_up() {
    let mut p = crate::capture::processor::Processor::new(crate::capture::kvclient::KvClient::new(
        Default::default(),
    ));
    p.hear_barrier(Ts(10));
    p.hear_barrier(Ts(7));
    assert_eq!(p.barrier, Ts(10), "a late heartbeat of an older term");
}

#[test]
fn a_stopped_owner_stops_the_other_captures_downstream_writes() {
    let mut w = world();
    let (owner, other) = owner_and_other_table(&w);
    assert!(
        sink_checkpoint(&w, other) > Ts::at(SimTime(3_000_000), 0),
        "replicating"
    );
    let owner_node: NodeId = w.model.cdc.captures[owner as usize];
    // SIGSTOP the owner for less than a lease TTL: nobody else becomes owner meanwhile.
    w.kernel.schedule_fault(secs(6), Fault::Pause(owner_node));
    w.run_until(secs(6));
    let resolved_at_pause = w.model.cdc.watermarks[0].resolved;
    w.run_until(secs(7));
    let held = sink_checkpoint(&w, other);
    w.run_until(secs(13));
    let cdc = &w.model.cdc;
    assert_eq!(cdc.owner_capture(), Some(owner), "still the owner");
    assert_eq!(
        sink_checkpoint(&w, other),
        held,
        "no write past the barrier"
    );
    assert!(
        held <= resolved_at_pause,
        "{held:?} > {resolved_at_pause:?}"
    );
    let (c, table) = other;
    let pulled = cdc.processors[c as usize][0].table_resolved(&cdc.ks, table);
    assert!(
        pulled > Ts::at(secs(10), 0),
        "the puller went on: only the barrier holds the sink ({pulled:?})"
    );
}
