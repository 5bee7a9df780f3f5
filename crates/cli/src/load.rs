//! Loads SCENARIO arguments: a scenario file or a share link.

use faultline_scenario::{decode_link, override_scenario, parse_with_overrides, Scenario};

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
        let s = decode_link(arg).map_err(|e| format!("link: {e}"))?;
        return override_scenario("link", &s, overrides).map_err(|e| e.to_string());
    }
    let text = std::fs::read_to_string(arg).map_err(|e| format!("cannot read `{arg}`: {e}"))?;
    parse_with_overrides(arg, &text, overrides).map_err(|e| e.to_string())
}
