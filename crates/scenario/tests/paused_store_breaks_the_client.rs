//! A paused TiKV store sends no RST, but the workload client's connection to it breaks when
//! gRPC keepalive gives up (client-go `GrpcKeepAliveTime` 10 s + `GrpcKeepAliveTimeout` 3 s),
//! and the client moves to the other replicas; before the model had the keepalive, those
//! requests waited out `ReadTimeoutShort` (30 s). Issue 13; docs/model.md, "Upstream writes
//! through Raft".
//!
//! `cdc-basic-replication.toml`, with its kill of tikv-2 at 1m turned into a 60 s pause.

use faultline_scenario::*;
use faultline_sim::SimTime;

const SCENARIO: &str = include_str!("../../../scenarios/cdc-basic-replication.toml");
/// When tikv-2 pauses.
const PAUSE_S: u64 = 60;
/// The keepalive's ping after 10 s of silence, and its 3 s for an answer.
const KEEPALIVE_S: u64 = 13;

#[test]
fn a_paused_store_fails_requests_after_the_keepalive_not_the_read_timeout() {
    let text = SCENARIO.replacen(
        "action = \"kill\"\ntarget = \"tikv-2\"",
        "action = \"pause\"\ntarget = \"tikv-2\"",
        1,
    );
    assert_ne!(text, SCENARIO, "the scenario still kills tikv-2 at 1m");
    let mut s = parse_scenario("cdc-basic-replication.toml", &text).unwrap();
    s.expect.clear();
    s.guide.clear();
    let mut r = Run::new(&s).unwrap();
    r.run_until(SimTime((PAUSE_S + 45) * 1_000_000));

    // Nothing fails before the keepalive gives up; the requests in flight fail when it does,
    // none by the 30 s read timeout, and no connection was reset (the process lives).
    let keepalive = |secs| r.metric_at_secs("failed_writes.keepalive", secs);
    assert_eq!(keepalive(PAUSE_S + KEEPALIVE_S - 1), 0.0);
    assert!(keepalive(PAUSE_S + KEEPALIVE_S + 1) > 0.0);
    assert_eq!(r.metric_at_secs("failed_writes.timeout", PAUSE_S + 44), 0.0);
    assert_eq!(
        r.metric_at_secs("failed_writes.connection_reset", PAUSE_S + 44),
        0.0
    );
    // The client then went to followers, which answered NotLeader and were woken by it.
    let not_leader = |secs| r.metric_at_secs("failed_writes.not_leader", secs);
    assert!(not_leader(PAUSE_S + KEEPALIVE_S + 5) > not_leader(PAUSE_S + KEEPALIVE_S - 1));
}
