//! `faultline check` checks what a tour's captions claim: a false claim fails the check and
//! the line names the step, the claim and the value the run showed.

mod common;

use common::{faultline, stdout, SMALL};

/// SMALL with one guide step at 1m claiming `leaderless_regions <op> <value>`.
fn with_claim(op: &str, value: u32) -> String {
    format!(
        "{SMALL}\n[[guide]]\nat = \"1m\"\ncaption = \"Every region has a leader.\"\n[[guide.expect]]\nname = \"no region is leaderless\"\nmetric = \"leaderless_regions\"\nop = \"{op}\"\nvalue = {value}\n"
    )
}

fn check(text: &str) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tour.toml");
    std::fs::write(&path, text).unwrap();
    let o = faultline(&["check", path.to_str().unwrap()]);
    (o.status.code(), stdout(&o))
}

#[test]
fn a_true_caption_claim_passes() {
    let (code, text) = check(&with_claim("==", 0));
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("pass  guide step 1 (1m): \"no region is leaderless\" (leaderless_regions at 1m == 0); observed 0"),
        "{text}"
    );
    assert!(text.contains("2 passed, 0 failed"), "{text}");
}

#[test]
fn a_false_caption_claim_fails_naming_step_claim_and_value() {
    let (code, text) = check(&with_claim(">=", 2));
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("FAIL  guide step 1 (1m): \"no region is leaderless\" (leaderless_regions at 1m >= 2); observed 0"),
        "{text}"
    );
    assert!(text.contains("1 passed, 1 failed"), "{text}");
}
