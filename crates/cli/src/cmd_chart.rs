//! `faultline chart`: draws a chart to an SVG file with the same plotters function the browser
//! draws on its canvas (crates/charts), so a bug report or a CI job can attach it.

use std::path::PathBuf;

use clap::Args;
use faultline_charts::{chart_data, metric_chart, render_svg, ChartKind, LabelledRun};

use crate::load::ScenarioArg;
use crate::out::say;

/// Runs a scenario to its end and writes one chart as SVG.
#[derive(Args, Debug)]
pub struct ChartArgs {
    #[command(flatten)]
    scenario: ScenarioArg,
    /// Metrics to draw (comma-separated), e.g. `leaderless_regions,hibernated_peers`.
    #[arg(
        long,
        value_name = "METRIC,...",
        value_delimiter = ',',
        required_unless_present = "chart"
    )]
    metric: Vec<String>,
    /// One of the app's charts instead, by id: leaderless, cdc-lag, table-lag, sink-rows,
    /// orphaned, group-states, leaders, stores, writes, owner-tick, writers, lease.
    #[arg(long, value_name = "ID", conflicts_with = "metric")]
    chart: Option<String>,
    /// The SVG file to write.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: PathBuf,
    /// Width in pixels.
    #[arg(long, default_value_t = 900, value_parser = clap::value_parser!(u32).range(100..=10_000))]
    width: u32,
    /// Height in pixels.
    #[arg(long, default_value_t = 450, value_parser = clap::value_parser!(u32).range(100..=10_000))]
    height: u32,
}

/// Writes the chart; prints the file name.
pub fn run(a: ChartArgs) -> Result<i32, String> {
    let kind = match &a.chart {
        Some(id) => Some(ChartKind::from_id(id).ok_or_else(|| {
            let ids: Vec<&str> = ChartKind::ALL.iter().map(|k| k.id()).collect();
            format!("--chart {id}: no such chart; charts are {}", ids.join(", "))
        })?),
        None => None,
    };
    let scenario = a.scenario.load()?;
    let mut run = crate::load::start_run(&a.scenario.scenario, &scenario)?;
    if kind.is_none() {
        // Refuse an unknown metric before spending the run on it.
        metric_chart(&run, &a.metric)?;
    }
    let end = run.end();
    crate::progress::run_with_bar(&mut run, end);
    let data = match kind {
        Some(kind) => {
            let runs = [LabelledRun {
                label: &scenario.name,
                run: &run,
            }];
            chart_data(kind, &runs, None)
        }
        None => metric_chart(&run, &a.metric)?,
    };
    if data.is_empty() {
        return Err(format!(
            "--chart {}: this scenario has none of that chart's metrics",
            data.kind.id()
        ));
    }
    let svg = render_svg(&data, a.width, a.height)?;
    std::fs::write(&a.output, svg)
        .map_err(|e| format!("cannot write `{}`: {e}", a.output.display()))?;
    say!("wrote {}", a.output.display());
    Ok(0)
}
