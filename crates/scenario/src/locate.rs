//! Which key a line of a scenario file sets, for syntax errors whose message does not say
//! (serde's "invalid value: integer `-1`, expected u64"). A light reading of TOML's layout,
//! enough for messages: it tracks `[table]` and `[[array]]` headers and reads `key =` at the
//! start of the line; anything it does not recognise gives no key (the message stays as is).

/// The dotted key set on 1-based `line`, e.g. `faults[2].loss_percent` or `seed`.
pub(crate) fn key_at(text: &str, line: usize) -> Option<String> {
    let mut table = String::new();
    let mut counts: Vec<(String, usize)> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let l = raw.trim();
        if i + 1 == line {
            let (key, _) = l.split_once('=')?;
            let key = key.trim();
            let plain = key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_-.\"".contains(c));
            if key.is_empty() || !plain {
                return None;
            }
            return Some(if table.is_empty() {
                key.to_string()
            } else {
                format!("{table}.{key}")
            });
        }
        if let Some(name) = l.strip_prefix("[[").and_then(|r| r.split_once("]]")) {
            let name = name.0.trim().to_string();
            let n = match counts.iter_mut().find(|(k, _)| *k == name) {
                Some((_, n)) => {
                    *n += 1;
                    *n
                }
                None => {
                    counts.push((name.clone(), 0));
                    0
                }
            };
            table = format!("{name}[{n}]");
        } else if let Some(name) = l.strip_prefix('[').and_then(|r| r.split_once(']')) {
            table = name.0.trim().to_string();
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_keys_under_tables_and_arrays() {
        let text = "seed = -1\n[topology]\nstores = 3\n[[faults]]\nat = \"1s\"\n[[faults]]\nloss_percent = -3\n";
        assert_eq!(key_at(text, 1).as_deref(), Some("seed"));
        assert_eq!(key_at(text, 3).as_deref(), Some("topology.stores"));
        assert_eq!(key_at(text, 7).as_deref(), Some("faults[1].loss_percent"));
        assert_eq!(key_at(text, 2), None);
    }
}
