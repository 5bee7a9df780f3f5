//! One benchmark workload shared by a native binary and a wasm export, so the wasm/native
//! speed ratio compares exactly the same simulation: the report's cluster (4 stores, 256,000
//! regions) from `scenarios/tikv-14547-full-scale.toml`, run for a number of simulated minutes.
//!
//! The wasm export takes and returns plain integers, so it needs no wasm-bindgen glue and runs
//! under any WebAssembly engine (Node.js here, the browser's engine is the same V8).

pub mod args;

use faultline_scenario::{parse_scenario, Run};
use faultline_sim::SimTime;
use faultline_tikv::RaftWork;

const FULL_SCALE: &str = include_str!("../../../scenarios/tikv-14547-full-scale.toml");

/// The full-scale scenario's world at t = 0, invariant checks off (as the playground runs it).
pub fn full_scale_run() -> Run {
    let scenario = parse_scenario("tikv-14547-full-scale.toml", FULL_SCALE)
        .expect("the shipped full-scale scenario is valid");
    let mut run = Run::new(&scenario).expect("and runnable");
    run.world.set_check_invariants(false);
    run
}

/// Runs the full-scale scenario for `minutes` simulated minutes; returns events processed.
pub fn run_full_scale(minutes: u32) -> u64 {
    run_full_scale_counted(minutes).0
}

/// [`run_full_scale`], also returning the Raft work the run did: what its time follows.
pub fn run_full_scale_counted(minutes: u32) -> (u64, RaftWork) {
    let mut run = full_scale_run();
    run.run_until(SimTime(minutes as u64 * 60_000_000));
    (
        run.world.kernel.processed(),
        run.world.model.tikv.raft_work(),
    )
}

/// The wasm entry point.
#[no_mangle]
pub extern "C" fn bench_full_scale(minutes: u32) -> u64 {
    run_full_scale(minutes)
}

thread_local! {
    /// A run brought to a start time by [`prepare_full_scale`], for [`advance_prepared`].
    static PREPARED: std::cell::RefCell<Option<Run>> = const { std::cell::RefCell::new(None) };
}

/// Builds the full-scale world and runs it to `secs` simulated seconds, untimed: the start of
/// a stretch the caller then times with [`advance_prepared`] (the raw model over the same
/// stretch as a playground seek, `run.mjs MINUTES --from SECS`).
#[no_mangle]
pub extern "C" fn prepare_full_scale(secs: u32) {
    let mut run = full_scale_run();
    run.run_until(SimTime(secs as u64 * 1_000_000));
    PREPARED.with(|p| *p.borrow_mut() = Some(run));
}

/// Runs the prepared world on to `secs` simulated seconds; returns the events processed in
/// that stretch (0 if nothing was prepared).
#[no_mangle]
pub extern "C" fn advance_prepared(secs: u32) -> u64 {
    PREPARED.with(|p| {
        p.borrow_mut().as_mut().map_or(0, |run| {
            let before = run.world.kernel.processed();
            run.run_until(SimTime(secs as u64 * 1_000_000));
            run.world.kernel.processed() - before
        })
    })
}
