//! Property-based fuzzing of `decode_link`: no input panics or takes long, at every layer
//! (text, base64, zlib, postcard for v1, CBOR for v2, validation), and whatever decodes round-trips.
//! cargo-fuzz runs the same checks for longer: see docs/fuzzing.md.

mod fuzz_common;

use std::sync::OnceLock;

use faultline_scenario::decode_link;
use fuzz_common::harness::{link_of, zlib_link_of};
use fuzz_common::{check_link, mutate, report_slow, seed_links, seed_scenarios, Edit};
use proptest::prelude::*;

fn decode(link: &str) {
    report_slow("decode_link", || check_link(link));
}

/// The postcard bytes inside each seed scenario's link, encoded once.
fn seed_payloads() -> &'static [Vec<u8>] {
    static PAYLOADS: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    PAYLOADS.get_or_init(|| {
        seed_scenarios()
            .iter()
            .map(|s| postcard::to_allocvec(s).expect("serialises"))
            .collect()
    })
}

/// The CBOR payload inside each seed scenario's v2 link (what this build writes).
fn seed_v2_payloads() -> &'static [Vec<u8>] {
    static PAYLOADS: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    PAYLOADS.get_or_init(|| {
        use base64::Engine;
        seed_links()
            .iter()
            .map(|link| {
                let packed = base64::engine::general_purpose::URL_SAFE_NO_PAD
                    .decode(link.strip_prefix("v2.").expect("a v2 link"))
                    .expect("base64");
                miniz_oxide::inflate::decompress_to_vec_zlib(&packed).expect("zlib")
            })
            .collect()
    })
}

/// `v2.` + base64url of zlib-packed `bytes`.
fn zlib_v2_link_of(bytes: &[u8]) -> String {
    zlib_link_of(bytes).replacen("v1.", "v2.", 1)
}

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    prop::collection::vec((any::<u8>(), any::<usize>(), any::<u8>()), 1..6)
}

proptest! {
    #![proptest_config(fuzz_common::config(1500))]

    #[test]
    fn arbitrary_text(text in any::<String>()) {
        decode(&text);
        decode(&format!("v1.{text}"));
        decode(&format!("http://127.0.0.1:8080/#v1.{text}"));
    }

    #[test]
    fn link_shaped_text(text in "(https?://[a-z./:0-9]{0,20}#)?#?v[0-9]{0,12}\\.[A-Za-z0-9_#.=+/-]{0,200}") {
        decode(&text);
    }

    #[test]
    fn arbitrary_bytes_behind_v1(bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
        decode(&link_of(&bytes));
    }

    #[test]
    fn arbitrary_bytes_zlib_packed(bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
        decode(&zlib_link_of(&bytes));
    }

    #[test]
    fn mutated_valid_links(pick in any::<usize>(), edits in edits()) {
        let links = seed_links();
        let link = &links[pick % links.len()];
        decode(&String::from_utf8_lossy(&mutate(link.as_bytes(), &edits)));
    }

    #[test]
    fn mutated_scenario_bytes(pick in any::<usize>(), edits in edits()) {
        // Mutating the postcard bytes under a valid zlib layer reaches the scenario decoder
        // and validation, which random base64 almost never does.
        let payloads = seed_payloads();
        let bytes = mutate(&payloads[pick % payloads.len()], &edits);
        decode(&zlib_link_of(&bytes));
    }

    #[test]
    fn arbitrary_bytes_zlib_packed_behind_v2(bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
        decode(&zlib_v2_link_of(&bytes));
    }

    #[test]
    fn mutated_v2_payloads(pick in any::<usize>(), edits in edits()) {
        // Mutating the CBOR under a valid zlib layer reaches the tagged decoder, the
        // newer-model message and validation.
        let payloads = seed_v2_payloads();
        let bytes = mutate(&payloads[pick % payloads.len()], &edits);
        decode(&zlib_v2_link_of(&bytes));
    }
}

#[test]
fn huge_and_degenerate_links_fail_fast() {
    let long = "A".repeat(10 * 1024 * 1024);
    for link in [
        format!("v1.{long}"),
        format!("#{long}"),
        "v1.".to_string(),
        "v4294967295.x".into(),
        "v99999999999999999999.x".into(),
        "#".repeat(100_000),
        // A zlib bomb: 64 MiB of zeros packs into a few KiB, far above the unpack limit.
        zlib_link_of(&vec![0u8; 64 * 1024 * 1024]),
    ] {
        assert!(report_slow("decode_link", || decode_link(&link)).is_err());
    }
}
