//! Replays every input that once broke (or stalled) the link decoder or the parser, kept in
//! tests/fuzz_corpus/<target>/ as the fuzzer saved it, through the same harness the cargo-fuzz
//! target runs. Each must be handled without a panic; a slow one is named on stderr. See docs/fuzzing.md.

mod fuzz_common;

use std::path::PathBuf;

use fuzz_common::{check_link, check_scenario_text, link_from_input, report_slow};

fn corpus(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fuzz_corpus")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.is_file());
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
fn link_decode_corpus_replays() {
    for (path, bytes) in corpus("link_decode") {
        if let Some(link) = link_from_input(&bytes) {
            report_slow(&format!("link_decode {}", path.display()), || {
                check_link(&link)
            });
        }
    }
}

#[test]
fn scenario_parse_corpus_replays() {
    for (path, bytes) in corpus("scenario_parse") {
        if let Ok(text) = std::str::from_utf8(&bytes) {
            report_slow(&format!("scenario_parse {}", path.display()), || {
                check_scenario_text(text)
            });
        }
    }
}
