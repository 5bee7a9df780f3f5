//! Drawing a chart on a `<canvas>` in the browser.

use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use web_sys::HtmlCanvasElement;

use super::{draw_chart, ChartLayout};
use crate::view_model::chart_data::ChartData;

/// Draws `data` on `canvas` at its current pixel size; `None` if the canvas has no 2D context
/// or drawing failed (the chart is then left blank rather than breaking the page).
pub fn draw_on_canvas(canvas: HtmlCanvasElement, data: &ChartData) -> Option<ChartLayout> {
    let backend = CanvasBackend::with_canvas_object(canvas)?;
    let root = backend.into_drawing_area();
    let layout = draw_chart(&root, data).ok()?;
    root.present().ok()?;
    Some(layout)
}
