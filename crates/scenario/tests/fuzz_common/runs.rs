//! What must hold for every scenario that validates: the model builds it and runs its first
//! simulated second without a panic (issue 16 item 2: `stores = 6, replicas = 6` once passed
//! validation and then tripped an assertion in `Cluster::new`). Shared by the proptest suite
//! (tests/valid_scenarios_run.rs) and the cargo-fuzz target `scenario_parse`, which includes
//! this file by path (so it uses only `faultline_scenario`, the target's one model dependency).

use faultline_scenario::{validate::validate, Dur, Run, Scenario};

/// How far a validated scenario is run.
pub const RUN_FOR: Dur = Dur::secs(1);

/// Validates `s`; if it is valid, builds it and runs it for [`RUN_FOR`]. Returns whether it
/// was valid. Panics only on a real bug (a valid scenario the model cannot run).
pub fn check_valid_scenario_runs(s: &Scenario) -> bool {
    if validate("prop.toml", s).is_err() {
        return false;
    }
    // Expectations may name metrics this world lacks; that is `Run::new`'s own error, not a
    // panic, and the world was already built by then.
    if let Ok(mut run) = Run::new(s) {
        run.run_until(RUN_FOR.to_time());
    }
    true
}
