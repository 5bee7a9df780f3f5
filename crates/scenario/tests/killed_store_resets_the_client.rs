//! A killed TiKV store's host resets the workload client's connections, and the client moves
//! to the other replicas (client-go `onSendFail`, store liveness and the replica selector), so
//! a store failure stalls the changefeed only until its regions elect new leaders, not for
//! the client's 30 s request timeout (issue 13; docs/model.md, "Upstream writes through Raft").
//!
//! `cdc-basic-replication.toml` kills tikv-2 at 1m for 60 s under a workload.

use faultline_scenario::*;
use faultline_sim::SimTime;

const SCENARIO: &str = include_str!("../../../scenarios/cdc-basic-replication.toml");
/// When tikv-2 dies (the scenario's kill fault).
const KILL_S: u64 = 60;

#[test]
fn a_killed_store_fails_requests_at_once_and_the_checkpoint_recovers_after_the_elections() {
    let mut s = parse_scenario("cdc-basic-replication.toml", SCENARIO).unwrap();
    s.expect.clear();
    let mut r = Run::new(&s).unwrap();
    r.run_until(SimTime((KILL_S + 60) * 1_000_000));

    // The requests in flight at the kill were reset, none waited out ReadTimeoutShort.
    assert!(r.metric_at_secs("failed_writes.connection_reset", KILL_S + 1) > 0.0);
    assert_eq!(r.metric_at_secs("failed_writes.timeout", KILL_S + 59), 0.0);
    // The client went to followers, which answered NotLeader (and were woken by it).
    assert!(r.metric_at_secs("failed_writes.not_leader", KILL_S + 10) > 0.0);

    // Once every region has a leader again (TiKV's 10-20 s election timeout after the knock),
    // the checkpoint catches up within a few seconds; with the 30 s timeout it could not.
    let elected = (KILL_S..KILL_S + 60)
        .find(|s| *s > KILL_S && r.metric_at_secs("leaderless_regions", *s) == 0.0)
        .expect("every region elects a leader within a minute of the kill");
    assert!(
        elected <= KILL_S + 25,
        "elected at {elected} s: an election timeout after the first knock"
    );
    let lag = r.metric_at_secs("checkpoint_lag.cf-1", elected + 5);
    assert!(
        lag < 5.0,
        "checkpoint lag {lag} s five seconds after the last election at {elected} s"
    );
}
