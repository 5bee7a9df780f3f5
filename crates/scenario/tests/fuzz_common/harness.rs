//! The checks behind every fuzz input, shared by the proptest suites (tests/fuzz_*.rs), the
//! regression corpus replay, and the cargo-fuzz targets in fuzz/ (which include this file by
//! path), so a saved cargo-fuzz input replays exactly as it ran.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use faultline_scenario::{decode_link, encode_link, parse_scenario, to_toml, Scenario};

/// The link a `link_decode` input stands for. The first byte picks the layer the rest feeds,
/// so the fuzzer does not have to rediscover base64 and zlib to reach the scenario decoder:
/// 0 = raw text, 1 = raw bytes behind `v1.`, 2 = zlib-packed bytes behind `v1.`.
pub fn link_from_input(data: &[u8]) -> Option<String> {
    let (mode, rest) = data.split_first()?;
    Some(match mode % 3 {
        0 => String::from_utf8_lossy(rest).into_owned(),
        1 => link_of(rest),
        _ => zlib_link_of(rest),
    })
}

/// `v1.` + base64url of `bytes`.
pub fn link_of(bytes: &[u8]) -> String {
    format!("v1.{}", URL_SAFE_NO_PAD.encode(bytes))
}

/// `v1.` + base64url of zlib-packed `bytes`.
pub fn zlib_link_of(bytes: &[u8]) -> String {
    link_of(&miniz_oxide::deflate::compress_to_vec_zlib(bytes, 1))
}

/// Decodes `link`; whatever decodes must round-trip. Panics only on a real bug.
pub fn check_link(link: &str) {
    if let Ok(s) = decode_link(link) {
        assert_round_trips(&s);
    }
}

/// Parses `text`; whatever parses must round-trip. Panics only on a real bug.
pub fn check_scenario_text(text: &str) {
    if let Ok(s) = parse_scenario("fuzz.toml", text) {
        assert_round_trips(&s);
    }
}

/// What must hold for every scenario that parsed or decoded: it survives TOML export and the
/// share link unchanged.
pub fn assert_round_trips(s: &Scenario) {
    let text = to_toml(s);
    let back = parse_scenario("export.toml", &text)
        .unwrap_or_else(|e| panic!("exported TOML does not parse: {e}\n{text}"));
    assert_eq!(&back, s, "TOML round trip changed the scenario");
    let link = encode_link(s);
    let back = decode_link(&link).unwrap_or_else(|e| panic!("own link does not decode: {e}"));
    assert_eq!(&back, s, "link round trip changed the scenario");
}
