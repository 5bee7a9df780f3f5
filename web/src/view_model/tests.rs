//! View-model extraction from real runs of the shipped scenarios.

use faultline_cdc::capture::kvclient::Owner;
use faultline_scenario::{gallery, Run};
use faultline_sim::SimTime;
use std::sync::{Mutex, OnceLock};

use super::blame::Reason;
use super::region_map::{self, colour_index, LEADERLESS, LEADERLESS_HIBERNATED, STORE_BASE};
use super::*;

/// The shipped scenario `file` run to `secs` simulated seconds. Runs are cached: several
/// tests read the same moment, and a debug-build run takes seconds.
pub(crate) fn run_at(file: &str, secs: u64) -> Run {
    static CACHE: OnceLock<Mutex<Vec<(String, u64, Run)>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(Vec::new()));
    // A test that panicked while holding the lock leaves the cache itself intact.
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, _, run)) = cache.iter().find(|(f, s, _)| f == file && *s == secs) {
        return run.clone();
    }
    let entry = gallery()
        .into_iter()
        .find(|e| e.file == file)
        .unwrap_or_else(|| panic!("{file} is not shipped"));
    let mut run = Run::new(&entry.scenario).expect("a shipped scenario builds");
    run.run_until(SimTime(secs * 1_000_000));
    cache.push((file.to_string(), secs, run.clone()));
    run
}

pub(crate) const TIKV_14547: &str = "tikv-14547-leaders-lost-after-store-failure.toml";
/// Two of four stores die at 30 s; regions with two replicas there stay leaderless (no quorum)
/// until tikv-2 returns at 2m30s.
pub(crate) const QUORUM_LOST: &str = "raft-quorum-lost-two-stores.toml";
pub(crate) const TIFLOW_9595: &str = "tiflow-9595-changefeed-stuck-after-tikv-failure.toml";
pub(crate) const TIFLOW_9595_FIXED: &str =
    "tiflow-9595-changefeed-stuck-after-tikv-failure-fixed.toml";

#[test]
fn region_map_colours_leaderless_and_hibernated_regions_from_the_model() {
    // 90 s after tikv-1 and tikv-2 die, the regions with two replicas there are leaderless
    // (no quorum) and most other regions hibernate.
    let run = run_at(QUORUM_LOST, 120);
    let tikv = &run.world.model.tikv;
    let map = region_map(&run);
    assert_eq!(map.regions, tikv.region_count());
    assert_eq!(map.pixels.len(), (map.width * map.height) as usize);
    assert!(
        map.width.abs_diff(map.height) <= 1,
        "{}x{}",
        map.width,
        map.height
    );
    for r in 0..map.regions {
        let leader = if tikv.region_leaderless(r) {
            None
        } else {
            tikv.region_leader_store(r)
        };
        let want = colour_index(leader, tikv.region_hibernated(r));
        let (x, y) = (r % map.width, r / map.width);
        assert_eq!(map.region_at(x, y), Some(r));
        assert_eq!(map.pixels[r as usize], want, "region {r}");
    }
    let leaderless = tikv.leaderless_regions().count() as u32;
    assert!(leaderless > 0, "no leaderless region while quorum is lost");
    assert_eq!(
        map.count(LEADERLESS) + map.count(LEADERLESS_HIBERNATED),
        leaderless
    );
    // A region without quorum keeps its lone live peer campaigning (Chaos), so none of these
    // leaderless regions is hibernated; the every-pixel check above covers that colour too.
    assert_eq!(map.count(LEADERLESS_HIBERNATED), 0);
    // tikv-1 and tikv-2 are dead: no region is coloured as led by either.
    assert_eq!((0..4).map(|c| map.count(STORE_BASE + c)).sum::<u32>(), 0);
    // Every region has a replica on tikv-1 or tikv-2 (three of four stores each), and in TiKV
    // 7.1 a leader with a replica on a dead store cannot hibernate: no led region is dimmed.
    let hibernated_led: u32 = (2..4).map(|s| map.count(STORE_BASE + 2 * s + 1)).sum();
    assert_eq!(
        hibernated_led, 0,
        "a dimmed (hibernated) region with a dead replica"
    );
    assert!(map.count(STORE_BASE + 4) + map.count(STORE_BASE + 6) > 0);
    assert_eq!(map.stores, ["tikv-1", "tikv-2", "tikv-3", "tikv-4"]);

    let rgba = region_map::rgba_bytes(&map);
    assert_eq!(rgba.len(), map.pixels.len() * 4);

    // The detail panel of a leaderless region says for how long.
    let (r, _) = tikv
        .leaderless_regions()
        .next()
        .expect("a leaderless region");
    let d = region_detail(&run, r).expect("in range");
    assert_eq!(d.leader_store, None);
    assert!(d.leaderless_secs.is_some_and(|s| s > 60), "{d:?}");
    assert_eq!(d.peers.len(), 3);
    assert!(d.peers.iter().any(|p| p.store == "tikv-1" && !p.store_live));
    assert!(d
        .peers
        .iter()
        .all(|p| !p.group_state.is_empty() && p.term > 0));
    assert!(region_detail(&run, map.regions).is_none());
    // A TiKV-only run has no rows: the region is placed by the report's layout.
    assert!(
        matches!(d.place, region_detail::RegionPlace::Report { .. }),
        "{d:?}"
    );
}

