//! Every subcommand answers `--help`, and `--version` names the model version too.

mod common;

use common::{faultline, stdout};

/// Every subcommand; the test fails if `faultline --help` lists one that is not here.
const SUBCOMMANDS: &[&str] = &[
    "run",
    "check",
    "chart",
    "link",
    "trace-hash",
    "explore",
    "explore-merge",
    "shrink",
    "verify",
    "diff",
    "completions",
];

#[test]
fn version_names_the_crate_and_the_model_version() {
    let o = faultline(&["--version"]);
    assert!(o.status.success());
    let text = stdout(&o);
    let expected = format!(
        "faultline {} (model version {})",
        env!("CARGO_PKG_VERSION"),
        faultline_scenario::MODEL_VERSION
    );
    assert_eq!(text.trim(), expected);
}

#[test]
fn every_subcommand_has_help() {
    let top = faultline(&["--help"]);
    assert!(top.status.success());
    let listed: Vec<String> = stdout(&top)
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        // A wrapped description continues on a more deeply indented line.
        .filter(|l| !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next().map(String::from))
        .filter(|c| c != "help")
        .collect();
    assert_eq!(listed, SUBCOMMANDS, "top-level help lists the subcommands");
    for cmd in SUBCOMMANDS {
        let o = faultline(&[cmd, "--help"]);
        assert!(
            o.status.success(),
            "{cmd} --help exits {:?}",
            o.status.code()
        );
        assert!(
            stdout(&o).contains(&format!("Usage: faultline {cmd}")),
            "{cmd} --help shows its usage"
        );
    }
}

#[test]
fn a_mistyped_flag_gets_a_suggestion_and_exit_code_2() {
    let o = faultline(&[
        "explore",
        "scenarios/raft-basics-kill-a-store.toml",
        "--shrad",
        "1/2",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        common::stderr(&o).contains("'--shard'"),
        "{}",
        common::stderr(&o)
    );
}

#[test]
fn completions_are_generated_for_bash() {
    let o = faultline(&["completions", "bash"]);
    assert!(o.status.success());
    let script = stdout(&o);
    assert!(script.contains("complete") && script.contains("explore-merge"));
}

/// `faultline chart --help` names every chart id `--chart` accepts (the list is written by
/// hand in the flag's doc comment, so a new chart must be added there too).
#[test]
fn chart_help_names_every_chart_id() {
    let o = faultline(&["chart", "--help"]);
    assert!(o.status.success());
    let text = stdout(&o);
    // The `--chart` option's paragraph only (the command's own line "writes one chart" must
    // not count), in whole words (`writes` must not pass for being part of `writers`).
    let start = text.find("--chart").expect("the help describes --chart");
    let paragraph = &text[start..];
    let paragraph = &paragraph[..paragraph.find("--output").unwrap_or(paragraph.len())];
    let words: Vec<&str> = paragraph
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .collect();
    for kind in faultline_charts::ChartKind::ALL {
        assert!(
            words.contains(&kind.id()),
            "`faultline chart --help` does not name the chart `{}`",
            kind.id()
        );
    }
}
