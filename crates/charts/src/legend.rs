//! The legend, drawn in its own strip below the plot so it never covers a line or a fault
//! mark (plotters' own legend box sits inside the plotting area).

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::chart_data::ChartData;
use crate::palette::series_colour;

/// One legend entry: a short line in the series' style and its text.
pub(crate) struct Entry {
    pub text: String,
    pub colour: RGBColor,
    pub dashed: bool,
}

const ROW_PX: i32 = 16;
const SWATCH_PX: i32 = 16;
/// Rough width of a character at the legend's 11 px font, for laying entries out in rows.
const CHAR_PX: i32 = 6;

/// The entries of `data`: alert lines first, then every series.
pub(crate) fn entries(data: &ChartData, alert: RGBColor, off_scale: &[bool]) -> Vec<Entry> {
    let alerts = data.alerts.iter().zip(off_scale).map(|(a, off)| Entry {
        text: if *off {
            format!("{} (off scale)", a.label)
        } else {
            a.label.clone()
        },
        colour: alert,
        dashed: true,
    });
    let series = data.series.iter().map(|s| Entry {
        text: s.label.clone(),
        colour: series_colour(s.colour),
        dashed: s.run > 0,
    });
    alerts.chain(series).collect()
}

/// Where each entry goes: `(row, x)` in rows that fit `width`.
fn layout(entries: &[Entry], width: i32) -> Vec<(i32, i32)> {
    let (mut row, mut x) = (0, 8);
    entries
        .iter()
        .map(|e| {
            let w = SWATCH_PX + 6 + e.text.chars().count() as i32 * CHAR_PX + 14;
            if x > 8 && x + w > width {
                row += 1;
                x = 8;
            }
            let at = (row, x);
            x += w;
            at
        })
        .collect()
}

/// The strip's height for `entries` at `width`.
pub(crate) fn height(entries: &[Entry], width: u32) -> u32 {
    let rows = layout(entries, width as i32)
        .last()
        .map(|(r, _)| r + 1)
        .unwrap_or(0);
    (rows * ROW_PX + 4) as u32
}

/// Draws the entries on `area` (the strip under the plot).
pub(crate) fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[Entry],
    text: crate::text::TextScale,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let width = area.dim_in_pixel().0 as i32;
    for (e, (row, x)) in entries.iter().zip(layout(entries, width)) {
        let y = row * ROW_PX + ROW_PX / 2;
        let style = e.colour.stroke_width(2);
        let end = if e.dashed {
            x + SWATCH_PX / 2
        } else {
            x + SWATCH_PX
        };
        area.draw(&PathElement::new([(x, y), (end, y)], style))?;
        area.draw(&Text::new(
            e.text.clone(),
            (x + SWATCH_PX + 6, y - 6),
            text.font(11.0),
        ))?;
    }
    Ok(())
}
