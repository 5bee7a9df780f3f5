//! The two canvas operations the views need. Browser-only; natively they do nothing, so the
//! components still compile for tests and clippy on the host.

use yew::NodeRef;

use crate::charts::ChartLayout;
use crate::view_model::chart_data::ChartData;

/// Paints `rgba` (`width * height * 4` bytes) onto the canvas at `canvas`, resizing its
/// pixel buffer to `width x height`.
#[cfg(target_arch = "wasm32")]
pub fn put_rgba(canvas: &NodeRef, width: u32, height: u32, rgba: &[u8]) {
    use wasm_bindgen::{Clamped, JsCast};
    use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};

    let Some(c) = canvas.cast::<HtmlCanvasElement>() else {
        return;
    };
    c.set_width(width);
    c.set_height(height);
    let Some(ctx) = c
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|o| o.dyn_into::<CanvasRenderingContext2d>().ok())
    else {
        return;
    };
    if let Ok(img) = ImageData::new_with_u8_clamped_array_and_sh(Clamped(rgba), width, height) {
        // A failure leaves the previous image: better than breaking the page.
        let _ = ctx.put_image_data(&img, 0.0, 0.0);
    }
}

/// Native stand-in.
#[cfg(not(target_arch = "wasm32"))]
pub fn put_rgba(_canvas: &NodeRef, _width: u32, _height: u32, _rgba: &[u8]) {}

/// Draws a chart on the canvas at `canvas`; the layout maps clicks back to time.
#[cfg(target_arch = "wasm32")]
pub fn draw_chart(canvas: &NodeRef, data: &ChartData) -> Option<ChartLayout> {
    let c = canvas.cast::<web_sys::HtmlCanvasElement>()?;
    crate::charts::canvas::draw_on_canvas(c, data)
}

/// Native stand-in.
#[cfg(not(target_arch = "wasm32"))]
pub fn draw_chart(_canvas: &NodeRef, _data: &ChartData) -> Option<ChartLayout> {
    None
}

/// The position of a mouse event in the canvas's own pixels (its CSS size may differ).
#[cfg(target_arch = "wasm32")]
pub fn canvas_xy(canvas: &NodeRef, e: &web_sys::MouseEvent) -> Option<(f64, f64)> {
    let c = canvas.cast::<web_sys::HtmlCanvasElement>()?;
    let rect = c.get_bounding_client_rect();
    if rect.width() <= 0.0 || rect.height() <= 0.0 {
        return None;
    }
    let x = (e.client_x() as f64 - rect.left()) * c.width() as f64 / rect.width();
    let y = (e.client_y() as f64 - rect.top()) * c.height() as f64 / rect.height();
    Some((x, y))
}

/// Native stand-in.
#[cfg(not(target_arch = "wasm32"))]
pub fn canvas_xy(_canvas: &NodeRef, _e: &web_sys::MouseEvent) -> Option<(f64, f64)> {
    None
}