#[test]
fn blame_names_the_orphaned_region_in_tiflow_9595_at_5_minutes() {
    let run = run_at(TIFLOW_9595, 300);
    let cdc = &run.world.model.cdc;
    let lost: Vec<u32> = cdc
        .processors
        .iter()
        .flatten()
        .flat_map(|p| p.kv.regions().iter())
        .filter(|(_, t)| t.owner == Owner::Lost)
        .map(|(r, _)| r)
        .collect();
    assert!(
        !lost.is_empty(),
        "the buggy run orphaned no region by 5 min"
    );

    let b = blame(&run);
    assert_eq!(b.feeds.len(), 1);
    let feed = &b.feeds[0];
    assert_eq!(feed.id, "redo-cf");
    assert!(
        feed.checkpoint_lag_secs > 100.0,
        "{}",
        feed.checkpoint_lag_secs
    );
    let holder = b
        .checkpoint_holder(0)
        .expect("a table holds the checkpoint");
    // Several tables can be orphaned at once, their watermarks tied; whichever table holds
    // the minimum resolved ts, its region is one of the orphaned ones too.
    let resolved_holder = feed
        .tables
        .iter()
        .find(|t| t.holds_resolved)
        .expect("a table holds the resolved ts");
    assert!(
        lost.contains(&resolved_holder.region.region),
        "{resolved_holder:?} vs lost {lost:?}"
    );
    assert!(
        lost.contains(&holder.region.region),
        "{holder:?} vs lost {lost:?}"
    );
    assert_eq!(holder.region.reasons.first(), Some(&Reason::Orphaned));
    assert_eq!(holder.region.owner, "lost");
    assert!(holder.regions.contains(&holder.region.region));
    // The tables are listed most lagging first.
    assert!(feed
        .tables
        .windows(2)
        .all(|w| w[0].checkpoint_lag_secs >= w[1].checkpoint_lag_secs));
}

#[test]
fn fixed_twin_blames_nothing_decisive_once_recovered() {
    let run = run_at(TIFLOW_9595_FIXED, 300);
    let b = blame(&run);
    let holder = b
        .checkpoint_holder(0)
        .expect("a table holds the checkpoint");
    assert!(holder.checkpoint_lag_secs < 30.0, "{holder:?}");
    assert!(!holder.region.reasons.contains(&Reason::Orphaned));
}

#[test]
fn consistency_checks_rows_and_lists_none_when_equal() {
    let run = run_at(TIFLOW_9595_FIXED, 300);
    let c = consistency(&run);
    assert_eq!(c.feeds.len(), 1);
    assert!(c.feeds[0].checked > 0);
    assert_eq!(c.feeds[0].differing, c.feeds[0].rows.len() as u64);
}

