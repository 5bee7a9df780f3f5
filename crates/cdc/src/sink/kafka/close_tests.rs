//! Message-level tests of the Kafka producer's close: its clients close one after another,
//! each quickly while a broker answers and only after the timeout while none does; and what
//! the owner and the processor manager do meanwhile under each `cdc.sink_close` mode.

use faultline_sim::{Fault, SimDuration};

use crate::config::SinkClose;
use crate::model::route;
use crate::out::Out;
use crate::owner::lifecycle::{FeedStatus, ProcessorState, SinkState};
use crate::sink::kafka::OWNER_SIDE;
use crate::test_world::{cx_at, kafka_config, secs, world_with};

/// The processor side of capture 0. Its changefeed replicates no table, so nothing fails and
/// the model never closes this producer itself.
const SIDE: u32 = 0;

/// One capture, one broker and one Kafka changefeed; the close under test is started by hand.
fn world(sink_close: SinkClose) -> faultline_sim::World<crate::stack::Stack> {
    let mut w = world_with(kafka_config(0, sink_close));
    w.run_until(secs(1));
    w
}

/// Starts closing the owner-side producer now; returns whether the caller must wait.
fn start_close(w: &mut faultline_sim::World<crate::stack::Stack>) -> bool {
    let node = w.model.cdc.captures[0];
    let mut cx = cx_at(w.now(), &w.kernel.net);
    let blocks = w.model.cdc.kafka_start_close(&mut cx, node, 0, SIDE);
    let mut out: Out = cx.out;
    route(&mut w.kernel, &mut out);
    blocks
}

/// Close jobs of changefeed 0 still running on `side`.
fn closing_on(w: &faultline_sim::World<crate::stack::Stack>, side: u32) -> usize {
    let closing = &w.model.cdc.kafka.closing;
    closing
        .keys()
        .filter(|(cf, s, _)| *cf == 0 && *s == side)
        .count()
}

#[test]
fn a_close_blocks_its_caller_only_when_synchronous() {
    let modes = [
        (SinkClose::Sync, true),
        (SinkClose::Async, false),
        (SinkClose::AsyncClosingState, false),
    ];
    for (mode, blocks) in modes {
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
    assert_eq!(closing_on(&w, SIDE), 0);
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
    assert_eq!(closing_on(&w, SIDE), 1);
    w.run_until(t0.plus(SimDuration(timeout.0 * clients + 1)));
    let log = &w.kernel.log;
    assert_eq!(
        log.count_containing("close kafka client with error"),
        clients
    );
    assert_eq!(log.count_containing("kafka producer closed"), 1);
}

/// What 30 s after a Kafka changefeed's error shows, per mode. The broker is down when the
/// error comes (so the first client's close waits the whole timeout, here 60 s) and back 1 s
/// later, so the retry after the first backoff (about 10 s) finds a broker.
#[test]
fn while_the_old_producer_closes_only_the_shipped_fix_starts_a_new_one() {
    // (mode, owner blocked, owner-side sink, changefeed state, processor on cdc-1)
    let cases = [
        (
            SinkClose::Sync,
            true,
            SinkState::Closing,
            FeedStatus::Error,
            ProcessorState::Closing,
        ),
        (
            SinkClose::Async,
            false,
            SinkState::Running,
            FeedStatus::Warning,
            ProcessorState::Running,
        ),
        (
            SinkClose::AsyncClosingState,
            false,
            SinkState::Closing,
            FeedStatus::Error,
            ProcessorState::Closing,
        ),
    ];
    for (mode, blocked, sink, status, processor) in cases {
        let mut w = world(mode);
        w.model.cdc.cfg.kafka.timeout = SimDuration::from_secs(60);
        let broker = w.network().find("kafka-1").expect("one broker");
        w.kernel.schedule_fault(secs(2), Fault::Crash(broker));
        w.kernel.schedule_fault(secs(4), Fault::Restart(broker));
        w.run_until(secs(3));
        w.model.cdc.life.feeds[0].pending_error = Some("injected".to_string());
        w.run_until(secs(33));
        let cdc = &w.model.cdc;
        let what = format!("{mode:?}");
        assert_eq!(cdc.life.owner_blocked(), blocked, "{what}: owner blocked");
        assert_eq!(cdc.life.feeds[0].sink, sink, "{what}: sink state");
        assert_eq!(cdc.life.feeds[0].status, status, "{what}: changefeed state");
        assert_eq!(cdc.processor_state(0, 0), processor, "{what}: processor");
        assert_eq!(
            closing_on(&w, OWNER_SIDE),
            1,
            "{what}: the first producer still closes"
        );
        assert_eq!(cdc.life.feeds[0].closes, 1, "{what}: closed once");
    }
}
