//! `faultline verify` and `faultline diff` as a user runs them: exit codes and words.

use std::process::Command;

use faultline_scenario::{
    decode_shared, encode_shared, gallery, self_checking_link, RunRecord, Scenario,
};

fn faultline(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_faultline"))
        .args(args)
        .output()
        .expect("the binary runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().expect("exited"), text)
}

fn scenario(file: &str) -> Scenario {
    gallery()
        .into_iter()
        .find(|e| e.file == file)
        .expect("in the gallery")
        .scenario
}

#[test]
fn verify_reproduces_a_fresh_link_of_every_gallery_scenario() {
    // One thread per scenario: each records its run to the end, then replays it in the CLI.
    let failures: Vec<String> = std::thread::scope(|scope| {
        let jobs: Vec<_> = gallery()
            .into_iter()
            .map(|entry| {
                scope.spawn(move || {
                    let end = entry.scenario.duration.to_time();
                    let link = self_checking_link(&entry.scenario, end).expect("builds");
                    let (code, text) = faultline(&["verify", &link]);
                    let ok = code == 0
                        && text.starts_with("Reproduced: the same run as when it was shared");
                    (!ok).then(|| format!("{}: exit {code}: {text}", entry.file))
                })
            })
            .collect();
        jobs.into_iter()
            .filter_map(|j| j.join().expect("no panic"))
            .collect()
    });
    assert!(failures.is_empty(), "{failures:#?}");
}

fn tampered(link: &str, edit: impl FnOnce(&mut RunRecord)) -> String {
    let shared = decode_shared(link).expect("opens");
    let mut record = shared.record.expect("a record");
    edit(&mut record);
    encode_shared(&shared.scenario, Some(&record))
}

#[test]
fn verify_says_different_run_when_the_recorded_hash_does_not_match() {
    let s = scenario("raft-basics-kill-a-store.toml");
    let link = self_checking_link(&s, s.duration.to_time()).expect("builds");
    let bad = tampered(&link, |r| r.trace_hash ^= 1);
    let (code, text) = faultline(&["verify", &bad]);
    assert_eq!(code, 1, "{text}");
    let v = faultline_scenario::MODEL_VERSION;
    assert!(
        text.starts_with(&format!(
            "Different run: shared with model {v}, this is model {v}"
        )),
        "{text}"
    );
    assert!(text.contains("trace hash at"), "{text}");
}

#[test]
fn verify_names_a_changed_verdict_even_when_the_hash_matches() {
    // A link this build records, so its hash matches; then one verdict flipped.
    let s = scenario("raft-quorum-lost-two-stores.toml");
    let link = self_checking_link(&s, s.duration.to_time()).expect("builds");
    let bad = tampered(&link, |r| {
        r.verdicts[0] = match r.verdicts[0] {
            faultline_scenario::Verdict::Pass => faultline_scenario::Verdict::Fail,
            _ => faultline_scenario::Verdict::Pass,
        }
    });
    let (code, text) = faultline(&["verify", &bad]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("this is a Faultline bug"), "{text}");
    assert!(text.contains("expect[0]"), "{text}");
}

#[test]
fn verify_exits_2_on_a_bad_link_or_one_without_a_record() {
    let (code, text) = faultline(&["verify", "v2.AAAA"]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("the link is"), "{text}");
    assert!(!text.contains("link: link"), "{text}");
    let plain = faultline_scenario::encode_link(&scenario("raft-basics-kill-a-store.toml"));
    let (code, text) = faultline(&["verify", &plain]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("records no run"), "{text}");
}

#[test]
fn diff_finds_where_buggy_and_fixed_part_and_nothing_between_equal_runs() {
    let buggy = faultline_scenario::encode_link(&scenario(
        "tiflow-9595-changefeed-stuck-after-tikv-failure.toml",
    ));
    let fixed = faultline_scenario::encode_link(&scenario(
        "tiflow-9595-changefeed-stuck-after-tikv-failure-fixed.toml",
    ));
    let (code, text) = faultline(&["diff", &buggy, &fixed]);
    assert_eq!(code, 1, "{text}");
    assert!(text.starts_with("the runs first differ at "), "{text}");
    assert!(text.contains("\nA: ") && text.contains("\nB: "), "{text}");
    let (code, text) = faultline(&["diff", &buggy, &buggy]);
    assert_eq!(code, 0, "{text}");
    assert!(text.starts_with("Same run"), "{text}");
}
