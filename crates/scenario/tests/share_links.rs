//! Share links: round trip, the pinned golden link, and a readable error for each kind of bad
//! link.

use base64::Engine;
use faultline_scenario::*;

const SMALL: &str = r#"
name = "golden"
description = "A pinned scenario whose link must keep decoding."
seed = 7
duration = "2m"
[topology]
stores = 3
regions = 8
[toggles]
"tikv.unreachable_broadcast" = "repeat_if_new_messages"
"cdc.kv_client_evict" = "on_worker_exit"
[[faults]]
at = "30s"
action = "kill"
target = "tikv-2"
duration = "20s"
[[expect]]
metric = "store_heartbeats"
op = ">"
value = 0
"#;

/// A v1 link as the last v1 build wrote it (also in `tests/link_corpus/v1/`): if the v1
/// decoder changes, this stops decoding, which means old shared links break too. Never edit it.
const GOLDEN: &str = "v1.eNpVjbuuQUEYRv_Zs-NcinNOfaKYTkVEp1B4EtnMHyabGdkzSFRTiEviVqnQCY3CGyhEKWqlTu8BDJ0v-ZqVlaxYWVU5ynSe1YWUyJkuoQwioVirojSyqpAhqzW0YSFinXEsKS5kOQUfdj7P0k8KsO_kvG9C9puVT-yxOyF2OFp6drq4_dvt1X99fIq_KLnT8y8BZ892HgD4HIjtrX8gZkTYTGYccuBy-HLOnzYqwkIFg8gUMTAa3ue65y61g3Y_QZ-RB7cxQck";

fn small() -> Scenario {
    parse_scenario("golden.toml", SMALL).expect("valid")
}

#[test]
fn round_trip_gives_the_same_scenario() {
    let s = small();
    let link = encode_link(&s);
    assert!(link.starts_with("v2."), "{link}");
    assert_eq!(decode_link(&link).unwrap(), s);
    assert_eq!(decode_link(&format!("#{link}")).unwrap(), s);
    assert_eq!(
        decode_link(&share_url("http://127.0.0.1:8080/", &s)).unwrap(),
        s
    );
    for entry in gallery() {
        assert_eq!(
            decode_link(&encode_link(&entry.scenario)).unwrap(),
            entry.scenario,
            "{}",
            entry.file
        );
    }
}

#[test]
fn golden_link_decodes() {
    assert_eq!(
        decode_link(GOLDEN).unwrap(),
        small(),
        "current encoding: {}",
        encode_link(&small())
    );
}

#[test]
fn corrupted_link_is_rejected_readably() {
    let link = encode_link(&small());
    // Flip one payload character in the middle: the zlib checksum or the decoder catches it.
    let mut chars: Vec<char> = link.chars().collect();
    let mid = chars.len() / 2;
    chars[mid] = if chars[mid] == 'A' { 'B' } else { 'A' };
    let bad: String = chars.into_iter().collect();
    let err = decode_link(&bad).unwrap_err();
    assert!(
        matches!(err, LinkError::Corrupted(_) | LinkError::BadScenario(_)),
        "{err:?}"
    );
    assert!(err.to_string().contains("corrupted"), "{err}");
}

#[test]
fn truncated_link_is_rejected_readably() {
    let link = encode_link(&small());
    let err = decode_link(&link[..link.len() - 12]).unwrap_err();
    assert!(matches!(err, LinkError::Corrupted(_)), "{err:?}");
    assert!(err.to_string().contains("truncated"), "{err}");
}

#[test]
fn a_link_cut_inside_the_compressed_data_says_so_in_words() {
    let link = encode_link(&small());
    let (prefix, payload) = link.split_at(link.find('.').unwrap() + 1);
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(payload)
        .unwrap();
    let cut = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&bytes[..bytes.len() / 2]);
    let err = decode_link(&format!("{prefix}{cut}"))
        .unwrap_err()
        .to_string();
    // Words a reader can act on, not the decoder's status enum (`FailedCannotMakeProgress`).
    assert!(err.contains("part of the link is missing"), "{err}");
    assert!(!err.contains("Failed"), "{err}");
}

#[test]
fn a_link_cut_at_any_length_says_so_in_words() {
    let link = encode_link(&small());
    let start = link.find('.').unwrap() + 2;
    for end in start..link.len() {
        let err = decode_link(&link[..end]).unwrap_err().to_string();
        // The words a reader acts on, never the base64 decoder's ("Invalid last symbol 79,
        // offset 61.") or the inflater's own messages.
        assert!(
            err.contains("missing") || err.contains("edited") || err.contains("does not decode"),
            "cut at {end}: {err}"
        );
        for raw in ["Invalid", "symbol", "offset", "Failed", "byte"] {
            assert!(!err.contains(raw), "cut at {end}: {err}");
        }
    }
}

#[test]
fn future_version_is_rejected_readably() {
    let link = encode_link(&small()).replacen("v2.", "v3.", 1);
    let err = decode_link(&link).unwrap_err();
    assert_eq!(err, LinkError::FutureVersion(3));
    assert!(err.to_string().contains("newer Faultline"), "{err}");
}

#[test]
fn not_a_link_and_bad_characters_are_rejected() {
    assert_eq!(decode_link("hello").unwrap_err(), LinkError::NotALink);
    assert_eq!(decode_link("").unwrap_err(), LinkError::NotALink);
    let err = decode_link("v1.abc$def").unwrap_err();
    assert_eq!(
        err,
        LinkError::BadCharacter {
            position: 4,
            ch: '$'
        }
    );
}

#[test]
fn decompression_bomb_is_capped() {
    // 1 MiB of zeros compresses to about 1 KiB; the decoder must stop at the cap.
    let bomb = miniz_oxide::deflate::compress_to_vec_zlib(&vec![0u8; 1 << 20], 9);
    use base64::Engine;
    let link = format!(
        "v1.{}",
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bomb)
    );
    assert_eq!(decode_link(&link).unwrap_err(), LinkError::TooLarge);
    let long = format!("v1.{}", "A".repeat(link::MAX_LINK_CHARS + 1));
    assert!(matches!(
        decode_link(&long).unwrap_err(),
        LinkError::TooLong(_)
    ));
}

#[test]
fn link_with_invalid_scenario_names_the_field() {
    let mut s = small();
    s.topology.stores = 1000;
    let err = decode_link(&encode_link(&s)).unwrap_err();
    assert!(
        err.to_string()
            .contains("`topology.stores`: 1000 is out of range; allowed 1..=16"),
        "{err}"
    );
}

#[test]
fn a_link_whose_workload_stops_after_the_run_ends_names_the_field() {
    let mut s = small();
    s.workload.stop_at = Some(Dur::secs(s.duration.0 / 1_000_000 + 60));
    let err = decode_link(&encode_link(&s)).unwrap_err();
    assert!(
        err.to_string().contains("`workload.stop_at`")
            && err.to_string().contains("after the end of the run"),
        "{err}"
    );
}

#[test]
fn a_page_url_with_its_cursor_opens() {
    let s = small();
    let url = format!("{}&t=40", share_url("http://127.0.0.1:8080/", &s));
    assert_eq!(decode_link(&url).unwrap(), s);
}
