//! The first difference between two runs: found at the exact event where their traces part.

use faultline_scenario::{first_difference, gallery, Dur, Scenario};
use faultline_sim::SimTime;

fn kill_a_store() -> Scenario {
    gallery()
        .into_iter()
        .find(|e| e.file == "raft-basics-kill-a-store.toml")
        .expect("in the gallery")
        .scenario
}

#[test]
fn equal_scenarios_have_no_difference() {
    let s = kill_a_store();
    assert_eq!(first_difference(&s, &s).unwrap(), None);
}

#[test]
fn a_fault_moved_later_parts_the_runs_at_the_earlier_fault() {
    let a = kill_a_store();
    let mut b = a.clone();
    b.faults[0].at = Dur::secs(45);
    let d = first_difference(&a, &b).unwrap().expect("the runs differ");
    let ev_a = d.a.as_ref().expect("run A has an event there");
    assert_eq!(ev_a.time, SimTime(30_000_000));
    assert_eq!(ev_a.what, "fault: kill tikv-1");
    let ev_b = d.b.as_ref().expect("run B has an event there");
    assert!(!ev_b.what.starts_with("fault"), "{ev_b}");
    assert!(ev_b.time >= ev_a.time, "{ev_b}");
    assert_eq!(d.time(), SimTime(30_000_000));
    assert!(d.common_events > 0);
}

#[test]
fn a_shorter_run_parts_where_it_ends() {
    let a = kill_a_store();
    let mut b = a.clone();
    b.duration = Dur::secs(60);
    let d = first_difference(&a, &b).unwrap().expect("the runs differ");
    assert_eq!(d.b, None, "run B ended");
    let ev_a = d.a.expect("run A goes on");
    assert!(ev_a.time > SimTime(60_000_000), "{ev_a}");
}

#[test]
fn buggy_and_fixed_part_at_the_same_event_count_either_way() {
    let g = gallery();
    let find = |f: &str| g.iter().find(|e| e.file == f).unwrap().scenario.clone();
    // The tikv#14547 pair runs identically since model version 3; this pair still differs.
    let buggy = find("tiflow-9595-changefeed-stuck-after-tikv-failure.toml");
    let fixed = find("tiflow-9595-changefeed-stuck-after-tikv-failure-fixed.toml");
    let ab = first_difference(&buggy, &fixed)
        .unwrap()
        .expect("they differ");
    let ba = first_difference(&fixed, &buggy)
        .unwrap()
        .expect("they differ");
    assert_eq!(ab.common_events, ba.common_events);
    assert_eq!((ab.a, ab.b), (ba.b, ba.a));
}

/// tikv#14574's test shape (`test_store_disconnect_with_hibernate`: base tick 50 ms, raft
/// client backoff 200 ms, unreachable backoff 500 ms): three stores, one region taking writes,
/// its leader's store killed. The fix
/// broadcasts StoreUnreachable again on later failed reconnects; nothing it sends changes
/// (the followers are already awake), but the broadcasts are logged and counted, so the runs
/// must not hash alike.
fn one_region_kill(broadcast: &str) -> Scenario {
    let text = format!(
        r#"
name = "one region, its leader's store killed"
seed = 3
duration = "2m"

[topology]
stores = 3
regions = 1
replicas = 3

[raft]
base_tick = "50ms"
leader_lease = "450ms"
raft_client_max_backoff = "200ms"

[hibernate]
unreachable_backoff = "500ms"

[toggles]
"tikv.unreachable_broadcast" = "{broadcast}"

# Messages in flight for 60 ms, longer than the survivors take to notice the kill (10-50 ms),
# so some from the killed store land after the first broadcast.
[network]
delay_min = "60ms"
delay_max = "61ms"

[workload]
writes_per_sec = 20

[[faults]]
at = "30s"
action = "kill"
target = "tikv-1"
"#
    );
    faultline_scenario::parse_scenario("h1.toml", &text).expect("a valid scenario")
}

#[test]
fn runs_that_differ_only_in_what_they_log_and_count_hash_differently() {
    let buggy = one_region_kill("once_per_disconnect");
    let fixed = one_region_kill("repeat_if_new_messages");
    let end_of = |s: &Scenario| {
        let mut run = faultline_scenario::Run::new(s).expect("runs");
        run.run_to_end();
        let secs = run.end().0 / 1_000_000;
        (
            run.metric_at_secs("unreachable_broadcasts", secs),
            run.trace_hash(),
        )
    };
    let (broadcasts_buggy, hash_buggy) = end_of(&buggy);
    let (broadcasts_fixed, hash_fixed) = end_of(&fixed);
    assert_ne!(
        broadcasts_buggy, broadcasts_fixed,
        "the premise: the fix broadcasts more often in this shape"
    );
    assert_ne!(hash_buggy, hash_fixed, "different runs, equal hashes");
    let d = first_difference(&buggy, &fixed)
        .unwrap()
        .expect("diff finds where they part");
    let words = d.describe().join("\n");
    assert!(
        words.contains("broadcasting unreachable") || words.contains("unreachable_broadcasts"),
        "the difference names the broadcast: {words}"
    );
}
