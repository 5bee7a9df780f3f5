//! Node names of a scenario and fault target selectors.

use crate::format::Scenario;

/// Every node name the scenario creates, in creation order: `pd-1`, `tikv-1..tikv-N` (with
/// the stores that may join: N is [`store_nodes`]), `cdc-1..cdc-N`, `mysql-1` and the
/// workload's `client-1` (with captures), then `kafka-1..kafka-N`.
pub fn node_names(s: &Scenario) -> Vec<String> {
    let mut names = vec!["pd-1".to_string()];
    names.extend((1..=store_nodes(s)).map(|i| format!("tikv-{i}")));
    names.extend((1..=s.topology.captures).map(|i| format!("cdc-{i}")));
    if s.topology.captures > 0 {
        names.push("mysql-1".to_string());
        names.push("client-1".to_string());
    }
    names.extend((1..=s.topology.kafka_brokers).map(|i| format!("kafka-{i}")));
    names
}

/// TiKV store nodes: those that start (`topology.stores`) and those `add_store` may bring in
/// (up to `topology.max_stores`).
pub fn store_nodes(s: &Scenario) -> u32 {
    s.topology.stores.max(s.topology.max_stores)
}

/// A short human list of node names: `pd-1, tikv-1..tikv-3, cdc-1, mysql-1`.
pub fn describe_names(names: &[String]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < names.len() {
        let prefix = names[i]
            .rsplit_once('-')
            .map(|(p, _)| p)
            .unwrap_or(&names[i]);
        let mut j = i;
        while j + 1 < names.len() && names[j + 1].starts_with(&format!("{prefix}-")) {
            j += 1;
        }
        if j > i + 1 || (j == i + 1 && prefix == "tikv") {
            parts.push(format!("{}..{}", names[i], names[j]));
        } else {
            parts.extend(names[i..=j].iter().cloned());
        }
        i = j + 1;
    }
    parts.join(", ")
}

/// Resolves a selector (`tikv-1`, `tikv-1,tikv-2`, `tikv-*`, `*`) to node names, in the
/// nodes' creation order. Errors say which part matched nothing, or which node two parts
/// both select.
pub fn resolve(selector: &str, names: &[String]) -> Result<Vec<String>, String> {
    let mut picked = vec![false; names.len()];
    for part in selector.split(',').map(str::trim) {
        if part.is_empty() {
            return Err("empty node name; write e.g. `tikv-1` or `tikv-1,tikv-2`".into());
        }
        let mut any = false;
        for (i, n) in names.iter().enumerate() {
            let hit = match part.strip_suffix('*') {
                Some(prefix) => n.starts_with(prefix),
                None => n == part,
            };
            if hit {
                // A node named twice is almost always a typo for another node; running the
                // fault once would hide it.
                if picked[i] {
                    return Err(format!(
                        "`{n}` is selected twice; name each node once (`{part}` repeats it)"
                    ));
                }
                picked[i] = true;
                any = true;
            }
        }
        if !any {
            return Err(format!(
                "no node named `{part}`; nodes are {}",
                describe_names(names)
            ));
        }
    }
    Ok(names
        .iter()
        .zip(picked)
        .filter(|(_, p)| *p)
        .map(|(n, _)| n.clone())
        .collect())
}

/// Capture indices (0-based) a selector names (`cdc-2`, `cdc-2,cdc-3`, `cdc-*`).
pub fn capture_indices(selector: &str, s: &Scenario) -> Vec<u32> {
    node_indices(selector, s, "cdc-")
}

/// Store indices (0-based) a selector names (`tikv-1`, `tikv-*`).
pub fn store_indices(selector: &str, s: &Scenario) -> Vec<u32> {
    node_indices(selector, s, "tikv-")
}

/// 0-based indices of the nodes named `<prefix>N` that a selector names.
fn node_indices(selector: &str, s: &Scenario, prefix: &str) -> Vec<u32> {
    resolve(selector, &node_names(s))
        .unwrap_or_default()
        .iter()
        .filter_map(|n| n.strip_prefix(prefix)?.parse::<u32>().ok())
        .filter(|i| *i >= 1)
        .map(|i| i - 1)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Vec<String> {
        ["pd-1", "tikv-1", "tikv-2", "tikv-3"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    }

    #[test]
    fn resolves_names_lists_and_globs() {
        assert_eq!(resolve("tikv-2", &names()).unwrap(), ["tikv-2"]);
        assert_eq!(
            resolve("tikv-3, pd-1", &names()).unwrap(),
            ["pd-1", "tikv-3"]
        );
        assert_eq!(resolve("tikv-*", &names()).unwrap().len(), 3);
        let err = resolve("tikv-9", &names()).unwrap_err();
        assert_eq!(
            err,
            "no node named `tikv-9`; nodes are pd-1, tikv-1..tikv-3"
        );
        let err = resolve("tikv-1,tikv-1", &names()).unwrap_err();
        assert_eq!(
            err,
            "`tikv-1` is selected twice; name each node once (`tikv-1` repeats it)"
        );
        assert!(resolve("tikv-*,tikv-2", &names()).is_err());
    }
}
