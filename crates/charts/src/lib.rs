//! Faultline's charts, shared by the browser app and the `faultline` CLI.
//!
//! [`chart_data`] reads the series a chart shows from a run's metric store; [`draw_chart`] draws
//! them on any plotters `DrawingBackend`. The browser passes a canvas backend, the CLI and the
//! tests [`render_svg`], so a chart attached to a bug report looks like the one on the page.

pub mod axis;
pub mod chart_data;
mod draw;
pub mod key_order;
mod legend;
pub mod metric_chart;
pub mod node_colour;
mod palette;
#[cfg(test)]
mod test_support;
mod text;

pub use axis::data_extents;
pub use chart_data::{
    available_charts, chart_data, fault_marks, thin, AlertLine, ChartData, ChartKind, FaultMark,
    LabelledRun, Series,
};
pub use draw::{canvas_height, draw_chart, render_svg, ChartLayout};
pub use key_order::{ordered_charts, PlacedChart};
pub use metric_chart::metric_chart;
pub use node_colour::{metric_node, node_colour_slot};
pub use palette::series_colour;
