//! Error messages say what is wrong once, in the user's terms: the file or link they gave (a
//! long link shortened), the field, the names they probably meant, and never the same label
//! twice.

mod common;

use common::{faultline, stderr, stdout, SMALL};

#[test]
fn check_labels_a_long_bad_link_by_its_start_and_length() {
    let link = format!("http://127.0.0.1:8080/#v2.{}", "A".repeat(60_000));
    let o = faultline(&["check", &link]);
    assert_eq!(o.status.code(), Some(2));
    let out = stdout(&o);
    let line = out.lines().next().unwrap_or_default();
    assert!(
        line.contains("(60026 characters): cannot check: "),
        "{line}"
    );
    assert!(line.len() < 300, "a {}-byte label", line.len());
}

#[test]
fn an_unknown_metric_names_the_file_and_field_and_suggests_the_nearest() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("typo.toml");
    std::fs::write(
        &file,
        SMALL.replace(
            "metric = \"leaderless_regions\"",
            "metric = \"leaderles_regions\"",
        ),
    )
    .unwrap();
    let file = file.to_str().unwrap();
    let o = faultline(&["run", file]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains(&format!(
            "{file}: `expect[0].metric`: no metric named `leaderles_regions`"
        )),
        "{err}"
    );
    assert!(err.contains("did you mean `leaderless_regions`"), "{err}");
    let check = stdout(&faultline(&["check", file]));
    assert_eq!(
        check.matches(file).count(),
        1,
        "the file named once: {check}"
    );
}

#[test]
fn a_link_that_breaks_a_rule_says_link_once() {
    let mut s = faultline_scenario::parse_scenario("small", SMALL).unwrap();
    s.name = String::new();
    let link = faultline_scenario::encode_link(&s);
    for args in [
        vec!["run", &link],
        vec!["verify", &link],
        vec!["check", &link],
    ] {
        let o = faultline(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let text = stdout(&o) + &stderr(&o);
        assert!(text.contains("link: `name`: "), "{args:?}: {text}");
        assert!(!text.contains("link: link"), "{args:?}: {text}");
    }
}

#[test]
fn explore_names_a_link_by_its_start_and_length() {
    let s = faultline_scenario::parse_scenario("small", SMALL).unwrap();
    let link = faultline_scenario::encode_link(&s);
    let o = faultline(&["explore", &link, "--seeds", "1", "--faults", "kill"]);
    let first = stderr(&o).lines().next().unwrap_or_default().to_string();
    assert!(first.starts_with("exploring v2."), "{first}");
    assert!(
        first.contains(&format!("({} characters)", link.len())),
        "{first}"
    );
    assert!(!first.contains(&link), "{first}");
}
