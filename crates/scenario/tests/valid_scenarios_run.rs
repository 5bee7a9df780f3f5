//! Property: every scenario that passes validation builds and runs one simulated second
//! without a panic, so the validation limits are the model's own (issue 16 item 2). The
//! generated scenarios straddle every topology limit (stores, regions, replicas, captures,
//! brokers) and vary the timing knobs, so both sides of each limit are exercised.

mod fuzz_common;

#[path = "fuzz_common/runs.rs"]
mod runs;

use faultline_scenario::{ChangefeedSpec, Dur, Scenario, SinkKind};
use proptest::prelude::*;

fn base() -> Scenario {
    faultline_scenario::parse_scenario("base.toml", "name = \"prop\"\nduration = \"10s\"\n")
        .expect("the base scenario is valid")
}

prop_compose! {
    fn scenarios()(
        stores in 0u32..=18,
        replicas in 0u32..=7,
        regions in prop_oneof![1u32..=64, Just(0u32), Just(300_001u32)],
        captures in 0u32..=3,
        brokers in 0u32..=2,
        feeds in prop::collection::vec(any::<bool>(), 0..=2),
        tick_ms in prop_oneof![Just(1_000u64), 5u64..=2_000],
        heartbeat in 1u32..=4,
        election in 2u32..=20,
        txns in 0u32..=50,
        writes in 0u32..=50,
        tables in 1u32..=6,
        seed in any::<u64>(),
    ) -> Scenario {
        let mut s = base();
        s.seed = seed;
        s.topology.stores = stores;
        s.topology.replicas = replicas;
        s.topology.regions = regions;
        s.topology.captures = captures;
        s.topology.kafka_brokers = brokers;
        s.raft.base_tick = Dur::millis(tick_ms);
        s.raft.heartbeat_ticks = heartbeat;
        s.raft.election_ticks = election;
        s.raft.leader_lease = Dur::millis(tick_ms * u64::from(election) / 2);
        s.workload.txns_per_sec = txns;
        s.workload.writes_per_sec = writes;
        s.workload.tables = tables;
        s.changefeeds = feeds
            .iter()
            .enumerate()
            .map(|(i, kafka)| ChangefeedSpec {
                sink: if *kafka { SinkKind::Kafka } else { SinkKind::Mysql },
                ..ChangefeedSpec::new(format!("cf-{i}"))
            })
            .collect();
        s
    }
}

proptest! {
    #![proptest_config(fuzz_common::config(48))]

    #[test]
    fn every_valid_scenario_builds_and_runs_a_second(s in scenarios()) {
        runs::check_valid_scenario_runs(&s);
    }
}

/// The generator is not vacuous: it makes valid scenarios and invalid ones (a property that
/// only ever saw rejected scenarios would pass without running anything).
#[test]
fn the_generator_straddles_the_limits() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::new(fuzz_common::config(48));
    let (mut valid, mut invalid) = (0, 0);
    for _ in 0..200 {
        let s = scenarios().new_tree(&mut runner).expect("tree").current();
        match faultline_scenario::validate::validate("g.toml", &s) {
            Ok(()) => valid += 1,
            Err(_) => invalid += 1,
        }
    }
    assert!(
        valid >= 20 && invalid >= 20,
        "valid {valid}, invalid {invalid}"
    );
}
