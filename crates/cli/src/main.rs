//! `faultline`: run, check, chart, explore and shrink Faultline scenarios from the command line.
//! SCENARIO is a scenario TOML file or a share link.
//!
//! Each subcommand's arguments and handler live in its own `cmd_*.rs` file, with a `run(args)`
//! returning the exit code; this file only parses and dispatches.

mod cmd_chart;
mod cmd_check;
mod cmd_completions;
mod cmd_diff;
mod cmd_explore;
mod cmd_explore_merge;
mod cmd_link;
mod cmd_run;
mod cmd_shrink;
mod cmd_verify;
mod load;
mod log_filter;
mod out;
mod plain_progress;
mod progress;
mod series;

use std::sync::LazyLock;

use clap::{Parser, Subcommand};

/// `faultline --version`: the crate version and the model version, which together decide
/// whether a trace hash reproduces.
static VERSION: LazyLock<String> = LazyLock::new(|| {
    format!(
        "{} (model version {})",
        env!("CARGO_PKG_VERSION"),
        faultline_scenario::MODEL_VERSION
    )
});

/// Deterministic simulation of TiKV, PD and TiCDC under failure.
///
/// SCENARIO is a scenario file (scenarios/*.toml) or a share link (http://...#v2.... or v2....; v1 links still open).
#[derive(Parser, Debug)]
#[command(name = "faultline", version = VERSION.as_str(), propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    Run(cmd_run::RunArgs),
    Check(cmd_check::CheckArgs),
    Chart(cmd_chart::ChartArgs),
    Link(cmd_link::LinkArgs),
    TraceHash(cmd_link::TraceHashArgs),
    Explore(cmd_explore::ExploreArgs),
    ExploreMerge(cmd_explore_merge::MergeArgs),
    Shrink(cmd_shrink::ShrinkArgs),
    Verify(cmd_verify::VerifyArgs),
    Diff(cmd_diff::DiffArgs),
    Completions(cmd_completions::CompletionsArgs),
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Run(a) => cmd_run::run(a),
        Command::Check(a) => cmd_check::run(a),
        Command::Chart(a) => cmd_chart::run(a),
        Command::Link(a) => cmd_link::run_link(a),
        Command::TraceHash(a) => cmd_link::run_trace_hash(a),
        Command::Explore(a) => cmd_explore::run(a),
        Command::ExploreMerge(a) => cmd_explore_merge::run(a),
        Command::Shrink(a) => cmd_shrink::run(a),
        Command::Verify(a) => cmd_verify::run(a),
        Command::Diff(a) => cmd_diff::run(a),
        Command::Completions(a) => cmd_completions::run(a),
    };
    match result {
        Ok(code) => std::process::exit(code),
        Err(msg) => {
            out::warn(&format!("error: {msg}"));
            std::process::exit(2);
        }
    }
}
