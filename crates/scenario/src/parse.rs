//! Reading scenario TOML: size limit, syntax errors with line and column, then validation.

use crate::deferred::collecting;
use crate::error::ScenarioError;
use crate::format::Scenario;
use crate::limits::MAX_SOURCE_BYTES;
use crate::overrides::apply_overrides;
use crate::validate::validate_with;

/// Parses and validates a scenario file. `source_name` (usually the file name) starts every
/// error message.
///
/// The text is deserialised straight into [`Scenario`]: no `toml::Table` in between, so a build
/// that never applies overrides (the browser) links no `toml::Value` code. Unknown fields are
/// rejected by `deny_unknown_fields`, with the key's line and column.
pub fn parse_scenario(source_name: &str, text: &str) -> Result<Scenario, ScenarioError> {
    check_size(source_name, text)?;
    from_text(source_name, text)
}

/// Like [`parse_scenario`], applying `key=value` overrides (the CLI's `--set`) before
/// validation.
pub fn parse_with_overrides(
    source_name: &str,
    text: &str,
    overrides: &[String],
) -> Result<Scenario, ScenarioError> {
    if overrides.is_empty() {
        return parse_scenario(source_name, text);
    }
    check_size(source_name, text)?;
    let original: toml::Table = toml::from_str(text).map_err(|e| syntax(source_name, text, &e))?;
    let mut table = original.clone();
    apply_overrides(&mut table, overrides)?;
    // Deserialising from the text (not the table) keeps error positions in the user's file; the
    // table is only re-serialised when the overrides changed it.
    if table == original {
        from_text(source_name, text)
    } else {
        let rewritten = toml::to_string(&table).unwrap_or_default();
        from_text(source_name, &rewritten)
    }
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

fn check_size(source_name: &str, text: &str) -> Result<(), ScenarioError> {
    if text.len() > MAX_SOURCE_BYTES {
        return Err(ScenarioError::TooLarge {
            source_name: source_name.to_string(),
            size: text.len(),
            limit: MAX_SOURCE_BYTES,
        });
    }
    Ok(())
}

/// Deserialises and validates. Values a knob section could not read (a duration without a
/// unit, a negative count) are collected rather than stopping at the first, and reported
/// with the validation problems, so the user sees every problem at once.
fn from_text(source_name: &str, text: &str) -> Result<Scenario, ScenarioError> {
    let (parsed, unreadable) = collecting(|| toml::from_str::<Scenario>(text));
    let scenario = parsed.map_err(|e| syntax(source_name, text, &e))?;
    validate_with(source_name, &scenario, unreadable)?;
    Ok(scenario)
}

fn syntax(source_name: &str, text: &str, e: &toml::de::Error) -> ScenarioError {
    let (line, column) = match e.span() {
        Some(span) => line_col(text, span.start),
        None => (1, 1),
    };
    let message = e.message().trim();
    // serde's own messages ("invalid value: integer `-1`, expected u64") do not say which
    // key; name it, unless the message already does.
    let message = match crate::locate::key_at(text, line) {
        Some(key)
            if !message.contains(&format!("`{key}`")) && !message.starts_with("unknown field") =>
        {
            format!("`{key}`: {message}")
        }
        _ => message.to_string(),
    };
    ScenarioError::Syntax {
        source_name: source_name.to_string(),
        line,
        column,
        message,
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

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = "name = \"t\"\nduration = \"1m\"\n";

    fn err(text: &str, overrides: &[&str]) -> String {
        let overrides: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
        parse_with_overrides("u.toml", text, &overrides)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn unknown_fields_are_named_with_their_position() {
        // Top level, a table, an array of tables: each names the key, where it is, and what is
        // allowed, on the direct path (no overrides) and on the table path alike.
        let top = format!("{BASE}bogus = 1\n");
        let table = format!("{BASE}[network]\ndelay_mn = \"1ms\"\n");
        let array = format!(
            "{BASE}[[faults]]\nat = \"1s\"\naction = \"kill\"\ntarget = \"tikv-1\"\nwhat = 3\n"
        );
        // `name=t` leaves the file as it is, so positions still refer to it.
        for overrides in [&[][..], &["name=t"][..]] {
            let e = err(&top, overrides);
            assert!(e.starts_with("u.toml:3:1: unknown field `bogus`"), "{e}");
            assert!(e.contains("`duration`"), "{e}");
            let e = err(&table, overrides);
            assert_eq!(
                e,
                "u.toml:4:1: unknown field `delay_mn`, expected `delay_min` or `delay_max`"
            );
            let e = err(&array, overrides);
            assert!(e.starts_with("u.toml:7:1: unknown field `what`"), "{e}");
            assert!(e.contains("`loss_percent`"), "{e}");
        }
        // An override that changes the file re-serialises it: still rejected, still named.
        let e = err(&table, &["seed=7"]);
        assert!(e.contains("unknown field `delay_mn`"), "{e}");
    }

    #[test]
    fn direct_and_table_paths_agree() {
        for (file, text) in crate::gallery::SHIPPED {
            let direct = parse_scenario(file, text).unwrap();
            let via_table = parse_with_overrides(file, text, &["seed=1".into()]).unwrap();
            assert_eq!(Scenario { seed: 1, ..direct }, via_table);
        }
        let e = parse_scenario("s.toml", "name = \"x\"\nduration = \n").unwrap_err();
        assert!(
            matches!(
                e,
                ScenarioError::Syntax {
                    line: 2,
                    column: 12,
                    ..
                }
            ),
            "{e:?}"
        );
    }

    #[test]
    fn a_new_changefeed_equals_one_with_only_an_id_in_the_file() {
        let text = format!("{BASE}[topology]\ncaptures = 1\n[[changefeeds]]\nid = \"cf-2\"\n");
        let parsed = parse_scenario("c.toml", &text).expect("valid");
        assert_eq!(parsed.changefeeds, vec![crate::ChangefeedSpec::new("cf-2")]);
    }
}
