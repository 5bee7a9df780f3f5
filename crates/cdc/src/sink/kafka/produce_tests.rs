//! Message-level tests of the Kafka producer path: a batch goes to its partition's leader with
//! the producer timeout armed, the leader appends and acks, and only the ack of the batch in
//! flight moves the table sink's checkpoint.

use faultline_sim::{NodeId, World};

use crate::config::SinkClose;
use crate::msg::{CdcMsg, CdcTimer};
use crate::out::{Command, Out};
use crate::stack::Stack;
use crate::test_world::{kafka_config, secs, world_with, ROW};
use crate::ts::Ts;

/// One capture, one Open Protocol changefeed over table 0, one broker, at 5 s.
fn world() -> World<Stack> {
    let mut w = world_with(kafka_config(1, SinkClose::default()));
    w.run_until(secs(5));
    w
}

/// The broker a produce in `out` went to, and whether the send timeout was armed.
fn produced(out: &Out) -> (Option<NodeId>, bool) {
    let mut to_broker = None;
    let mut timer = false;
    for c in out.commands() {
        match c {
            Command::SendOrdered {
                to,
                msg: CdcMsg::KafkaProduce { .. },
                ..
            } => to_broker = Some(*to),
            Command::SetTimer {
                timer: CdcTimer::KafkaSendTimeout { .. },
                ..
            } => timer = true,
            _ => {}
        }
    }
    (to_broker, timer)
}

#[test]
fn a_batch_goes_to_the_partition_leader_with_the_timeout_armed() {
    let mut w = world();
    let broker = w.model.cdc.kafka.brokers[0];
    let mut out = Out::default();
    w.model.cdc.kafka_produce(&mut out, 0, 0, 0, 9, vec![ROW]);
    assert_eq!(produced(&out), (Some(broker), true));
}

#[test]
fn without_a_live_leader_the_batch_only_waits_for_its_timeout() {
    let mut w = world();
    w.model.cdc.kafka.alive[0] = false;
    let mut out = Out::default();
    w.model.cdc.kafka_produce(&mut out, 0, 0, 0, 9, vec![ROW]);
    assert_eq!(produced(&out), (None, true));
}

#[test]
fn the_leader_appends_and_acks_and_only_the_batch_in_flight_moves_the_checkpoint() {
    let mut w = world();
    let broker = w.model.cdc.kafka.brokers[0];
    let capture = w.model.cdc.captures[0];
    let mut out = Out::default();
    w.model.cdc.kafka_produce(&mut out, 0, 0, 0, 9, vec![ROW]);
    let Some(Command::SendOrdered {
        msg:
            CdcMsg::KafkaProduce {
                partition,
                batch,
                messages,
                ..
            },
        ..
    }) = out.commands().first().cloned()
    else {
        panic!("a produce first: {out:?}");
    };
    let offset = |w: &World<Stack>| {
        w.model.cdc.kafka.topics[0].as_ref().unwrap().partitions[partition as usize].offset
    };
    let before = offset(&w);
    let mut acks = Out::default();
    w.model
        .cdc
        .kafka_on_produce(&mut acks, broker, 0, partition, batch, messages);
    assert_eq!(offset(&w), before + 1, "one message appended");
    let ack = CdcMsg::KafkaAck {
        cf: 0,
        table: 0,
        batch: 9,
    };
    let expected = Command::SendOrdered {
        from: broker,
        to: capture,
        msg: ack,
    };
    assert_eq!(acks.commands(), &[expected]);

    let sink = w.model.cdc.processors[0][0].tables.get_mut(&0).unwrap();
    sink.in_flight = Some((9, Ts(50), 1));
    let held = sink.checkpoint;
    w.model.cdc.kafka_on_ack(secs(5), capture, 0, 0, 8);
    let sink = &w.model.cdc.processors[0][0].tables[&0];
    assert_eq!(
        (sink.checkpoint, sink.in_flight.is_some()),
        (held, true),
        "stale ack"
    );
    w.model.cdc.kafka_on_ack(secs(5), capture, 0, 0, 9);
    let sink = &w.model.cdc.processors[0][0].tables[&0];
    assert_eq!(sink.checkpoint, held.max(Ts(50)));
    assert!(sink.in_flight.is_none());
}
