//! Reading scenario TOML: size limit, syntax errors with line and column, then validation.

use crate::error::ScenarioError;
use crate::format::Scenario;
use crate::limits::MAX_SOURCE_BYTES;
use crate::overrides::apply_overrides;
use crate::validate::validate;

/// Parses and validates a scenario file. `source_name` (usually the file name) starts every
/// error message.
pub fn parse_scenario(source_name: &str, text: &str) -> Result<Scenario, ScenarioError> {
    parse_with_overrides(source_name, text, &[])
}

/// Like [`parse_scenario`], applying `key=value` overrides (the CLI's `--set`) before
/// validation.
pub fn parse_with_overrides(
    source_name: &str,
    text: &str,
    overrides: &[String],
) -> Result<Scenario, ScenarioError> {
    if text.len() > MAX_SOURCE_BYTES {
        return Err(ScenarioError::TooLarge {
            source_name: source_name.to_string(),
            size: text.len(),
            limit: MAX_SOURCE_BYTES,
        });
    }
    let mut table: toml::Table = toml::from_str(text).map_err(|e| syntax(source_name, text, &e))?;
    apply_overrides(&mut table, overrides)?;
    let scenario = from_table(source_name, text, table)?;
    validate(source_name, &scenario)?;
    Ok(scenario)
}

/// Re-validates an already-built scenario after `--set` overrides (used for links).
pub fn override_scenario(
    source_name: &str,
    scenario: &Scenario,
    overrides: &[String],
) -> Result<Scenario, ScenarioError> {
    if overrides.is_empty() {
        return Ok(scenario.clone());
    }
    let text = to_toml(scenario);
    parse_with_overrides(source_name, &text, overrides)
}

/// The scenario as TOML text (the export format).
pub fn to_toml(scenario: &Scenario) -> String {
    toml::to_string(scenario).unwrap_or_else(|e| format!("# could not write TOML: {e}\n"))
}

fn from_table(
    source_name: &str,
    text: &str,
    table: toml::Table,
) -> Result<Scenario, ScenarioError> {
    // Deserialising from the text again (not the table) keeps spans for error positions; the
    // table is only re-serialised when overrides changed it.
    let rewritten;
    let src = if toml::from_str::<toml::Table>(text).ok().as_ref() == Some(&table) {
        text
    } else {
        rewritten = toml::to_string(&table).unwrap_or_default();
        &rewritten
    };
    toml::from_str::<Scenario>(src).map_err(|e| syntax(source_name, src, &e))
}

fn syntax(source_name: &str, text: &str, e: &toml::de::Error) -> ScenarioError {
    let (line, column) = match e.span() {
        Some(span) => line_col(text, span.start),
        None => (1, 1),
    };
    ScenarioError::Syntax {
        source_name: source_name.to_string(),
        line,
        column,
        message: e.message().trim().to_string(),
    }
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before
        .rsplit('\n')
        .next()
        .map(|l| l.chars().count())
        .unwrap_or(0)
        + 1;
    (line, column)
}
