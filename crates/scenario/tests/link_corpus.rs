//! The never-regenerated corpus of shared links (`tests/link_corpus/`): every link format this
//! repository ever wrote keeps decoding to the same scenario.

use std::fs;
use std::path::{Path, PathBuf};

use faultline_scenario::{decode_link, decode_shared, gallery, parse_scenario, Verdict};

fn corpus_dir(format: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/link_corpus")
        .join(format)
}

/// (link file stem, link text, expected scenario TOML) for every link of one format.
fn entries(format: &str) -> Vec<(String, String, String)> {
    let mut out: Vec<_> = fs::read_dir(corpus_dir(format))
        .expect("the corpus directory exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "link"))
        .map(|p| {
            let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
            let link = fs::read_to_string(&p).expect("readable");
            let toml = fs::read_to_string(p.with_extension("toml"))
                .unwrap_or_else(|_| panic!("{stem}.link has no {stem}.toml beside it"));
            (stem, link, toml)
        })
        .collect();
    out.sort();
    out
}

/// `every_gallery_file`: whether each gallery scenario must be in this corpus. v1 was replaced
/// before later gallery scenarios existed, so only v2 (the current format) must hold them all.
fn assert_corpus_decodes(format: &str, every_gallery_file: bool) {
    let all = entries(format);
    for (stem, link, toml) in &all {
        let expected = parse_scenario(&format!("{stem}.toml"), toml).expect("corpus TOML parses");
        let decoded = decode_link(link.trim())
            .unwrap_or_else(|e| panic!("{format}/{stem}.link no longer decodes: {e}"));
        assert_eq!(
            decoded, expected,
            "{format}/{stem}.link decodes differently"
        );
    }
    // Each gallery scenario is in the corpus, so a format change that breaks one is caught.
    for entry in gallery().into_iter().filter(|_| every_gallery_file) {
        let stem = entry.file.trim_end_matches(".toml");
        assert!(
            all.iter().any(|(s, _, _)| s == stem),
            "{format} corpus lacks {stem}"
        );
    }
}

#[test]
fn every_v1_link_decodes_to_its_scenario() {
    assert_corpus_decodes("v1", false);
    let goldens = entries("v1")
        .into_iter()
        .filter(|(s, _, _)| s.starts_with("golden-"))
        .count();
    assert_eq!(goldens, 4, "one golden link per historical v1 layout");
}

#[test]
fn every_v2_link_decodes_to_its_scenario() {
    assert_corpus_decodes("v2", true);
}

#[test]
fn v1_links_record_no_model_and_v2_links_do() {
    for (stem, link, _) in entries("v1") {
        assert_eq!(
            decode_shared(link.trim()).unwrap().model_version,
            None,
            "{stem}"
        );
    }
    // A v2 link records the model version of the build that wrote it: 1 for the scenarios
    // of the first v2 build, later for gallery scenarios added since.
    for (stem, link, _) in entries("v2") {
        let version = decode_shared(link.trim()).unwrap().model_version;
        assert!(version.is_some_and(|v| v >= 1), "{stem}: {version:?}");
    }
}

#[test]
fn a_self_checking_v2_link_keeps_its_record() {
    let (_, link, _) = entries("v2")
        .into_iter()
        .find(|(s, _, _)| s.starts_with("self-checking-"))
        .expect("the corpus has a self-checking link");
    let record = decode_shared(link.trim())
        .unwrap()
        .record
        .expect("a run record");
    assert!(record.cursor.0 > 0);
    assert!(!record.verdicts.is_empty());
    assert!(record.verdicts.iter().all(|v| *v != Verdict::Pending));
}
