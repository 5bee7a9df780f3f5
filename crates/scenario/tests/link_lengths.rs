//! Every gallery link stays at most 2,000 characters, description and guide captions included,
//! even with the longest run record a link can carry (docs/bench.md lists the lengths).

use faultline_scenario::{encode_link, encode_shared, gallery, RunRecord, Verdict};

/// The most a link may take, so it survives being pasted into issues and chat.
const MAX_GALLERY_LINK_CHARS: usize = 2000;

#[test]
fn every_gallery_link_fits_in_2000_characters() {
    let mut too_long = Vec::new();
    for e in gallery() {
        // The widest record: the cursor at the end, a 64-bit hash, a verdict per expectation.
        let record = RunRecord {
            cursor: e.scenario.duration.to_time(),
            trace_hash: u64::MAX,
            verdicts: vec![Verdict::Pass; e.scenario.expect.len()],
        };
        let plain = encode_link(&e.scenario).len();
        let checked = encode_shared(&e.scenario, Some(&record)).len();
        println!("| `{}` | {plain} | {checked} |", e.file);
        if checked > MAX_GALLERY_LINK_CHARS {
            too_long.push(format!("{}: {checked}", e.file));
        }
    }
    assert!(
        too_long.is_empty(),
        "links over {MAX_GALLERY_LINK_CHARS} characters: {too_long:?}"
    );
}
