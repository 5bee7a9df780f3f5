//! Replays every input that once broke the link decoder or the parser (found by the fuzz
//! tests or cargo-fuzz), kept in tests/fuzz_corpus/{link,scenario}/. Each must be handled
//! without a panic, quickly. Add a file there for every new crash; see docs/fuzzing.md.

mod fuzz_common;

use std::path::PathBuf;

use faultline_scenario::{decode_link, parse_scenario};
use fuzz_common::{assert_round_trips, quick};

fn corpus(kind: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fuzz_corpus")
        .join(kind);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.is_file() && p.extension().is_none_or(|x| x != "md"));
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).expect("readable");
            (p, bytes)
        })
        .collect()
}

#[test]
fn link_corpus_replays() {
    for (path, bytes) in corpus("link") {
        let text = String::from_utf8_lossy(&bytes);
        let what = format!("decode_link({})", path.display());
        if let Ok(s) = quick(&what, || decode_link(&text)) {
            assert_round_trips(&s);
        }
    }
}

#[test]
fn scenario_corpus_replays() {
    for (path, bytes) in corpus("scenario") {
        let Ok(text) = std::str::from_utf8(&bytes) else {
            continue;
        };
        let what = format!("parse_scenario({})", path.display());
        if let Ok(s) = quick(&what, || parse_scenario("corpus.toml", text)) {
            assert_round_trips(&s);
        }
    }
}
