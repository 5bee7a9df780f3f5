//! Message-level tests of the owner loop and the processor manager's lifecycle step: what one
//! owner tick, one processor lifecycle step or one finished client close writes, and the
//! changefeed, sink and processor states it leaves, under each `cdc.sink_close` mode.

use faultline_sim::{NodeId, NodeState, SimDuration, SimTime, World};

use crate::config::SinkClose;
use crate::msg::CdcTimer;
use crate::out::{Command, Out};
use crate::owner::lifecycle::{FeedStatus, ProcessorState, SinkState};
use crate::sink::kafka::{NO_BROKERS, OWNER_SIDE};
use crate::stack::Stack;
use crate::test_world::{cx_at, kafka_config, mysql_feed, secs, world, world_with};
use crate::ts::Ts;

/// One capture (the owner) with one Kafka changefeed over one table and one broker, at 5 s.
fn kafka_world(sink_close: SinkClose) -> World<Stack> {
    let mut w = world_with(kafka_config(1, sink_close));
    w.run_until(secs(5));
    w
}

/// One capture with one MySQL changefeed over two tables, at 5 s.
fn mysql_world() -> World<Stack> {
    let mut w = world(1, vec![mysql_feed(2)]);
    w.run_until(secs(5));
    w
}

/// Capture 0's node (the only capture, so the owner).
fn owner(w: &World<Stack>) -> NodeId {
    w.model.cdc.captures[0]
}

/// One owner tick of capture 0 at `now`.
fn owner_tick(w: &mut World<Stack>, now: SimTime) -> Out {
    let node = owner(w);
    let mut cx = cx_at(now, &w.kernel.net);
    w.model.cdc.owner_tick(&mut cx, node);
    cx.out
}

/// True when `out` arms the owner's next tick.
fn arms_owner_tick(out: &Out) -> bool {
    out.commands().iter().any(|c| {
        matches!(
            c,
            Command::SetTimer {
                timer: CdcTimer::OwnerTick,
                ..
            }
        )
    })
}

/// The client closes `out` arms, as `(job, client)`.
fn client_closes(out: &Out) -> Vec<(u64, u32)> {
    let close = |c: &Command| match c {
        Command::SetTimer {
            timer: CdcTimer::KafkaClientClosed { job, client, .. },
            ..
        } => Some((*job, *client)),
        _ => None,
    };
    out.commands().iter().filter_map(close).collect()
}

fn at(s: f64) -> SimTime {
    SimTime((s * 1e6) as u64)
}

#[test]
fn a_pass_over_a_healthy_changefeed_only_arms_the_next_tick() {
    let mut w = mysql_world();
    let node = owner(&w);
    let out = owner_tick(&mut w, secs(5));
    let tick = w.model.cdc.cfg.owner_tick;
    let next = Command::SetTimer {
        node,
        after: tick,
        timer: CdcTimer::OwnerTick,
    };
    assert_eq!(out.commands(), &[next]);
    assert_eq!(w.model.cdc.life.feeds[0].status, FeedStatus::Normal);
}

