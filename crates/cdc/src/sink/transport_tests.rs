//! Message-level tests of the store -> capture stream as TCP carries it.

use crate::out::Out;
use crate::test_world::{cx_at, mysql_feed, secs, set_link, world};

#[test]
fn a_stream_accepts_batches_in_order_and_breaks_for_good_at_a_gap() {
    let mut w = world(1, vec![mysql_feed(1)]);
    w.run_until(secs(2));
    let (store, stream) = (0, 1 << 20); // a stream of its own, apart from the live ones
    let cdc = &mut w.model.cdc;
    let mut out = Out::default();
    // (position, accepted)
    for (seq, accepted) in [(0, true), (1, true), (3, false), (2, false), (4, false)] {
        assert_eq!(
            cdc.stream_in_order(&mut out, 0, 0, store, stream, seq),
            accepted,
            "position {seq}"
        );
    }
    let closed = out
        .logged()
        .iter()
        .filter(|m| **m == "stream to store closed")
        .count();
    assert_eq!(
        closed, 1,
        "the gap breaks the stream once; later batches are refused silently"
    );
}

/// A MySQL COMMIT held by a cut: the transaction waits (logged once) and, once the link is
/// back, commits after the write latency.
#[test]
fn a_parked_commit_waits_for_its_link_and_resumes_when_it_heals() {
    use crate::msg::CdcTimer;
    use crate::out::Command;

    let mut w = world(1, vec![mysql_feed(1)]);
    w.run_until(secs(5));
    let (capture, mysql) = (w.model.cdc.captures[0], w.model.cdc.mysql.expect("MySQL"));
    let park = |w: &mut faultline_sim::World<crate::stack::Stack>, out: &mut Out| {
        // The outbox outlives the context: the link changes between calls.
        let mut cx = cx_at(w.kernel.now(), &w.kernel.net);
        cx.out = std::mem::take(out);
        let parked = w.model.cdc.mysql_commit_parked(&mut cx, 0, 0, 0, 7);
        *out = cx.out;
        parked
    };
    let resume = |w: &mut faultline_sim::World<crate::stack::Stack>| {
        let mut cx = cx_at(w.kernel.now(), &w.kernel.net);
        w.model.cdc.resume_parked_commits(&mut cx);
        cx.out
    };
    let mut out = Out::default();
    assert!(!park(&mut w, &mut out), "a reachable MySQL commits at once");
    set_link(&mut w, (capture, mysql), false);
    assert!(park(&mut w, &mut out) && park(&mut w, &mut out));
    let waits = "MySQL transaction waits for its cut connection";
    assert_eq!(out.logged(), [waits], "logged once");
    assert!(resume(&mut w).commands().is_empty(), "still cut");

    set_link(&mut w, (capture, mysql), true);
    let out = resume(&mut w);
    let applied = Command::SetTimer {
        node: mysql,
        after: w.model.cdc.cfg.mysql_write_latency,
        timer: CdcTimer::MysqlApplied {
            capture: 0,
            cf: 0,
            table: 0,
            batch: 7,
        },
    };
    assert_eq!(out.commands().last(), Some(&applied));
    assert_eq!(
        out.logged(),
        ["MySQL transaction resumes after the network healed"]
    );
    assert!(w.model.cdc.transport.parked.is_empty());
}
