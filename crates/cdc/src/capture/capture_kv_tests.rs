//! Message-level tests of the KV client's wiring on a capture: when a stream to a store is
//! given up on (gRPC keepalive after a cut or a pause, a reset after a kill), and what the
//! break does once its timer fires (the region worker exits, as in tiflow's `cdc/kv`).

use faultline_sim::{NodeState, SimDuration, World};

use crate::msg::CdcTimer;
use crate::out::{Command, Out};
use crate::stack::Stack;
use crate::test_world::{cx_at, mysql_feed, secs, set_link, world};

/// One capture replicating two tables, with streams to the stores, at 5 s.
fn streaming_world() -> World<Stack> {
    let mut w = world(1, vec![mysql_feed(2)]);
    w.run_until(secs(5));
    w
}

/// A store capture 0 has a stream to.
fn streamed_store(w: &World<Stack>) -> u32 {
    let kv = &w.model.cdc.processors[0][0].kv;
    *kv.streams().keys().next().expect("a stream by 5 s")
}

fn breaks_armed(out: &Out) -> Vec<(SimDuration, u32)> {
    let armed = |c: &Command| match c {
        Command::SetTimer {
            after,
            timer: CdcTimer::StreamBroken { store },
            ..
        } => Some((*after, *store)),
        _ => None,
    };
    out.commands().iter().filter_map(armed).collect()
}

#[test]
fn a_stream_breaks_after_the_keepalive_only_while_its_store_is_out_of_reach() {
    let mut w = streaming_world();
    let store = streamed_store(&w);
    let ends = (w.model.cdc.captures[0], w.model.cdc.stores[store as usize]);
    let keepalive = w.model.cdc.cfg.grpc_keepalive.breaks_after();
    let arm = |w: &mut World<Stack>| {
        let mut cx = cx_at(w.kernel.now(), &w.kernel.net);
        w.model.cdc.streams_may_break(&mut cx, store, keepalive);
        breaks_armed(&cx.out)
    };
    assert_eq!(arm(&mut w), [], "a healthy stream is left alone");
    set_link(&mut w, ends, false);
    assert_eq!(arm(&mut w), [(keepalive, store)]);
    set_link(&mut w, ends, true);
    w.kernel.net.node_mut(ends.1).state = NodeState::Paused;
    assert_eq!(
        arm(&mut w),
        [(keepalive, store)],
        "a paused store answers nothing"
    );
}

#[test]
fn a_break_that_fires_after_the_link_healed_does_nothing() {
    let mut w = streaming_world();
    let store = streamed_store(&w);
    let ends = (w.model.cdc.captures[0], w.model.cdc.stores[store as usize]);
    let fire = |w: &mut World<Stack>| {
        let mut cx = cx_at(w.kernel.now(), &w.kernel.net);
        w.model.cdc.kv_stream_broken(&mut cx, ends.0, store);
        cx.out
    };
    assert!(
        fire(&mut w).commands().is_empty(),
        "healed before the keepalive fired"
    );
    assert!(w.model.cdc.processors[0][0]
        .kv
        .streams()
        .contains_key(&store));

    set_link(&mut w, ends, false);
    let out = fire(&mut w);
    assert_eq!(out.logged(), ["stream to store closed"]);
    let exits: Vec<SimDuration> = out
        .commands()
        .iter()
        .filter_map(|c| match c {
            Command::SetTimer {
                after,
                timer: CdcTimer::WorkerExit { store: s, .. },
                ..
            } if *s == store => Some(*after),
            _ => None,
        })
        .collect();
    let [after] = exits[..] else {
        panic!("the region worker's exit is armed once: {out:?}");
    };
    assert!(after < SimDuration::from_millis(1), "{after:?}");
    assert!(
        fire(&mut w).commands().is_empty(),
        "a stream already closing is not broken again"
    );
}