#[test]
fn metrics_strip_and_expectations_at_the_cursor() {
    let run = run_at(TIFLOW_9595, 300);
    let strip = metrics_strip(&run);
    let names: Vec<&str> = strip.items.iter().map(|i| i.name.as_str()).collect();
    for want in [
        "leaderless_regions",
        "longest_leaderless_secs",
        "hibernated_peers",
        "orphaned_regions",
        "checkpoint_lag.redo-cf",
    ] {
        assert!(names.contains(&want), "{want} missing from {names:?}");
    }
    let orphaned = strip.items.iter().find(|i| i.name == "orphaned_regions");
    assert!(orphaned.is_some_and(|i| i.value >= Some(1.0) && i.alert));

    let e = expectations(&run);
    assert_eq!(e.rows.len(), run.scenario.expect.len());
    assert!(e
        .rows
        .iter()
        .all(|r| ["pass", "fail", "pending"].contains(&r.verdict.as_str())));
    assert!(e.rows.iter().enumerate().all(|(i, r)| r.index == i));
    assert!(e.violation.is_none());
}

#[test]
fn before_the_run_reports_in_every_expectation_is_listed_pending() {
    let entry = gallery()
        .into_iter()
        .find(|e| e.file == TIFLOW_9595)
        .expect("shipped");
    let e = expectations::pending_expectations(&entry.scenario);
    let names: Vec<&str> = e.rows.iter().map(|r| r.name.as_str()).collect();
    let declared: Vec<&str> = entry
        .scenario
        .expect
        .iter()
        .map(|x| x.name.as_str())
        .collect();
    assert!(!names.is_empty());
    assert_eq!(names, declared);
    assert!(e
        .rows
        .iter()
        .all(|r| r.verdict == "pending" && r.observed.is_none()));
}

#[test]
fn log_uses_node_names_and_messages_are_recorded_when_enabled() {
    let mut run = run_at(TIKV_14547, 59);
    run.world.kernel.messages.set_capacity(1_000);
    run.run_until(SimTime(62_000_000));
    let log = log_vm(&run);
    assert!(
        log.rows.iter().any(|r| r.kind == "sim"),
        "the injected kill is logged"
    );
    assert!(log.nodes.contains(&"tikv-2".to_string()));
    assert!(log.rows.windows(2).all(|w| w[0].at_us <= w[1].at_us));
    let msgs = messages_vm(&run, u64::MAX);
    assert!(msgs.enabled);
    assert!(!msgs.rows.is_empty());
    // A window keeps exactly the deliveries after the cursor minus the window.
    let (first, last) = (
        msgs.rows[0].delivered_us,
        msgs.rows[msgs.rows.len() - 1].delivered_us,
    );
    let cut = (first + last) / 2;
    let windowed = messages_vm(&run, 62_000_000 - cut);
    let after = |r: &&super::log::MessageRow| r.delivered_us > cut;
    assert!(msgs.rows.len() > windowed.rows.len() && !windowed.rows.is_empty());
    assert_eq!(
        windowed.rows,
        msgs.rows.iter().filter(after).cloned().collect::<Vec<_>>()
    );
    let st = space_time(
        &msgs.rows,
        &["tikv-2".into(), "tikv-3".into(), "tikv-4".into()],
        61_000_000,
        1_000_000,
    );
    assert!(!st.arrows.is_empty());
    assert!(st.arrows.iter().all(|a| a.from_lane < 3 && a.to_lane < 3));
}

#[test]
fn view_models_survive_serde() {
    let run = run_at(TIFLOW_9595, 300);
    let b = blame(&run);
    let json = serde_json::to_string(&b).expect("serialises");
    let back: BlameVm = serde_json::from_str(&json).expect("deserialises");
    assert_eq!(back, b);
    let m = region_map(&run);
    let json = serde_json::to_string(&m).expect("serialises");
    assert_eq!(serde_json::from_str::<RegionMapVm>(&json).ok(), Some(m));
}

