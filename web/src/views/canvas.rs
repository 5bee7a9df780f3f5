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
    // The bitmap fills the content box: inside the border (`client_left/top` are the border
    // widths), `client_width/height` wide.
    let content = ContentBox {
        left: rect.left() + c.client_left() as f64,
        top: rect.top() + c.client_top() as f64,
        width: c.client_width() as f64,
        height: c.client_height() as f64,
    };
    content.bitmap_point(
        (e.client_x() as f64, e.client_y() as f64),
        (c.width(), c.height()),
    )
}

/// Where a canvas's bitmap is drawn on the page, in CSS pixels.
// Only `canvas_xy` in the browser uses it; its tests run natively.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContentBox {
    /// Left edge of the content box (inside the border).
    pub left: f64,
    /// Top edge of the content box.
    pub top: f64,
    /// Content width.
    pub width: f64,
    /// Content height.
    pub height: f64,
}

#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
impl ContentBox {
    /// The bitmap pixel under the page point `client`, for a bitmap of `size` pixels
    /// stretched over this box. Measuring from the border box (the bounding rect), as
    /// before, put the bitmap's pixel 0 under the border and stretched it over the border's
    /// width too: off by up to a CSS pixel, nearly a whole column on the 601-column heatmap
    /// at the left edge.
    pub fn bitmap_point(&self, client: (f64, f64), size: (u32, u32)) -> Option<(f64, f64)> {
        if self.width <= 0.0 || self.height <= 0.0 {
            return None;
        }
        let x = (client.0 - self.left) * size.0 as f64 / self.width;
        let y = (client.1 - self.top) * size.1 as f64 / self.height;
        Some((x, y))
    }
}

/// Native stand-in.
#[cfg(not(target_arch = "wasm32"))]
pub fn canvas_xy(_canvas: &NodeRef, _e: &web_sys::MouseEvent) -> Option<(f64, f64)> {
    None
}

#[cfg(test)]
mod content_box_tests {
    use super::ContentBox;

    /// The heatmap: 601 columns drawn 640 px wide inside a 1-px border at x = 100.
    const HEATMAP: ContentBox = ContentBox {
        left: 101.0,
        top: 51.0,
        width: 640.0,
        height: 512.0,
    };

    #[test]
    fn the_last_pixel_of_the_last_column_maps_to_that_column() {
        let (x, _) = HEATMAP
            .bitmap_point((101.0 + 639.9, 60.0), (601, 256))
            .unwrap();
        assert_eq!(x as u32, 600);
        let (x, y) = HEATMAP.bitmap_point((101.0, 51.0), (601, 256)).unwrap();
        assert_eq!(
            (x as u32, y as u32),
            (0, 0),
            "the content box's corner is pixel 0"
        );
    }

    #[test]
    fn the_right_half_of_a_column_stays_in_that_column() {
        // Column 225's cells span 225 * 640 / 601 .. 226 * 640 / 601 px from the content edge.
        let right_half = 101.0 + 225.8 * 640.0 / 601.0;
        let (x, _) = HEATMAP
            .bitmap_point((right_half, 60.0), (601, 256))
            .unwrap();
        assert_eq!(x as u32, 225);
    }

    #[test]
    fn an_empty_box_maps_nothing() {
        let empty = ContentBox {
            width: 0.0,
            ..HEATMAP
        };
        assert_eq!(empty.bitmap_point((10.0, 10.0), (601, 256)), None);
    }
}
