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

/// The result of an explore run. Identical for any number of threads.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
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
        for (name, n) in &self.skipped {
            let needs = find(name).map(|p| p.needs).unwrap_or("");
            out.push(format!(
                "{name}: not judged on {n} of {} runs (needs {needs})",
                self.runs
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
