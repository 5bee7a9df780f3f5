//! `faultline explore-merge`: puts the `--json` reports of `explore --shard K/N` back together
//! into the report one machine would have written for the whole seed range.

use std::path::PathBuf;

use clap::Args;
use faultline_explore::{merge_reports, Report};

use crate::cmd_link::DEFAULT_BASE;
use crate::out::say;

/// Merges explore reports written with `--json` by every shard of one exploration.
///
/// Exit code 1 if any merged seed failed, 2 if a report is unreadable or the shards do not
/// fit together (another scenario, other options, a seed range missing or run twice).
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// Report files (JSON from `faultline explore --json`).
    #[arg(value_name = "REPORT", required = true)]
    reports: Vec<PathBuf>,
    /// Print the merged report as text instead of JSON.
    #[arg(long)]
    text: bool,
    /// Where the app is served, for the failure links of the text report.
    #[arg(long, value_name = "URL", default_value = DEFAULT_BASE)]
    base: String,
}

/// Reads, merges and prints the reports.
pub fn run(a: MergeArgs) -> Result<i32, String> {
    let mut reports = Vec::with_capacity(a.reports.len());
    for path in &a.reports {
        let shown = path.display();
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("cannot read `{shown}`: {e}"))?;
        let json: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| format!("`{shown}` is not JSON: {e}"))?;
        reports.push(Report::from_json(&json).map_err(|e| format!("`{shown}`: {e}"))?);
    }
    let merged = merge_reports(reports)?;
    if a.text {
        crate::cmd_explore::print_report(&merged, &a.base);
    } else {
        say!(
            "{}",
            serde_json::to_string_pretty(&merged.to_json()).unwrap_or_default()
        );
    }
    Ok(if merged.failures.is_empty() { 0 } else { 1 })
}