/// The map must stay cheap at the report's scale (256,000 regions): one pass, one byte each.
/// Ignored by default (building the full cluster takes a while in a debug build); run with
/// `cargo test -p faultline-web --release -- --ignored full_scale`.
#[test]
#[ignore]
fn full_scale_region_map_is_one_cheap_pass() {
    let text = include_str!("../../../scenarios/tikv-14547-full-scale.toml");
    let scenario = faultline_scenario::parse_scenario("full-scale.toml", text).expect("parses");
    let mut run = Run::new(&scenario).expect("builds");
    // Past the kill of tikv-1 at 60 s, so leaders, leaderless and hibernated regions all show.
    run.run_until(SimTime(70_000_000));
    let start = std::time::Instant::now();
    let map = region_map(&run);
    let rgba = region_map::rgba_bytes(&map);
    let took = start.elapsed();
    assert_eq!(map.regions, 256_000);
    assert_eq!((map.width, map.height), (506, 506));
    assert_eq!(rgba.len(), 506 * 506 * 4);
    eprintln!("region map of 256,000 regions: {took:?}");
}

pub(crate) const TIFLOW_4241: &str = "tiflow-4241-kafka-sink-close-blocks-owner.toml";

#[test]
fn tiflow_4241_sink_lanes_changefeed_list_and_owner_tick() {
    // Three minutes in, the broker has been down for two: the Kafka sinks went through
    // Closing (the blocking close) and their changefeeds are in error.
    let run = run_at(TIFLOW_4241, 180);
    let lanes = sink_lanes(&run);
    let names: Vec<&str> = lanes.lanes.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(
        names,
        ["kafka-cf-1", "kafka-cf-2", "kafka-cf-3", "mysql-cf"]
    );
    let kafka = &lanes.lanes[0];
    assert_eq!(
        kafka.segments[0].state, "running",
        "sinks start initialised"
    );
    assert!(
        kafka.segments.iter().any(|s| s.state == "closing"),
        "{kafka:?}"
    );
    let mysql = &lanes.lanes[3];
    assert!(
        mysql.segments.iter().all(|s| s.state == "running"),
        "{mysql:?}"
    );
    assert!(kafka
        .segments
        .windows(2)
        .all(|w| w[0].to_secs == w[1].from_secs));

    let list = changefeed_list(&run);
    assert_eq!(list.rows.len(), 4);
    assert_eq!(list.rows[3].sink_type, "mysql");
    assert!(
        list.rows[..3]
            .iter()
            .any(|r| r.state == "error" || r.state == "warning"),
        "{:?}",
        list.rows
    );
    assert!(
        list.rows[3].checkpoint_lag_secs > 30.0,
        "{:?}",
        list.rows[3]
    );

    let owner = chart_data(
        ChartKind::OwnerTick,
        &[LabelledRun {
            label: "buggy",
            run: &run,
        }],
        None,
    );
    let max = owner.series[0]
        .points
        .iter()
        .map(|p| p.1)
        .fold(0.0, f64::max);
    assert!(max > 30.0, "owner tick max {max}");
    assert!(available_charts(&run).contains(&ChartKind::OwnerTick));
}

pub(crate) const TIFLOW_9344: &str = "tiflow-9344-double-write-after-cdc-network-loss.toml";

