//! Scenario text is untrusted (anyone can craft a share link): control characters and format
//! and separator characters (Cf, Zl, Zp) in a name, an expectation's name, a description or a
//! caption never reach the terminal raw.

mod common;

use std::process::Output;

use common::{faultline, stderr, stdout, SMALL};

/// Clears the screen, retitles the window, then moves up a line to forge a pass.
const EVIL: &str = r"\u001b[2J\u001b]0;owned\u0007\u001b[1A\r  pass  \u009b31m\u202e";

/// Characters validation lets through (none is a control character) that still rearrange,
/// break or hide text: a right-to-left mark, an isolate, line and paragraph separators, a
/// zero-width no-break space and a soft hyphen.
const INVISIBLE: &str = r"\u200f\u2066\u2028\u2029\uFEFF\u00AD";

fn hostile_scenario(evil: &str) -> String {
    SMALL
        .replace(
            "name = \"No region ever loses its leader\"",
            &format!("name = \"Evil {evil}\"\ndescription = \"desc {evil}\""),
        )
        .replace(
            "name = \"no leaderless region after the first elections\"",
            &format!("name = \"expectation {evil}\""),
        )
        + &format!("[[guide]]\nat = \"0s\"\ncaption = \"caption {evil}\"\n")
}

/// Every character a terminal would act on or that hides text: C0 controls but newline and
/// tab, DEL, C1 controls, and the format and separator characters (bidi overrides, marks and
/// isolates, invisible ones, line and paragraph separators).
fn raw_controls(bytes: &[u8]) -> Vec<String> {
    use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};
    let text = String::from_utf8_lossy(bytes);
    text.chars()
        .filter(|c| {
            (c.is_control() && *c != '\n' && *c != '\t')
                || matches!(
                    c.general_category(),
                    GeneralCategory::Format
                        | GeneralCategory::LineSeparator
                        | GeneralCategory::ParagraphSeparator
                )
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
    std::fs::write(&file, hostile_scenario(EVIL)).unwrap();
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

#[test]
fn format_and_separator_characters_from_a_scenario_are_printed_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("invisible.toml");
    std::fs::write(&file, hostile_scenario(INVISIBLE)).unwrap();
    let file = file.to_str().unwrap();
    let escaped = r"\u{200f}\u{2066}\u{2028}\u{2029}\u{feff}\u{ad}";

    let check = faultline(&["check", file]);
    assert_eq!(check.status.code(), Some(0), "{}", stderr(&check));
    assert_clean("check", &check);
    assert!(
        stdout(&check).contains(&format!("Evil {escaped}")),
        "{}",
        stdout(&check)
    );
    assert!(stdout(&check).contains(&format!("expectation {escaped}")));
    let link = faultline(&["link", file]);
    assert!(link.status.success());
    let url = stdout(&link);
    for args in [
        vec!["run", file, "--for", "30s"],
        vec!["run", file, "--for", "30s", "--json"],
        vec!["check", url.trim()],
        vec![
            "explore",
            file,
            "--seeds",
            "1",
            "--faults",
            "kill",
            "--with-expectations",
        ],
    ] {
        let o = faultline(&args);
        assert!(
            o.status.code().is_some_and(|c| c < 2),
            "{args:?}: {}",
            stderr(&o)
        );
        assert_clean(&args.join(" "), &o);
    }
}
