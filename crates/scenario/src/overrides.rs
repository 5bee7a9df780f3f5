//! `--set key=value` overrides on a scenario's TOML tree, e.g. `seed=7`,
//! `topology.stores=4`, `toggles.tikv.unreachable_broadcast=repeat_if_new_messages`, and items
//! of the scenario's lists by index: `faults[0].target=tikv-2`, `expect[1].name=ok`.

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
        let path = split_path(key.trim()).map_err(bad)?;
        let value = parse_value(raw.trim());
        set_path(table, &path, value).map_err(bad)?;
    }
    Ok(())
}

/// One step of a key path: a table key and the list indices after it (`faults[0]` is the key
/// `faults`, then item 0 of that list).
#[derive(Debug, PartialEq)]
struct Segment {
    key: String,
    indices: Vec<usize>,
}

/// Splits `a.b[2].c`; under `toggles` the rest is one key, since toggle names contain dots.
fn split_path(key: &str) -> Result<Vec<Segment>, String> {
    if let Some(rest) = key.strip_prefix("toggles.") {
        let toggle = rest.trim_matches('"').to_string();
        return Ok(vec![plain("toggles"), plain(&toggle)]);
    }
    let segments = key
        .split('.')
        .map(|s| parse_segment(s).ok_or(()))
        .collect::<Result<Vec<_>, ()>>();
    segments.map_err(|()| {
        format!("`{key}` is not a key path like `raft.election_ticks` or `faults[0].target`")
    })
}

fn plain(key: &str) -> Segment {
    Segment {
        key: key.to_string(),
        indices: Vec::new(),
    }
}

/// `name` or `name[i]...`; `None` for an empty name or an index that is not a number.
fn parse_segment(text: &str) -> Option<Segment> {
    let (key, mut rest) = text.split_at(text.find('[').unwrap_or(text.len()));
    if key.is_empty() {
        return None;
    }
    let mut indices = Vec::new();
    while !rest.is_empty() {
        let (inside, after) = rest.strip_prefix('[')?.split_once(']')?;
        indices.push(inside.trim().parse().ok()?);
        rest = after;
    }
    Some(Segment {
        key: key.to_string(),
        indices,
    })
}

fn parse_value(raw: &str) -> toml::Value {
    let doc = format!("v = {raw}");
    match toml::from_str::<toml::Table>(&doc) {
        Ok(mut t) => t.remove("v").unwrap_or(toml::Value::String(raw.into())),
        Err(_) => toml::Value::String(raw.to_string()),
    }
}

/// Sets the value at `path`, creating missing tables on the way. List items are never
/// created: an index must name an item the scenario has.
fn set_path(table: &mut toml::Table, path: &[Segment], value: toml::Value) -> Result<(), String> {
    let (last, parents) = path.split_last().ok_or("empty key")?;
    let mut cur = table;
    let mut shown = String::new();
    for (depth, seg) in parents.iter().enumerate() {
        let node = descend(cur, seg, &mut shown)?;
        cur = match node {
            toml::Value::Table(t) => t,
            _ => {
                let next = &path[depth + 1].key;
                return Err(format!("`{shown}` is not a table, so it has no `{next}`"));
            }
        };
        shown.push('.');
    }
    match last.indices.split_last() {
        None => {
            cur.insert(last.key.clone(), value);
        }
        Some((&index, outer)) => {
            let outer = Segment {
                key: last.key.clone(),
                indices: outer.to_vec(),
            };
            let list = descend(cur, &outer, &mut shown)?;
            *item(list, index, &shown)? = value;
        }
    }
    Ok(())
}

/// The value `seg` names inside `table` (a missing key without indices becomes an empty
/// table); `shown` grows by the segment, for messages.
fn descend<'a>(
    table: &'a mut toml::Table,
    seg: &Segment,
    shown: &mut String,
) -> Result<&'a mut toml::Value, String> {
    shown.push_str(&seg.key);
    if !seg.indices.is_empty() && !table.contains_key(&seg.key) {
        return Err(format!(
            "the scenario has no `{shown}`, so there is no `{shown}[{}]`",
            seg.indices[0]
        ));
    }
    let mut node = table
        .entry(seg.key.clone())
        .or_insert_with(|| toml::Value::Table(toml::Table::new()));
    for &index in &seg.indices {
        node = item(node, index, shown)?;
        shown.push_str(&format!("[{index}]"));
    }
    Ok(node)
}

/// Item `index` of the list `list` (named `shown`), or why there is none: the message gives
/// the indices that exist.
fn item<'a>(
    list: &'a mut toml::Value,
    index: usize,
    shown: &str,
) -> Result<&'a mut toml::Value, String> {
    let toml::Value::Array(items) = list else {
        return Err(format!(
            "`{shown}` is not a list, so it has no `{shown}[{index}]`"
        ));
    };
    let len = items.len();
    items.get_mut(index).ok_or_else(|| match len {
        0 => format!("`{shown}` is empty, so there is no `{shown}[{index}]`"),
        1 => format!("`{shown}` has 1 item, so the only index is 0"),
        n => format!("`{shown}` has {n} items, so the index is 0..={}", n - 1),
    })
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

    const TWO_FAULTS: &str = "[[faults]]\nat = \"1s\"\ntarget = \"tikv-1\"\n\
                              [[faults]]\nat = \"2s\"\ntarget = [\"tikv-1\", \"tikv-2\"]\n";

    #[test]
    fn reaches_list_items_by_index() {
        let mut t: toml::Table = toml::from_str(TWO_FAULTS).unwrap();
        let sets = [
            "faults[0].target=tikv-2".into(),
            "faults[1].target[1]=tikv-3".into(),
        ];
        apply_overrides(&mut t, &sets).unwrap();
        assert_eq!(t["faults"][0]["target"].as_str(), Some("tikv-2"));
        assert_eq!(t["faults"][1]["target"][1].as_str(), Some("tikv-3"));
        assert_eq!(
            t["faults"][1]["at"].as_str(),
            Some("2s"),
            "the rest is kept"
        );
    }

    #[test]
    fn an_index_past_the_list_names_the_indices_there_are() {
        let err = |set: &str| {
            let mut t: toml::Table = toml::from_str(TWO_FAULTS).unwrap();
            apply_overrides(&mut t, &[set.to_string()])
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            err("faults[2].target=tikv-2"),
            "--set faults[2].target=tikv-2: `faults` has 2 items, so the index is 0..=1"
        );
        assert!(err("expect[0].name=x").contains("the scenario has no `expect`"));
        assert!(err("faults[0].at[0]=1").contains("`faults[0].at` is not a list"));
        assert!(err("faults[x].target=a").contains("is not a key path"));
        assert!(err("faults[0.target=a").contains("is not a key path"));
        assert!(err("faults[0]x.target=a").contains("is not a key path"));
    }
}
