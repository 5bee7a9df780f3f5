//! `split` in a scenario (`pd-ctl operator add split-region`): the new regions exist, elect a
//! leader and take writes; validation names what `split` needs.

use faultline_scenario::*;
use faultline_sim::SimTime;

/// 3 stores, 8 regions, raw writes; `faults` are appended.
fn scenario(faults: &str) -> Result<Scenario, String> {
    scenario_with("", faults)
}

/// The same, with `workload` lines added to `[workload]`.
fn scenario_with(workload: &str, faults: &str) -> Result<Scenario, String> {
    let text = format!(
        r#"
name = "split"
seed = 3
duration = "60s"

[topology]
stores = 3
regions = 8

[workload]
writes_per_sec = 20
{workload}
{faults}
"#
    );
    parse_scenario("split.toml", &text).map_err(|e| e.to_string())
}

fn split(at: &str, region: u32, parts: &str) -> String {
    format!(
        "[[faults]]\nat = \"{at}\"\naction = \"split\"\ntarget = \"pd-1\"\nregion = {region}\n{parts}\n"
    )
}

#[test]
fn split_regions_elect_and_take_writes_and_split_again() {
    // Region 3 becomes three (regions 8 and 9 are new), then new region 9 splits in two.
    let faults = split("10s", 3, "parts = 3") + &split("20s", 9, "");
    let mut r = Run::new(&scenario(&faults).unwrap()).unwrap();
    r.run_until(SimTime(60_000_000));
    assert_eq!(r.metric_at_secs("regions", 9), 8.0);
    assert_eq!(r.metric_at_secs("regions", 11), 10.0);
    assert_eq!(r.metric_at_secs("regions", 21), 11.0);
    let tikv = &r.world.model.tikv;
    let version = |region| tikv.region_epoch(region).map(|e| e.version);
    // Region 3's split added two; region 9 took that version, and its own split added one.
    assert_eq!((version(3), version(8)), (Some(3), Some(3)));
    assert_eq!((version(9), version(10)), (Some(4), Some(4)));
    assert_eq!(version(0), Some(1));
    for region in 8..11 {
        let d = tikv.region_detail(region).expect("a split region");
        assert!(
            d.peers.iter().all(|p| p.commit > 5),
            "region {region}: {d:?}"
        );
        assert!(
            tikv.region_leader_store(region).is_some(),
            "region {region}"
        );
    }
    assert_eq!(r.metric_at_secs("leaderless_regions", 59), 0.0);
    assert!(r.metric_at_secs("longest_leaderless_secs", 59) < 1.0);
}

#[test]
fn split_names_what_it_needs() {
    let problem = |faults: &str| scenario(faults).expect_err("invalid");
    let e = problem(&split("10s", 3, "").replace("pd-1", "tikv-1"));
    assert!(
        e.contains("`faults[0].target`: split is an operator command to PD: target = \"pd-1\""),
        "{e}"
    );
    let e = problem("[[faults]]\nat = \"10s\"\naction = \"split\"\ntarget = \"pd-1\"\n");
    assert!(
        e.contains(
            "`faults[0].region`: split needs region (the region to split) or table (every region of it)"
        ),
        "{e}"
    );
    let e = problem(&split("10s", 8, ""));
    assert!(
        e.contains("`faults[0].region`: 8 is out of range; at 10s regions are numbered 0..=7"),
        "{e}"
    );
    // A region an earlier split made may be split in turn, not one a later split makes.
    assert!(scenario(&(split("10s", 0, "") + &split("20s", 8, ""))).is_ok());
    let e = problem(&(split("20s", 0, "") + &split("10s", 8, "")));
    assert!(e.contains("`faults[1].region`: 8 is out of range"), "{e}");
    for parts in ["parts = 1", "parts = 17"] {
        let e = problem(&split("10s", 0, parts));
        assert!(e.contains("a split makes 2..=16 regions"), "{parts}: {e}");
    }
    let e =
        problem("[[faults]]\nat = \"10s\"\naction = \"kill\"\ntarget = \"tikv-1\"\nparts = 2\n");
    assert!(
        e.contains("`faults[0].parts`: only split takes parts, not kill"),
        "{e}"
    );
    // The key layout follows a split, so the transactional workload may run beside one.
    assert!(scenario_with("txns_per_sec = 5", &split("10s", 0, "")).is_ok());
}

/// The gallery's split scenario: its caption says the new regions' epoch version is 4 (region
/// 5, at version 1, split into four, so three new regions: 1 + 3), and that they sit on region
/// 5's stores.
#[test]
fn the_gallery_split_regions_have_the_epoch_the_tour_names() {
    let text = include_str!("../../../scenarios/raft-region-split.toml");
    let s = parse_scenario("raft-region-split.toml", text).unwrap();
    let mut r = Run::new(&s).unwrap();
    r.run_until(SimTime(21_000_000));
    let tikv = &r.world.model.tikv;
    let stores = |region| {
        let d = tikv.region_detail(region).expect("exists");
        d.peers.iter().map(|p| p.store).collect::<Vec<_>>()
    };
    for region in [5, 16, 17, 18] {
        let d = tikv.region_detail(region).expect("exists");
        assert_eq!(d.epoch.version, 4, "region {region}");
        assert_eq!(stores(region), stores(5), "region {region}");
    }
    assert_eq!(tikv.region_detail(17).and_then(|d| d.split_from), Some(5));
}

/// A split under a changefeed and the transactional workload: requests routed before it
/// answer EpochNotMatch and are regrouped, the changefeed's subscription of the region ends
/// with EpochNotMatch and every new region is subscribed, and downstream ends equal to
/// upstream.
#[test]
fn a_split_under_a_changefeed_is_followed_by_the_client_and_ticdc() {
    let text = r#"
name = "split under a changefeed"
seed = 5
duration = "80s"

[topology]
stores = 3
regions = 8
captures = 2

[hibernate]
enabled = false

# Busy enough that requests to region 2 are in flight when the split applies: it applies
# within milliseconds (model version 20), and at 50 txn/s none was.
[workload]
kind = "oltp_write_only"
txns_per_sec = 1000
tables = 4
rows_per_table = 100
stop_at = "60s"

[[changefeeds]]
id = "cf-1"

[[faults]]
at = "20s"
action = "split"
target = "pd-1"
region = 2
parts = 4
"#;
    let s = parse_scenario("split-cdc.toml", text).unwrap();
    let mut r = Run::new(&s).unwrap();
    r.run_until(SimTime(80_000_000));
    let last = |m: &str| r.metric_at_secs(m, 79);
    assert_eq!(last("regions"), 11.0);
    assert!(
        last("failed_writes.epoch_not_match") > 0.0,
        "requests regrouped"
    );
    assert_eq!(
        last("epoch_not_match"),
        1.0,
        "one subscription of region 2 ended"
    );
    let cdc = &r.world.model.cdc;
    for region in [2, 8, 9, 10] {
        let tracked =
            (cdc.processors.iter().flatten()).any(|p| p.kv.regions().contains_key(&region));
        assert!(tracked, "region {region} is subscribed");
    }
    assert_eq!(last("consistency_diff_rows.cf-1"), 0.0);
    assert_eq!(last("consistency_checked_rows.cf-1"), 400.0);
    assert!(last("checkpoint_lag.cf-1") < 5.0, "the changefeed kept up");
}
