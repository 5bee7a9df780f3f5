//! Message-level tests of the Kafka producer's close: its clients close one after another,
//! each quickly while a broker answers and only after the timeout while none does.

use faultline_sim::{Fault, SimDuration};

use crate::config::{CdcConfig, ChangefeedConfig, KafkaProtocol, SinkClose, SinkType};
use crate::test_world::{secs, world_with};

/// The processor side of capture 0. Its changefeed replicates no table, so nothing fails and
/// the model never closes this producer itself.
const SIDE: u32 = 0;

/// One capture, one broker and one Kafka changefeed; the close under test is started by hand.
fn world(sink_close: SinkClose) -> faultline_sim::World<crate::stack::Stack> {
    let feed = ChangefeedConfig {
        id: "kafka-cf".to_string(),
        tables: Some(0),
        redo: false,
        sink: SinkType::Kafka(KafkaProtocol::OpenProtocol),
    };
    let mut cdc = CdcConfig {
        captures: 1,
        changefeeds: vec![feed],
        sink_close,
        ..CdcConfig::default()
    };
    cdc.kafka.brokers = 1;
    let mut w = world_with(cdc);
    w.run_until(secs(1));
    w
}

/// Starts closing the owner-side producer now; returns whether the caller must wait.
fn start_close(w: &mut faultline_sim::World<crate::stack::Stack>) -> bool {
    let node = w.model.cdc.captures[0];
    w.model.cdc.kafka_start_close(&mut w.kernel, node, 0, SIDE)
}

#[test]
fn a_close_blocks_its_caller_only_when_synchronous() {
    for (mode, blocks) in [(SinkClose::Sync, true), (SinkClose::Async, false)] {
        let mut w = world(mode);
        assert_eq!(start_close(&mut w), blocks, "{mode:?}");
    }
}

#[test]
fn with_a_broker_up_every_client_closes_quickly_in_order() {
    let mut w = world(SinkClose::Async);
    start_close(&mut w);
    let t0 = w.now();
    let clients = u64::from(w.model.cdc.cfg.kafka.clients);
    let latency = w.model.cdc.cfg.kafka.close_latency;
    w.run_until(t0.plus(SimDuration(latency.0 * clients + 1)));
    let log = &w.kernel.log;
    assert_eq!(log.count_containing("kafka client closed"), clients);
    assert_eq!(log.count_containing("kafka producer closed"), 1);
    assert!(!w.model.cdc.kafka.closing.contains_key(&(0, SIDE)));
}

#[test]
fn with_every_broker_down_each_client_waits_out_the_timeout() {
    let mut w = world(SinkClose::Async);
    let broker = w.network().find("kafka-1").expect("one broker");
    w.kernel.schedule_fault(secs(2), Fault::Crash(broker));
    w.run_until(secs(3));
    start_close(&mut w);
    let t0 = w.now();
    let clients = u64::from(w.model.cdc.cfg.kafka.clients);
    let timeout = w.model.cdc.cfg.kafka.timeout;
    // One client short of the end: still closing.
    w.run_until(t0.plus(SimDuration(timeout.0 * (clients - 1))));
    assert!(w.model.cdc.kafka.closing.contains_key(&(0, SIDE)));
    w.run_until(t0.plus(SimDuration(timeout.0 * clients + 1)));
    let log = &w.kernel.log;
    assert_eq!(
        log.count_containing("close kafka client with error"),
        clients
    );
    assert_eq!(log.count_containing("kafka producer closed"), 1);
}
