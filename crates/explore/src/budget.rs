//! The fault budget: which kinds of fault a random schedule may contain, and how many of each.
//!
//! Written on the command line as `kill,partition=2,loss` — a kind alone means at most one
//! fault of that kind per run; `kind=N` means at most N.

use std::fmt;

/// A kind of fault explore can inject.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum FaultKind {
    /// Kill a node, restart it later.
    Kill,
    /// Cut a node off from all or some other nodes, heal later.
    Partition,
    /// Drop a share of a node's packets, heal later.
    Loss,
    /// Stall a node, resume it later.
    Pause,
    /// Kill a Kafka broker (`kafka-*`), restart it later; skipped without brokers.
    BrokerDown,
    /// PD's evict-leader scheduler on one TiKV store, removed later (a rolling restart's
    /// first step). Not in the default budget.
    EvictLeader,
    /// PD moves every leader of one TiKV store to another (`transfer_leader` with `from`);
    /// nothing to undo: the balancer evens leaders out again. Not in the default budget.
    TransferLeader,
    /// A store waiting to join (`tikv-N` above `topology.stores`) joins; PD fills it. Nothing
    /// to undo; skipped without such a store. Not in the default budget.
    AddStore,
    /// A TiKV store is decommissioned: PD drains it, then buries it (refused while only
    /// max-replicas stores are Up). Nothing to undo. Not in the default budget.
    RemoveStore,
    /// One of the scenario's first regions splits in 2-4 (`split`). Nothing to undo. Not in
    /// the default budget.
    Split,
    /// One of the scenario's first regions merges into its neighbour (`merge`). Nothing to
    /// undo. Not in the default budget.
    Merge,
}

impl FaultKind {
    /// Every kind, in the order schedules draw them (part of the value-stable stream).
    pub const ALL: [FaultKind; 11] = [
        FaultKind::Kill,
        FaultKind::Partition,
        FaultKind::Loss,
        FaultKind::Pause,
        FaultKind::BrokerDown,
        FaultKind::EvictLeader,
        FaultKind::TransferLeader,
        FaultKind::AddStore,
        FaultKind::RemoveStore,
        FaultKind::Split,
        FaultKind::Merge,
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Kill => "kill",
            FaultKind::Partition => "partition",
            FaultKind::Loss => "loss",
            FaultKind::Pause => "pause",
            FaultKind::BrokerDown => "broker-down",
            FaultKind::EvictLeader => "evict-leader",
            FaultKind::TransferLeader => "transfer-leader",
            FaultKind::AddStore => "add-store",
            FaultKind::RemoveStore => "remove-store",
            FaultKind::Split => "split",
            FaultKind::Merge => "merge",
        }
    }

    fn parse(text: &str) -> Option<FaultKind> {
        FaultKind::ALL.into_iter().find(|k| k.name() == text)
    }
}

/// Most faults of one kind per run: keeps every schedule far below the scenario fault limit.
pub const MAX_PER_KIND: u32 = 32;

/// How many faults of each kind a run may get: each run draws a count in `0..=max` per kind
/// (and at least one fault in total).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FaultBudget {
    /// `(kind, max per run)`, in [`FaultKind::ALL`] order, kinds with a zero maximum left out.
    pub kinds: Vec<(FaultKind, u32)>,
}

impl Default for FaultBudget {
    /// `kill=2,partition=2,loss,pause,broker-down`: two of the common faults, so schedules
    /// can overlap them, and one of the rest.
    fn default() -> Self {
        FaultBudget {
            kinds: vec![
                (FaultKind::Kill, 2),
                (FaultKind::Partition, 2),
                (FaultKind::Loss, 1),
                (FaultKind::Pause, 1),
                (FaultKind::BrokerDown, 1),
            ],
        }
    }
}

impl FaultBudget {
    /// Parses `kill,partition=2,loss`. Errors name the bad part and what is allowed.
    pub fn parse(text: &str) -> Result<FaultBudget, String> {
        let mut max = [None::<u32>; FaultKind::ALL.len()];
        for part in text.split(',').map(str::trim) {
            let (name, rate) = match part.split_once('=') {
                Some((n, r)) => (n.trim(), Some(r.trim())),
                None => (part, None),
            };
            let kind = FaultKind::parse(name).ok_or_else(|| {
                let names: Vec<&str> = FaultKind::ALL.iter().map(|k| k.name()).collect();
                format!(
                    "unknown fault kind `{name}`; kinds are {} (optionally with a count, e.g. kill=2)",
                    names.join(", ")
                )
            })?;
            let n = match rate {
                None => 1,
                Some(r) => r
                    .parse::<u32>()
                    .ok()
                    .filter(|n| *n <= MAX_PER_KIND)
                    .ok_or_else(|| {
                        format!("`{part}`: the count must be a whole number 0..={MAX_PER_KIND}")
                    })?,
            };
            let slot = &mut max[kind as usize];
            if slot.is_some() {
                return Err(format!("`{name}` is given twice"));
            }
            *slot = Some(n);
        }
        let kinds: Vec<(FaultKind, u32)> = FaultKind::ALL
            .into_iter()
            .zip(max)
            .filter_map(|(k, n)| n.filter(|n| *n > 0).map(|n| (k, n)))
            .collect();
        if kinds.is_empty() {
            return Err("the fault budget allows no faults; give at least one kind".into());
        }
        Ok(FaultBudget { kinds })
    }

    /// The budget without `kind`.
    pub fn without(&self, kind: FaultKind) -> FaultBudget {
        FaultBudget {
            kinds: self
                .kinds
                .iter()
                .copied()
                .filter(|(k, _)| *k != kind)
                .collect(),
        }
    }

    /// True if the budget allows `kind`.
    pub fn allows(&self, kind: FaultKind) -> bool {
        self.kinds.iter().any(|(k, _)| *k == kind)
    }
}

impl fmt::Display for FaultBudget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self
            .kinds
            .iter()
            .map(|(k, n)| format!("{}={n}", k.name()))
            .collect();
        f.write_str(&parts.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_kinds_with_and_without_counts() {
        let b = FaultBudget::parse("partition=3, kill").unwrap();
        assert_eq!(
            b.kinds,
            [(FaultKind::Kill, 1), (FaultKind::Partition, 3)],
            "kept in canonical order"
        );
        assert_eq!(b.to_string(), "kill=1,partition=3");
        assert!(FaultBudget::parse("kill=0,pause").unwrap().kinds == [(FaultKind::Pause, 1)]);
    }

    #[test]
    fn rejects_bad_budgets_with_a_reason() {
        assert!(FaultBudget::parse("explode")
            .unwrap_err()
            .contains("kinds are kill, partition, loss, pause, broker-down"));
        assert!(FaultBudget::parse("kill=x").unwrap_err().contains("0..=32"));
        assert!(FaultBudget::parse("kill=99")
            .unwrap_err()
            .contains("0..=32"));
        assert!(FaultBudget::parse("kill,kill")
            .unwrap_err()
            .contains("twice"));
        assert!(FaultBudget::parse("kill=0")
            .unwrap_err()
            .contains("no faults"));
        assert!(FaultBudget::parse("").is_err());
    }
}
