//! Share-link decoder: no input may panic, hang or allocate without bound, and what decodes
//! must round-trip. The checks are shared with the proptest suite and the corpus replay.
#![no_main]

#[path = "../../crates/scenario/tests/fuzz_common/harness.rs"]
mod harness;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some(link) = harness::link_from_input(data) {
        harness::check_link(&link);
    }
});
