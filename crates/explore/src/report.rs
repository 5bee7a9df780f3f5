//! What explore found, and how it is printed.

use std::collections::BTreeMap;

use faultline_scenario::{share_url, Scenario};

use crate::outcome::Finding;
use crate::property::find;

/// A seed on which at least one property failed.
#[derive(Clone, Debug, PartialEq)]
pub struct SeedFailure {
    /// The seed.
    pub seed: u64,
    /// The exact scenario that failed (seed and fault schedule included).
    pub scenario: Scenario,
    /// Every property that failed on it.
    pub findings: Vec<Finding>,
}

/// What was explored: reports merge only when these are equal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportContext {
    /// The base scenario as a link (without the base URL).
    pub base_link: String,
    /// The fault budget actually drawn from (kinds that cannot apply left out).
    pub budget: String,
    /// Whether the scenario's own expectations were judged.
    pub with_expectations: bool,
}

/// The result of an explore run. Identical for any number of threads, and for shards merged
/// with [`merge_reports`].
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// What was explored.
    pub context: ReportContext,
    /// The first seed run; seeds are `first_seed..first_seed + runs`.
    pub first_seed: u64,
    /// Seeds run.
    pub runs: u64,
    /// Failing seeds, sorted by seed.
    pub failures: Vec<SeedFailure>,
    /// `(property, runs it could not be judged on)`, for properties skipped at least once.
    pub skipped: Vec<(&'static str, u64)>,
    /// Notes about the run (fault kinds that could not be injected).
    pub notes: Vec<String>,
}

impl Report {
    /// One block per failing property: seed, property, what failed, and the share link of the
    /// exact failing scenario.
    pub fn failure_lines(&self, base_url: &str) -> Vec<String> {
        let mut out = Vec::new();
        for f in &self.failures {
            let url = share_url(base_url, &f.scenario);
            for finding in &f.findings {
                out.push(format!(
                    "seed {}  {}  {}",
                    f.seed, finding.property, finding.message
                ));
                out.push(format!("  {url}"));
            }
        }
        out
    }

    /// Totals: runs, failing seeds, failures per property, skipped properties and notes.
    pub fn summary_lines(&self) -> Vec<String> {
        let mut out = self.notes.clone();
        // Properties judged on no run at all (CDC ones on a TiKV-only scenario) go on one
        // line; those skipped on some runs only are worth a line each.
        let never: Vec<&str> = self
            .skipped
            .iter()
            .filter(|(_, n)| *n == self.runs)
            .map(|(name, _)| *name)
            .collect();
        for (name, n) in self.skipped.iter().filter(|(_, n)| *n < self.runs) {
            let needs = find(name).map(|p| p.needs).unwrap_or("");
            out.push(format!(
                "{name}: not judged on {n} of {} runs (needs {needs})",
                self.runs
            ));
        }
        if !never.is_empty() {
            out.push(format!(
                "not judged on any run (the scenario lacks what they need; see docs/properties.md): {}",
                never.join(", ")
            ));
        }
        let mut per_property: BTreeMap<&str, u64> = BTreeMap::new();
        for f in &self.failures {
            for finding in &f.findings {
                *per_property.entry(&finding.property).or_default() += 1;
            }
        }
        for (name, n) in &per_property {
            out.push(format!("{name}: failed on {n} seeds"));
        }
        out.push(format!(
            "{} runs, {} failing seeds",
            self.runs,
            self.failures.len()
        ));
        out
    }
}

/// Puts the reports of shards of one exploration back together: the same report a single
/// run over their whole seed range gives. The shards must explore the same scenario with the
/// same options, and their seed ranges must meet end to end with none missing or twice.
pub fn merge_reports(mut parts: Vec<Report>) -> Result<Report, String> {
    parts.sort_by_key(|r| r.first_seed);
    let mut iter = parts.into_iter();
    let mut merged = iter.next().ok_or("no reports to merge")?;
    for r in iter {
        if r.context != merged.context {
            return Err(format!(
                "the report for seeds {} explores another scenario or other options ({}, expectations {}) than the one for seed {} ({}, expectations {})",
                range(&r), r.context.budget, r.context.with_expectations,
                merged.first_seed, merged.context.budget, merged.context.with_expectations
            ));
        }
        let next = merged.first_seed + merged.runs;
        if r.first_seed != next {
            let what = if r.first_seed < next {
                "overlap"
            } else {
                "leave a gap"
            };
            return Err(format!(
                "seed ranges {} and {} {what}: merge the reports of every shard of one run",
                range(&merged),
                range(&r)
            ));
        }
        merged.runs += r.runs;
        merged.failures.extend(r.failures);
        for (name, n) in r.skipped {
            match merged.skipped.iter_mut().find(|(m, _)| *m == name) {
                Some((_, total)) => *total += n,
                None => merged.skipped.push((name, n)),
            }
        }
        for note in r.notes {
            if !merged.notes.contains(&note) {
                merged.notes.push(note);
            }
        }
    }
    // Each shard's lists are sorted already; the order is restored across shards.
    merged.failures.sort_by_key(|f| f.seed);
    merged.skipped.sort_by_key(|(name, _)| {
        crate::property::PROPERTIES
            .iter()
            .position(|p| p.name == *name)
    });
    Ok(merged)
}

fn range(r: &Report) -> String {
    format!("{}..{}", r.first_seed, r.first_seed + r.runs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(skipped: Vec<(&'static str, u64)>) -> Report {
        Report {
            context: ReportContext {
                base_link: String::new(),
                budget: "kill=1".into(),
                with_expectations: false,
            },
            first_seed: 0,
            runs: 10,
            failures: Vec::new(),
            skipped,
            notes: Vec::new(),
        }
    }

    #[test]
    fn properties_never_judged_share_one_line() {
        let r = report(vec![
            ("liveness.checkpoint", 3),
            ("cdc.consistent", 10),
            ("cdc.single_writer", 10),
        ]);
        let lines = r.summary_lines();
        assert!(lines[0].starts_with("liveness.checkpoint: not judged on 3 of 10 runs"));
        assert!(
            lines[1].starts_with("not judged on any run")
                && lines[1].ends_with("cdc.consistent, cdc.single_writer")
        );
        assert_eq!(lines.len(), 3, "{lines:?}");
    }
}
