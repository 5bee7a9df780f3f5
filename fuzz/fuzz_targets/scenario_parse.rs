//! Scenario parser: no input may panic, hang or allocate without bound, and what parses must
//! round-trip through TOML export and the share link. The checks are shared with the proptest
//! suite and the corpus replay.
#![no_main]

#[path = "../../crates/scenario/tests/fuzz_common/harness.rs"]
mod harness;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        harness::check_scenario_text(text);
    }
});
