//! tikv#14547 and TiCDC together: while regions are leaderless, nobody sends their resolved
//! ts, so a changefeed's lag climbs (MODEL.md: "TiCDC cannot get resolved ts for it").

use faultline_scenario::*;

const BUGGY: &str =
    include_str!("../../../scenarios/tikv-14547-leaders-lost-after-store-failure.toml");

fn with_changefeed(toggle: &str) -> Run {
    let mut s = parse_with_overrides(
        "14547+cdc.toml",
        BUGGY,
        &[
            "topology.captures=1".into(),
            "workload.txns_per_sec=20".into(),
            "workload.tables=10".into(),
            "workload.rows_per_table=50".into(),
            format!("toggles.tikv.unreachable_broadcast={toggle}"),
        ],
    )
    .unwrap();
    s.changefeeds.push(ChangefeedSpec {
        id: "cf".into(),
        sink: SinkKind::default(),
        redo: false,
        tables: None,
        protocol: KafkaProtocol::default(),
    });
    s.expect.clear();
    let mut r = Run::new(&s).unwrap();
    r.run_until(faultline_sim::SimTime(8 * 60 * 1_000_000));
    r
}

fn at(r: &Run, metric: &str, secs: u64) -> f64 {
    r.world
        .kernel
        .metrics
        .at(metric, faultline_sim::SimTime(secs * 1_000_000))
        .unwrap()
}

#[test]
fn changefeed_lag_climbs_while_regions_are_leaderless() {
    let r = with_changefeed("once_per_disconnect");
    assert!(
        at(&r, "leaderless_regions", 360) > 0.0,
        "the race must still hit with CDC running"
    );
    let (l1, l2) = (
        at(&r, "checkpoint_lag.cf", 240),
        at(&r, "checkpoint_lag.cf", 420),
    );
    assert!(
        l2 - l1 > 170.0,
        "lag should grow ~1 s/s while leaderless: {l1} -> {l2}"
    );
}

#[test]
fn with_the_fix_the_changefeed_recovers() {
    let r = with_changefeed("repeat_if_new_messages");
    assert_eq!(at(&r, "leaderless_regions", 180), 0.0);
    assert!(at(&r, "checkpoint_lag.cf", 420) < 10.0);
}
