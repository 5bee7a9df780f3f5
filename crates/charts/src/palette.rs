//! Series colours: a fixed, colour-blind-friendly cycle (Okabe-Ito), so the same metric has the
//! same colour in every chart and in both runs of compare mode.

use plotters::style::RGBColor;

/// Colours in the cycle.
pub const CYCLE_LEN: usize = 8;

const CYCLE: [RGBColor; CYCLE_LEN] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(213, 94, 0),
    RGBColor(120, 120, 120),
    RGBColor(240, 228, 66),
];

/// The colour of palette slot `i`.
pub fn series_colour(i: usize) -> RGBColor {
    CYCLE[i % CYCLE.len()]
}
