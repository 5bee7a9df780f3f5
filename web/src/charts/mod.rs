//! The charts, from the shared `faultline-charts` crate (the CLI draws the same ones to SVG);
//! this crate adds only the canvas backend the browser draws on.

#[cfg(target_arch = "wasm32")]
pub mod canvas;

pub use faultline_charts::{canvas_height, draw_chart, render_svg, series_colour, ChartLayout};