/// The feed state manager's transitions, one tick at a time: an error sends the changefeed
/// to `Error`, the first retry comes at the next tick (upstream's `resetErrRetry` puts the
/// last retry at the epoch), a second error waits out the backoff, and a checkpoint past the
/// retry's brings it back to `Normal`.
#[test]
fn a_failed_changefeed_restarts_at_once_then_only_after_its_backoff() {
    let mut w = mysql_world();
    let feed = |w: &World<Stack>| w.model.cdc.life.feeds[0].clone();
    w.model.cdc.life.feeds[0].pending_error = Some("injected".to_string());
    let out = owner_tick(&mut w, at(5.0));
    assert_eq!(out.logged(), ["changefeed meets an error"]);
    assert_eq!(
        (feed(&w).status, feed(&w).sink),
        (FeedStatus::Error, SinkState::Closed)
    );
    assert!(arms_owner_tick(&out), "an error does not stop the pass");

    let out = owner_tick(&mut w, at(5.05));
    let restarted = [
        "changefeed retry backoff interval is elapsed, changefeed will be restarted",
        "changefeed initialized",
    ];
    assert_eq!(out.logged(), restarted);
    assert_eq!(
        (feed(&w).status, feed(&w).sink),
        (FeedStatus::Warning, SinkState::Running)
    );

    w.model.cdc.life.feeds[0].pending_error = Some("again".to_string());
    owner_tick(&mut w, at(5.1));
    let backoff = feed(&w).backoff.interval;
    assert!(
        backoff >= SimDuration::from_secs(9),
        "about 10 s: {backoff:?}"
    );
    let out = owner_tick(&mut w, at(5.15));
    assert_eq!(out.logged(), Vec::<&str>::new(), "waits out its backoff");
    assert_eq!(feed(&w).status, FeedStatus::Error);
    let due = at(5.05).plus(backoff);
    assert_eq!(owner_tick(&mut w, due).logged(), restarted);

    // The checkpoint has moved past where the retry started.
    w.model.cdc.life.feeds[0].retry_checkpoint = Ts(0);
    let out = owner_tick(&mut w, due.plus(SimDuration::from_millis(50)));
    assert_eq!(out.logged(), ["changefeed is recovered from warning state"]);
    assert_eq!(
        (feed(&w).status, feed(&w).error),
        (FeedStatus::Normal, None)
    );
}

/// What an error on a Kafka changefeed does to the owner's pass in each close mode.
#[test]
fn only_a_sync_close_of_the_owners_producer_stops_the_pass() {
    // (mode, owner blocked, owner-side sink right after)
    let cases = [
        (SinkClose::Sync, true, SinkState::Closing),
        (SinkClose::Async, false, SinkState::Closed),
        (SinkClose::AsyncClosingState, false, SinkState::Closing),
    ];
    for (mode, blocked, sink) in cases {
        let mut w = kafka_world(mode);
        w.model.cdc.life.feeds[0].pending_error = Some("injected".to_string());
        let out = owner_tick(&mut w, secs(5));
        let what = format!("{mode:?}");
        let logged = out.logged();
        assert_eq!(
            logged[..2],
            ["changefeed meets an error", "stop the kafka producer"]
        );
        let clients: Vec<u32> = client_closes(&out).iter().map(|(_, c)| *c).collect();
        assert_eq!(
            clients,
            [0],
            "{what}: only the first client's close is armed"
        );
        assert_eq!(arms_owner_tick(&out), !blocked, "{what}: next tick armed");
        assert_eq!(w.model.cdc.life.owner_blocked(), blocked, "{what}");
        assert_eq!(w.model.cdc.life.feeds[0].sink, sink, "{what}");
    }
}

/// A sync close: each finished client arms the next; the last one releases the sink, warns
/// that the changefeed's tick took too long when it did, and resumes the pass.
#[test]
fn the_last_client_of_a_sync_close_resumes_the_pass() {
    let mut w = kafka_world(SinkClose::Sync);
    let node = owner(&w);
    w.model.cdc.life.feeds[0].pending_error = Some("injected".to_string());
    let job = client_closes(&owner_tick(&mut w, secs(5)))[0].0;
    let clients = w.model.cdc.cfg.kafka.clients;
    let step = SimDuration::from_millis(500);
    let mut now = secs(5);
    let mut out = Out::default();
    for client in 0..clients {
        now = now.plus(step);
        let mut cx = cx_at(now, &w.kernel.net);
        let cdc = &mut w.model.cdc;
        cdc.on_client_closed(&mut cx, node, 0, OWNER_SIDE, (job, client));
        out = cx.out;
        let last = client + 1 == clients;
        assert_eq!(
            client_closes(&out).len(),
            usize::from(!last),
            "client {client}"
        );
    }
    let took = now.since(secs(5));
    assert!(
        took > w.model.cdc.cfg.backoff.tick_warn,
        "the test's close is slow"
    );
    let logged = out.logged();
    assert_eq!(
        logged[logged.len() - 2..],
        ["kafka producer closed", "changefeed tick took too long"]
    );
    assert!(
        arms_owner_tick(&out),
        "the pass finished and re-armed the tick"
    );
    assert!(!w.model.cdc.life.owner_blocked());
    assert_eq!(w.model.cdc.life.feeds[0].sink, SinkState::Closed);
    assert_eq!(w.model.cdc.life.max_owner_tick, took);
}

