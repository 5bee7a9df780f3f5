//! PD on the network (issue 13 item 3): the workload client (`client-1`) takes its
//! timestamps and region loads from `pd-1` over its link, and each store takes resolved ts's
//! min ts from PD the same way. A client cut from PD commits nothing new and resumes when the
//! link heals; a store cut from PD publishes no resolved ts while commits go on.

use faultline_scenario::*;
use faultline_sim::SimTime;

/// One region led by tikv-1, one capture, 50 transactions a second; `faults` is appended.
fn scenario(faults: &str) -> Run {
    let text = format!(
        r#"
name = "pd over the network"
seed = 11
duration = "90s"

[topology]
stores = 3
regions = 4
replicas = 3
captures = 1

[hibernate]
enabled = false

[pd]
leader_balance = false

[workload]
kind = "oltp_update_non_index"
txns_per_sec = 50
tables = 2
rows_per_table = 100

[[changefeeds]]
id = "cf-1"
{faults}
"#
    );
    let s = parse_scenario("pd-net.toml", &text).unwrap();
    Run::new(&s).unwrap()
}

/// The scenario with `target` cut from `pd-1` (both ways) at 20 s for `duration`.
fn cut_from_pd_at_20s(target: &str, duration: &str) -> Run {
    scenario(&format!(
        "[[faults]]\nat = \"20s\"\naction = \"partition\"\ntarget = \"{target}\"\n\
         peers = \"pd-1\"\nduration = \"{duration}\"\n"
    ))
}

fn secs(s: u64) -> SimTime {
    SimTime(s * 1_000_000)
}

fn committed(r: &Run) -> u64 {
    r.world.model.cdc.workload.committed
}

#[test]
fn a_client_cut_from_pd_commits_nothing_new_and_resumes_after_the_heal() {
    let mut r = cut_from_pd_at_20s("client-1", "20s");
    r.run_until(secs(20));
    assert!(committed(&r) > 500, "the workload commits before the cut");
    // Transactions that already had their commit ts finish within a few round trips.
    r.run_until(secs(21));
    let at_cut = committed(&r);
    r.run_until(secs(40));
    assert_eq!(
        committed(&r),
        at_cut,
        "no start ts and no commit ts without PD: nothing new commits"
    );
    let pd = &r.world.model.cdc.pd_clients;
    // Only start ts requests fail here: a transaction's prewrite takes milliseconds, so at
    // the cut none was waiting for its commit ts (one that was would fail that request too).
    assert!(pd.start_ts_failed > 0, "start ts requests time out (3 s)");
    r.run_until(secs(50));
    assert!(
        committed(&r) > at_cut + 300,
        "commits resume once PD answers again: {at_cut} -> {}",
        committed(&r)
    );
}

#[test]
fn the_client_loads_each_region_from_pd_once_not_per_transaction() {
    let mut r = scenario("");
    r.run_until(secs(30));
    let cache = &r.world.model.cdc.pd_clients.region_cache;
    assert!(committed(&r) > 1_000);
    assert!(cache.loads >= 1, "a cold cache loads from PD");
    assert!(
        cache.loads <= 4,
        "four regions, healthy links: each loaded once, got {} loads",
        cache.loads
    );
}

#[test]
fn a_store_cut_from_pd_advances_no_resolved_ts_while_commits_go_on() {
    // tikv-1..3 each lead some of the 4 regions; cutting all of them from PD stops every
    // store's min ts, while the client still reaches PD and every store.
    let mut r = cut_from_pd_at_20s("tikv-1,tikv-2,tikv-3", "30s");
    r.run_until(secs(20));
    let resolved = |r: &Run| {
        r.world.model.cdc.watermarks[0]
            .resolved
            .sim_time()
            .as_secs_f64()
    };
    assert!(
        resolved(&r) > 15.0,
        "resolved ts follows the TSO before the cut"
    );
    let before = committed(&r);
    r.run_until(secs(45));
    assert!(
        resolved(&r) <= 21.0,
        "no store gets a min ts from PD: resolved ts stays at the cut, got {}",
        resolved(&r)
    );
    assert!(committed(&r) > before + 500, "writes still commit");
    r.run_until(secs(60));
    assert!(
        resolved(&r) > 55.0,
        "resolved ts catches up after the heal: {}",
        resolved(&r)
    );
}
