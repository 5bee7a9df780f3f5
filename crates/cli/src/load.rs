//! Loads SCENARIO arguments: a scenario file or a share link, with `--set` overrides.

use clap::Args;
use faultline_scenario::{decode_link, override_scenario, parse_with_overrides, Run, Scenario};

/// The scenario argument and its overrides, shared by every subcommand that runs one.
#[derive(Args, Debug, Clone)]
pub struct ScenarioArg {
    /// A scenario file (scenarios/*.toml) or a share link.
    #[arg(value_name = "SCENARIO")]
    pub scenario: String,
    /// Overrides one key before validation, e.g. `--set seed=7`, `--set topology.regions=64` or
    /// `--set faults[0].target=tikv-2` (an item of a list, by index from 0); repeatable.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
}

impl ScenarioArg {
    /// Reads and validates the scenario.
    pub fn load(&self) -> Result<Scenario, String> {
        load(&self.scenario, &self.set)
    }
}

/// True if the argument looks like a share link rather than a path.
pub fn is_link(arg: &str) -> bool {
    arg.contains("#v")
        || arg.starts_with("v1.")
        || arg.starts_with("v2.")
        || arg.starts_with("http://")
        || arg.starts_with("https://")
}

/// Reads a scenario from a file or a link, applying `--set` overrides.
pub fn load(arg: &str, overrides: &[String]) -> Result<Scenario, String> {
    if is_link(arg) {
        // No prefix: every link error already says "link", and a scenario the link carries
        // that breaks a rule is reported as `link: `field`: ...`.
        let s = decode_link(arg).map_err(|e| e.to_string())?;
        let with = |o: &[String]| override_scenario("link", &s, o).map_err(|e| e.to_string());
        return with(overrides).map_err(|e| blame_override("link", overrides, e, with));
    }
    let text = std::fs::read_to_string(arg).map_err(|e| format!("cannot read `{arg}`: {e}"))?;
    let with = |o: &[String]| parse_with_overrides(arg, &text, o).map_err(|e| e.to_string());
    with(overrides).map_err(|e| blame_override(arg, overrides, e, with))
}

/// Builds the run of a scenario loaded from `arg`; its errors (an expectation naming no
/// metric) name the file, or `link`, as loading errors do.
pub fn start_run(arg: &str, scenario: &Scenario) -> Result<Run, String> {
    let source = if is_link(arg) { "link" } else { arg };
    Run::new(scenario).map_err(|e| e.from_source(source).to_string())
}

/// When a scenario that loads on its own fails with `--set`, the error is about the first
/// override that breaks it, not about a line of the file: overrides are applied to a
/// rewritten copy, whose line numbers are not the user's. Other errors pass through.
fn blame_override(
    source: &str,
    overrides: &[String],
    error: String,
    with: impl Fn(&[String]) -> Result<Scenario, String>,
) -> String {
    if overrides.is_empty() || with(&[]).is_err() {
        return error;
    }
    let Some(k) = (1..=overrides.len()).find(|k| with(&overrides[..*k]).is_err()) else {
        return error;
    };
    let message = with(&overrides[..k]).err().unwrap_or(error);
    let message = without_position(source, &message);
    let given = &overrides[k - 1];
    let message = message
        .strip_prefix(&format!("--set {given}: "))
        .unwrap_or(message);
    // Quoted on one line: a newline in the argument would otherwise start a line of its own
    // that reads as the program's.
    format!("--set {}: {message}", crate::out::escape_line(given))
}

/// `message` without its leading `source:line:column:` (or `source:`), which would point into
/// the rewritten copy.
fn without_position<'a>(source: &str, message: &'a str) -> &'a str {
    let rest = message
        .strip_prefix(source)
        .and_then(|r| r.strip_prefix(':'))
        .unwrap_or(message);
    let mut parts = rest.splitn(3, ':');
    match (parts.next(), parts.next(), parts.next()) {
        (Some(line), Some(col), Some(tail))
            if line.trim().parse::<u32>().is_ok() && col.trim().parse::<u32>().is_ok() =>
        {
            tail.trim_start()
        }
        _ => rest.trim_start(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_errors_name_the_override_and_no_line_of_the_copy() {
        let file = format!(
            "{}/../../scenarios/raft-basics-kill-a-store.toml",
            env!("CARGO_MANIFEST_DIR")
        );
        let sets = ["seed=3".to_string(), "foo.bar=1".into()];
        let err = load(&file, &sets).unwrap_err();
        assert!(err.starts_with("--set foo.bar=1: "), "{err}");
        assert!(err.contains("unknown field `foo`"), "{err}");
        assert!(
            !err.contains(&file),
            "no position in the rewritten copy: {err}"
        );
        assert!(load(&file, &sets[..1]).is_ok());
    }
}
