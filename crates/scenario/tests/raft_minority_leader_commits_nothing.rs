//! A leader cut from its followers (but not from PD, the client or TiCDC) commits nothing:
//! prewrite and commit are Raft proposals that need a quorum. Commits resume only once the
//! majority side has elected a leader, and the old leader publishes no resolved ts past the
//! cut, because its CheckLeader requests reach no follower (issue 13, "Done when").

use faultline_scenario::*;
use faultline_sim::SimTime;

const SCENARIO: &str = include_str!("../../../scenarios/raft-minority-leader-partition.toml");

/// When the cut begins (the scenario's partition fault).
const CUT: SimTime = SimTime(30_000_000);
/// Sampling step while looking for the new leader.
const STEP_US: u64 = 100_000;

fn run_scenario() -> Run {
    let mut s = parse_scenario("raft-minority-leader-partition.toml", SCENARIO).unwrap();
    s.expect.clear();
    Run::new(&s).unwrap()
}

fn committed(r: &Run) -> u64 {
    r.world.model.cdc.workload.committed
}

/// Highest resolved ts the old leader's store has published to the capture, read from the
/// changefeed's resolved ts (one region, so it comes from one leader at a time).
fn resolved_secs(r: &Run) -> f64 {
    r.world.model.cdc.watermarks[0]
        .resolved
        .sim_time()
        .as_secs_f64()
}

#[test]
fn minority_leader_commits_nothing_until_the_majority_elects() {
    let mut r = run_scenario();
    r.run_until(CUT);
    let tikv = &r.world.model.tikv;
    assert_eq!(
        tikv.region_leader_store(0),
        Some(0),
        "tikv-1 leads at the cut"
    );
    assert!(committed(&r) > 500, "the workload commits before the cut");
    // Answers already on the wire at the cut still arrive; give them one step.
    r.run_until(SimTime(CUT.0 + STEP_US));
    let at_cut = committed(&r);

    // Walk forward until a leader on tikv-2 or tikv-3 is elected.
    let mut t = CUT.0 + STEP_US;
    let elected = loop {
        t += STEP_US;
        r.run_until(SimTime(t));
        let leader = r.world.model.tikv.local_leader_term(1, 0).map(|_| 1);
        let leader = leader.or(r.world.model.tikv.local_leader_term(2, 0).map(|_| 2));
        if leader.is_some() {
            break SimTime(t);
        }
        assert!(
            t < CUT.0 + 60_000_000,
            "no leader on the majority side a minute after the cut"
        );
        assert_eq!(
            committed(&r),
            at_cut,
            "a commit while tikv-1 had no quorum and no new leader existed ({t} µs)"
        );
        assert!(
            resolved_secs(&r) <= CUT.0 as f64 / 1e6,
            "resolved ts {} passed the cut while tikv-1 could not confirm its leadership",
            resolved_secs(&r)
        );
    };
    assert!(
        elected.0 > CUT.0 + 5_000_000,
        "a new leader needs an election timeout: {elected:?}"
    );
    let paused_at = committed(&r);
    // The client's region cache still names tikv-1 (model 4 loads it from PD and keeps it
    // until a request fails), so commits resume once tikv-1 has stepped down by check-quorum
    // and answers NotLeader, not at the election itself. That NotLeader names no leader
    // (tikv-1 never heard of the new one), so the client reloads the region from PD
    // (`the_old_leaders_not_leader_names_nobody_and_the_client_asks_pd`).
    r.run_until(SimTime(CUT.0 + 30_000_000));
    assert!(
        committed(&r) > paused_at + 100,
        "commits resume at the new leader: {} -> {}",
        paused_at,
        committed(&r)
    );
    // Transactions whose requests waited on tikv-1 retry after client-go's 30 s timeout with
    // their old start ts, and their locks hold resolved ts near the cut until then. With the
    // cached leader, requests keep reaching tikv-1 until it steps down (~19 s after the cut),
    // so the last of them time out about 49 s after the cut.
    r.run_until(SimTime(CUT.0 + 65_000_000));
    assert!(
        resolved_secs(&r) > CUT.0 as f64 / 1e6 + 30.0,
        "resolved ts catches up at the new leader once the stuck transactions retried: {}",
        resolved_secs(&r)
    );
}

#[test]
fn the_old_leader_steps_down_by_check_quorum() {
    let mut r = run_scenario();
    r.run_until(SimTime(CUT.0 + 25_000_000));
    assert_eq!(
        r.world.model.tikv.local_leader_term(0, 0),
        None,
        "tikv-1 must no longer lead 25 s after losing its quorum"
    );
}

/// What the write-path metrics show while tikv-1 leads without a quorum: it appends every
/// proposal the client sends and applies none, and its CheckLeader rounds end unconfirmed.
#[test]
fn a_leader_without_a_quorum_appends_proposals_and_applies_none() {
    let mut r = run_scenario();
    r.run_until(SimTime(CUT.0 + 10_000_000));
    let cut_s = CUT.0 / 1_000_000;
    assert!(r.metric_at_secs("writes_proposed_per_sec", cut_s - 1) > 0.0);
    assert!(r.metric_at_secs("writes_applied_per_sec", cut_s - 1) > 0.0);
    for secs in cut_s + 2..cut_s + 10 {
        assert!(
            r.metric_at_secs("writes_proposed_per_sec", secs) > 0.0,
            "tikv-1 still appends the client's proposals at {secs} s"
        );
        assert_eq!(
            r.metric_at_secs("writes_applied_per_sec", secs),
            0.0,
            "nothing applies without a quorum at {secs} s"
        );
    }
    let before = r.metric_at_secs("check_leader_unconfirmed", cut_s);
    let after = r.metric_at_secs("check_leader_unconfirmed", cut_s + 10);
    assert!(
        after >= before + 5.0,
        "one unconfirmed round a second: {before} -> {after}"
    );
}

/// After check-quorum tikv-1 is a follower that knows no leader, so its NotLeader carries no
/// hint (raft-rs's `leader_id` is unset after `become_follower(term, INVALID_ID)`); the client
/// backs off and loads the region from PD. The requests tikv-1 had appended get no answer and
/// time out after client-go's 30 s `ReadTimeoutShort`.
#[test]
fn the_old_leaders_not_leader_names_nobody_and_the_client_asks_pd() {
    let mut r = run_scenario();
    let cut_s = CUT.0 / 1_000_000;
    r.run_until(SimTime(CUT.0 + 29_000_000));
    assert!(r.metric_at_secs("failed_writes.no_leader", cut_s + 25) >= 1.0);
    assert_eq!(
        r.metric_at_secs("failed_writes.not_leader", cut_s + 25),
        0.0
    );
    assert_eq!(
        r.metric_at_secs("failed_writes.timeout", cut_s + 29),
        0.0,
        "no request has waited 30 s yet"
    );
    r.run_until(SimTime(CUT.0 + 40_000_000));
    assert!(r.metric_at_secs("failed_writes.timeout", cut_s + 40) > 0.0);
}