/// The processor manager's step for a running processor whose changefeed stopped running:
/// the tables go, and a Kafka producer closes, blocking the manager only when synchronous.
#[test]
fn a_processor_of_a_stopped_changefeed_closes_its_producer() {
    // (mode, manager blocked, processor state after)
    let cases = [
        (SinkClose::Sync, true, ProcessorState::Closing),
        (SinkClose::Async, false, ProcessorState::Closed),
        (SinkClose::AsyncClosingState, false, ProcessorState::Closing),
    ];
    for (mode, blocked, state) in cases {
        let mut w = kafka_world(mode);
        assert_eq!(w.model.cdc.processor_state(0, 0), ProcessorState::Running);
        w.model.cdc.life.feeds[0].status = FeedStatus::Error;
        let mut cx = cx_at(secs(5), &w.kernel.net);
        let cdc = &mut w.model.cdc;
        let blocks = cdc.processor_lifecycle(&mut cx, 0, 0);
        let out = cx.out;
        let what = format!("{mode:?}");
        assert_eq!(blocks, blocked, "{what}");
        assert_eq!(cdc.processor_state(0, 0), state, "{what}");
        assert!(
            cdc.processors[0][0].tables.is_empty(),
            "{what}: tables released"
        );
        assert_eq!(out.logged(), ["stop the kafka producer"], "{what}");
    }
}

/// A closed processor of a running Kafka changefeed starts only when a broker answers;
/// without one it reports the error for the owner's next tick.
#[test]
fn a_processor_starts_through_initializing_only_with_a_broker() {
    let mut w = kafka_world(SinkClose::Async);
    w.model.cdc.life.managers[0].states[0] = ProcessorState::Closed;
    let step = |w: &mut World<Stack>| {
        let mut cx = cx_at(secs(5), &w.kernel.net);
        let cdc = &mut w.model.cdc;
        assert!(!cdc.processor_lifecycle(&mut cx, 0, 0));
        assert!(cx.out.commands().is_empty(), "{:?}", cx.out);
        cdc.processor_state(0, 0)
    };
    let broker = w.model.cdc.kafka.brokers[0];
    w.kernel.net.node_mut(broker).state = NodeState::Crashed;
    assert_eq!(step(&mut w), ProcessorState::Closed);
    let pending = w.model.cdc.life.feeds[0].pending_error.clone();
    assert_eq!(pending.as_deref(), Some(NO_BROKERS));

    w.kernel.net.node_mut(broker).state = NodeState::Up;
    assert_eq!(step(&mut w), ProcessorState::Initializing);
    assert_eq!(step(&mut w), ProcessorState::Running);
}

/// The producer's send timeout: only a batch still in flight is an error, reported once.
#[test]
fn a_send_timeout_fails_the_changefeed_only_for_the_batch_in_flight() {
    let mut w = kafka_world(SinkClose::Async);
    let node = owner(&w);
    let sink = w.model.cdc.processors[0][0].tables.get_mut(&0).unwrap();
    sink.in_flight = Some((9, Ts(50), 1));
    let mut out = Out::default();
    w.model.cdc.kafka_on_send_timeout(&mut out, node, 0, 0, 8);
    assert!(
        out.commands().is_empty(),
        "an acked batch's timeout: {out:?}"
    );
    assert_eq!(w.model.cdc.life.feeds[0].pending_error, None);

    w.model.cdc.kafka_on_send_timeout(&mut out, node, 0, 0, 9);
    assert_eq!(out.logged(), ["processor meets an error"]);
    let pending = w.model.cdc.life.feeds[0].pending_error.clone();
    assert_eq!(pending.as_deref(), Some(NO_BROKERS));
    let mut again = Out::default();
    w.model.cdc.kafka_on_send_timeout(&mut again, node, 0, 0, 9);
    assert!(again.commands().is_empty(), "reported once");
}