#[test]
fn tiflow_9344_double_write_windows_match_the_writers_metric() {
    // The owner cdc-2 loses its network at 59 s for 10 s; its tables move and its old
    // processors keep writing: some table has two writers for a while.
    let run = run_at(TIFLOW_9344, 150);
    let lanes = table_lanes(&run);
    let with_overlap: Vec<&str> = lanes
        .lanes
        .iter()
        .filter(|l| !l.highlights.is_empty())
        .map(|l| l.name.as_str())
        .collect();
    assert!(!with_overlap.is_empty(), "no double-write window");
    let metrics = &run.world.kernel.metrics;
    for lane in lanes.lanes.iter().filter(|l| !l.highlights.is_empty()) {
        let w = &lane.highlights[0];
        let at = SimTime((w.from_secs * 1e6).round() as u64);
        let writers = metrics
            .at(&format!("writers.cf-1.{}", lane.name), at)
            .expect("sampled");
        assert!(writers >= 2.0, "{}: {writers} writers at {at:?}", lane.name);
        assert!(
            w.from_secs > 60.0,
            "after the network loss: {}",
            w.from_secs
        );
    }
    // A table that moved shows two captures on its lane.
    assert!(lanes.lanes.iter().any(|l| {
        let mut caps: Vec<&str> = l.segments.iter().map(|s| s.state.as_str()).collect();
        caps.retain(|s| s.starts_with("cdc-"));
        caps.dedup();
        caps.len() >= 2
    }));
    let owner = owner_lane(&run);
    assert_eq!(owner.lanes.len(), 1);
    assert!(
        owner.lanes[0].segments[0].state.starts_with("cdc-")
            || owner.lanes[0].segments[0].state == "none"
    );
}

/// Two captures, two changefeeds of three tables each: the owner hands tables to the least
/// loaded capture counting every changefeed, so cf-2's tables land opposite cf-1's.
const TWO_FEEDS: &str = r#"
name = "two changefeeds, tables placed differently"
seed = 7
duration = "1m"

[topology]
stores = 3
regions = 12
replicas = 3
captures = 2

[workload]
kind = "oltp_write_only"
txns_per_sec = 20
tables = 3
rows_per_table = 10

[[changefeeds]]
id = "cf-1"

[[changefeeds]]
id = "cf-2"
"#;

#[test]
fn blame_names_each_changefeeds_own_capture_for_a_table() {
    let scenario = faultline_scenario::parse_scenario("two-feeds.toml", TWO_FEEDS).expect("parses");
    let mut run = Run::new(&scenario).expect("builds");
    run.run_until(SimTime(20_000_000));
    let cdc = &run.world.model.cdc;
    let capture_name = |c: u32| {
        let node = cdc.captures[c as usize];
        run.world.kernel.net.nodes()[node.0 as usize].name.clone()
    };
    let primaries =
        |cf: u16| -> Vec<Option<u32>> { (0..3).map(|t| cdc.table_primary(cf, t)).collect() };
    assert!(
        primaries(0)
            .iter()
            .chain(&primaries(1))
            .all(Option::is_some),
        "every table has a primary by 20 s"
    );
    assert_ne!(
        primaries(0),
        primaries(1),
        "the scenario must place some table on different captures per changefeed"
    );
    let b = blame(&run);
    assert_eq!(b.feeds.len(), 2);
    for (cf, feed) in b.feeds.iter().enumerate() {
        assert!(!feed.tables.is_empty(), "{} lists no table", feed.id);
        for t in &feed.tables {
            let want = capture_name(cdc.table_primary(cf as u16, t.table).expect("placed"));
            assert_eq!(t.capture, want, "{} table {}", feed.id, t.table);
        }
    }
}

/// A region merged away is gone: the map leaves its pixel blank instead of painting it as a
/// leaderless, hibernated region, and its detail names the region it merged into.
#[test]
fn a_merged_region_is_blank_on_the_map_and_its_detail_names_its_target() {
    let run = run_at("cdc-region-merge-during-replication.toml", 31);
    let map = region_map(&run);
    assert_eq!(map.pixels[2], region_map::PAD);
    assert!(!map.leaderless.contains(&2));
    assert_ne!(map.pixels[3], region_map::PAD, "the target is drawn");
    let d = region_detail::region_detail(&run, 2).expect("the id exists");
    assert_eq!(d.merged_into, Some(3));
    assert_eq!(
        region_detail::region_detail(&run, 3).map(|d| d.merged_into),
        Some(None)
    );
}
