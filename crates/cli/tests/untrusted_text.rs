//! Scenario text is untrusted (anyone can craft a share link): control characters in a name,
//! an expectation's name, a description or a caption never reach the terminal raw.

mod common;

use std::process::Output;

use common::{faultline, stderr, stdout, SMALL};

/// Clears the screen, retitles the window, then moves up a line to forge a pass.
const EVIL: &str = r"\u001b[2J\u001b]0;owned\u0007\u001b[1A\r  pass  \u009b31m\u202e";

fn hostile_scenario() -> String {
    SMALL
        .replace(
            "name = \"No region ever loses its leader\"",
            &format!("name = \"Evil {EVIL}\"\ndescription = \"desc {EVIL}\""),
        )
        .replace(
            "name = \"no leaderless region after the first elections\"",
            &format!("name = \"expectation {EVIL}\""),
        )
        + &format!("[[guide]]\nat = \"0s\"\ncaption = \"caption {EVIL}\"\n")
}

/// Every byte a terminal would act on: C0 controls but newline and tab, DEL, and the UTF-8
/// forms of C1 controls and bidi overrides.
fn raw_controls(bytes: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(bytes);
    text.chars()
        .filter(|c| {
            (c.is_control() && *c != '\n' && *c != '\t')
                || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
        })
        .map(|c| format!("U+{:04X}", c as u32))
        .collect()
}

fn assert_clean(what: &str, o: &Output) {
    for (stream, bytes) in [("stdout", &o.stdout), ("stderr", &o.stderr)] {
        let found = raw_controls(bytes);
        assert!(found.is_empty(), "{what}: raw {found:?} on {stream}");
    }
}

#[test]
fn control_characters_from_a_scenario_are_printed_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("evil.toml");
    std::fs::write(&file, hostile_scenario()).unwrap();
    let file = file.to_str().unwrap();

    let check = faultline(&["check", file]);
    assert_clean("check", &check);
    // Validation may refuse control characters in names; when it accepts them they show.
    if check.status.code() != Some(2) {
        assert!(
            stdout(&check).contains(r"Evil \x1b[2J\x1b]0;owned\x07"),
            "{}",
            stdout(&check)
        );
        assert!(stdout(&check).contains(r"\u{9b}31m\u{202e}"));
    }
    let link = faultline(&["link", file]);
    assert_clean("link", &link);
    for args in [
        vec!["run", file, "--for", "30s"],
        vec!["run", file, "--for", "30s", "--json"],
        vec![
            "explore",
            file,
            "--seeds",
            "2",
            "--faults",
            "kill=2",
            "--with-expectations",
        ],
    ] {
        assert_clean(&args.join(" "), &faultline(&args));
    }
    if link.status.success() {
        let url = stdout(&link);
        let from_link = faultline(&["check", url.trim()]);
        assert_clean("check LINK", &from_link);
        assert!(!stderr(&from_link).contains("panicked"));
    }
}
