//! `--set key=value` overrides on a scenario's TOML tree, e.g. `seed=7`,
//! `topology.stores=4`, `toggles.tikv.unreachable_broadcast=repeat_if_new_messages`.

use crate::error::ScenarioError;

/// Applies each `key=value` to the table. Values are TOML (`4`, `true`, `"10s"`); a bare word
/// that is not valid TOML is taken as a string, so `hibernate.unreachable_backoff=5s` works.
pub fn apply_overrides(table: &mut toml::Table, overrides: &[String]) -> Result<(), ScenarioError> {
    for text in overrides {
        let bad = |message: String| ScenarioError::BadOverride {
            text: text.clone(),
            message,
        };
        let (key, raw) = text
            .split_once('=')
            .ok_or_else(|| bad("write key=value, e.g. topology.stores=4".into()))?;
        let path = split_path(key.trim());
        if path.iter().any(|p| p.is_empty()) {
            return Err(bad(format!(
                "`{key}` is not a key path like `raft.election_ticks`"
            )));
        }
        let value = parse_value(raw.trim());
        set_path(table, &path, value).map_err(bad)?;
    }
    Ok(())
}

/// Splits `a.b.c`; under `toggles` the rest is one key, since toggle names contain dots.
fn split_path(key: &str) -> Vec<String> {
    match key.strip_prefix("toggles.") {
        Some(rest) => vec!["toggles".into(), rest.trim_matches('"').to_string()],
        None => key.split('.').map(|s| s.to_string()).collect(),
    }
}

fn parse_value(raw: &str) -> toml::Value {
    let doc = format!("v = {raw}");
    match toml::from_str::<toml::Table>(&doc) {
        Ok(mut t) => t.remove("v").unwrap_or(toml::Value::String(raw.into())),
        Err(_) => toml::Value::String(raw.to_string()),
    }
}

fn set_path(table: &mut toml::Table, path: &[String], value: toml::Value) -> Result<(), String> {
    let (last, parents) = path.split_last().ok_or("empty key")?;
    let mut cur = table;
    for (depth, seg) in parents.iter().enumerate() {
        let entry = cur
            .entry(seg.clone())
            .or_insert_with(|| toml::Value::Table(toml::Table::new()));
        cur = match entry {
            toml::Value::Table(t) => t,
            _ => {
                return Err(format!(
                    "`{}` is not a table, so it has no `{}`",
                    path[..=depth].join("."),
                    path[depth + 1]
                ))
            }
        };
    }
    cur.insert(last.clone(), value);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_nested_and_toggle_keys() {
        let mut t: toml::Table = toml::from_str("seed = 1\n[topology]\nstores = 3\n").unwrap();
        apply_overrides(
            &mut t,
            &[
                "seed=9".into(),
                "topology.stores=5".into(),
                "toggles.tikv.unreachable_broadcast=repeat_if_new_messages".into(),
                "hibernate.unreachable_backoff=5s".into(),
            ],
        )
        .unwrap();
        assert_eq!(t["seed"].as_integer(), Some(9));
        assert_eq!(t["topology"]["stores"].as_integer(), Some(5));
        assert_eq!(
            t["toggles"]["tikv.unreachable_broadcast"].as_str(),
            Some("repeat_if_new_messages")
        );
        assert_eq!(t["hibernate"]["unreachable_backoff"].as_str(), Some("5s"));
        assert!(apply_overrides(&mut t, &["novalue".into()]).is_err());
        assert!(apply_overrides(&mut t, &["seed.x=1".into()]).is_err());
    }
}
