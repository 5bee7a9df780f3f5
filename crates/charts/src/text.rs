//! Text sizes across backends. The charts give every text size in pixels as the browser's
//! canvas draws it (plotters-canvas sets the context's font to the size in `px`), but
//! plotters-svg writes an SVG's `font-size` as the size / 1.24 (plotters-svg `svg.rs`,
//! `draw_text`). Without a correction an exported chart (`faultline chart`, attached to a bug
//! report) had every label a fifth smaller than the chart on the page.

use plotters::style::{FontDesc, IntoFont};

/// How much larger a text size must be asked of a backend to be drawn at the size meant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TextScale(f64);

impl TextScale {
    /// The browser's canvas: sizes as they are.
    pub const CANVAS: TextScale = TextScale(1.0);
    /// An SVG document, whose backend divides every size by 1.24.
    pub const SVG: TextScale = TextScale(1.24);

    /// A sans-serif font drawn `px` pixels high on this backend.
    pub fn font(self, px: f64) -> FontDesc<'static> {
        ("sans-serif", px * self.0).into_font()
    }
}
