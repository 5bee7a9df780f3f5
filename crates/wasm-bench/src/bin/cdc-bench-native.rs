//! What a changefeed costs at full scale, natively: `cdc-bench-native [SECONDS] [ROUNDS]` runs
//! `scenarios/ticdc-full-scale.toml` (256,000 regions, two captures, one MySQL changefeed over
//! every table) and its TiKV-only twin (the same file without its changefeed) for `SECONDS`
//! simulated seconds (default 40; past the file's 3 minutes both run longer), `ROUNDS` times
//! each, alternating (default 1), and prints each run's time, the ratio (issue 13's target: at
//! most 3x) and when the changefeed's checkpoint first moved (its start; target: within 10
//! simulated seconds). Asserts nothing: on a shared machine alternate several rounds and
//! compare like with like.

use std::time::Instant;

use faultline_scenario::{parse_scenario, Dur, Run, Scenario};
use faultline_sim::SimTime;
use faultline_wasm_bench::args::number_arg_or_exit;

const TICDC_FULL_SCALE: &str = include_str!("../../../../scenarios/ticdc-full-scale.toml");

/// The changefeed whose start is reported.
const CHANGEFEED_LAG: &str = "checkpoint_lag.cf-1";

const USAGE: &str = "cdc-bench-native [SECONDS] [ROUNDS]";

fn main() {
    let mut args = std::env::args().skip(1);
    let secs = number_arg_or_exit(USAGE, "SECONDS", args.next(), 2..=3600, 40);
    let rounds = number_arg_or_exit(USAGE, "ROUNDS", args.next(), 1..=100, 1);
    let mut with_cdc = parse_scenario("ticdc-full-scale.toml", TICDC_FULL_SCALE)
        .expect("the shipped full-scale changefeed scenario is valid");
    with_cdc.duration = with_cdc.duration.max(Dur::secs(secs));
    let tikv_only = without_changefeeds(&with_cdc);
    for round in 1..=rounds {
        let (tikv_s, _) = timed_run(&tikv_only, secs);
        let (cdc_s, run) = timed_run(&with_cdc, secs);
        let start = changefeed_start(&run, secs)
            .map_or(format!("not within {secs} s"), |s| format!("at {s} s"));
        println!(
            "round {round}: {secs} simulated s: TiKV only {tikv_s:.2} s, with the changefeed \
             {cdc_s:.2} s = {:.2}x; the checkpoint first moved {start}",
            cdc_s / tikv_s
        );
    }
}

/// The same scenario without changefeeds, and without the expectations and tour that name
/// their metrics.
fn without_changefeeds(s: &Scenario) -> Scenario {
    let mut twin = s.clone();
    twin.changefeeds.clear();
    twin.expect.clear();
    twin.guide.clear();
    twin
}

/// Builds the world (untimed) and runs it for `secs` simulated seconds; returns the wall
/// time of the run and the run.
fn timed_run(s: &Scenario, secs: u64) -> (f64, Run) {
    let mut run = Run::new(s).expect("the scenario builds");
    run.world.set_check_invariants(false);
    let t = Instant::now();
    run.run_until(SimTime(secs * 1_000_000));
    (t.elapsed().as_secs_f64(), run)
}

/// The first whole second at which the changefeed's checkpoint lag fell (the checkpoint moved
/// faster than time): before its start the lag grows one second per second.
fn changefeed_start(run: &Run, secs: u64) -> Option<u64> {
    let lag = |s| run.metric_at_secs(CHANGEFEED_LAG, s);
    (2..=secs).find(|&s| lag(s) < lag(s - 1))
}
