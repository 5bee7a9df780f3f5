//! Scenario parser: no input may panic, hang or allocate without bound, what parses must
//! round-trip through TOML export and the share link, and what validates must build and run
//! its first simulated second (the validation limits are the model's own). The checks are
//! shared with the proptest suites and the corpus replay.
#![no_main]

#[path = "../../crates/scenario/tests/fuzz_common/harness.rs"]
mod harness;
#[path = "../../crates/scenario/tests/fuzz_common/runs.rs"]
mod runs;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        harness::check_scenario_text(text);
        if let Ok(s) = faultline_scenario::parse_scenario("fuzz.toml", text) {
            runs::check_valid_scenario_runs(&s);
        }
    }
});
