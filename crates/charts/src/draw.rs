//! Charts drawn with plotters, generic over its `DrawingBackend`: the browser draws them on a
//! canvas (plotters-canvas), tests and the CLI render the same function to SVG
//! ([`render_svg`]), so both look the same.

use plotters::chart::DualCoordChartContext;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;

use crate::chart_data::{ChartData, Series};
use crate::palette::series_colour;
use crate::text::TextScale;

/// Where the plot landed, so a click can be mapped back to a time.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ChartLayout {
    /// Backend x pixel of time 0.
    pub left_px: i32,
    /// Backend x pixel of `x_max_secs`.
    pub right_px: i32,
    /// Seconds at the right edge.
    pub x_max_secs: f64,
}

impl ChartLayout {
    /// The simulated second under backend pixel `x`, clamped to the plot.
    pub fn secs_at(&self, x: i32) -> f64 {
        let w = (self.right_px - self.left_px).max(1) as f64;
        ((x - self.left_px) as f64 / w).clamp(0.0, 1.0) * self.x_max_secs
    }
}

/// The alert lines' colour: TiCDC's alerts are red in Grafana too.
const ALERT: RGBColor = RGBColor(200, 30, 30);
const CURSOR: RGBColor = RGBColor(20, 20, 20);

type DrawResult<T, DB> = Result<T, DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// The top of an axis: the highest value or alert line, with headroom, never zero.
fn top(values: impl Iterator<Item = f64>) -> f64 {
    let max = values.filter(|v| v.is_finite()).fold(0.0, f64::max);
    if max <= 0.0 {
        1.0
    } else {
        max * 1.08
    }
}

/// The title's font size where it fits the chart's width.
const CAPTION_PX: u32 = 15;
/// The smallest the title shrinks to on a narrow chart (a phone) before it is cut.
const CAPTION_MIN_PX: u32 = 10;
/// Rough width of a sans-serif character, as a share of its font size.
const CHAR_EM: f64 = 0.55;
/// The room one x tick label takes: the time axis has one label per this many pixels of
/// chart, at most plotters' usual ten, so a chart drawn phone-wide does not run them together.
const X_TICK_ROOM_PX: u32 = 64;

/// The title's font size on a chart `width` pixels wide: the usual size where the title fits
/// across (with the margins), smaller where it does not, never under [`CAPTION_MIN_PX`].
fn caption_px(title: &str, width: u32) -> u32 {
    let room = f64::from(width.saturating_sub(16));
    let fits = room / (title.chars().count().max(1) as f64 * CHAR_EM);
    (fits.floor() as u32).clamp(CAPTION_MIN_PX, CAPTION_PX)
}

/// How many labels the time axis of a chart `width` pixels wide gets.
fn x_label_count(width: u32) -> usize {
    (width / X_TICK_ROOM_PX).clamp(3, 10) as usize
}

/// The room one y tick label takes, in pixels of the area above the legend: a phone's lower
/// plot gets fewer labels rather than a column of them touching.
const Y_TICK_ROOM_PX: u32 = 26;

/// How many labels a y axis gets on a plot area `height` pixels high.
fn y_label_count(height: u32) -> usize {
    (height / Y_TICK_ROOM_PX).clamp(3, 10) as usize
}

/// An axis tick: whole numbers unless the axis is short enough to need a decimal.
fn tick(v: f64, axis_max: f64) -> String {
    if axis_max >= 10.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

/// An alert line further above the data than this factor is left off the axis (and named
/// "off scale" in the legend), so 5 leaderless regions or a 2 s lag stay visible.
const ALERT_SCALE_FACTOR: f64 = 4.0;

/// Which alert lines are too far above the data to share its axis.
fn alerts_off_scale(data: &ChartData, data_max: f64) -> Vec<bool> {
    data.alerts
        .iter()
        .map(|a| a.value > data_max.max(f64::MIN_POSITIVE) * ALERT_SCALE_FACTOR)
        .collect()
}

/// The left axis's top and which alert lines are off it.
fn left_axis(data: &ChartData) -> (f64, Vec<bool>) {
    let (data_max, _) = crate::axis::extents(data);
    let off_scale = alerts_off_scale(data, data_max);
    let on_scale = data.alerts.iter().zip(&off_scale).filter(|(_, off)| !**off);
    (
        top(std::iter::once(data_max).chain(on_scale.map(|(a, _)| a.value))),
        off_scale,
    )
}

/// The height of a canvas `width` pixels wide that gives `data` a plot `plot_height` pixels
/// high and its whole legend below: a narrow chart lays its legend out in more rows, and taking
/// them from a fixed height squeezed the plot (to half on a phone, for the writes chart's ten
/// series).
pub fn canvas_height(data: &ChartData, width: u32, plot_height: u32) -> u32 {
    let (_, off_scale) = left_axis(data);
    let entries = crate::legend::entries(data, ALERT, &off_scale);
    plot_height + crate::legend::height(&entries, width)
}

/// The tick labels' size in pixels (plotters' own default at the sizes charts are drawn).
const LABEL_PX: f64 = 12.0;

/// Draws `data` on `root`, a canvas: the plot above, the legend in a strip below it. The y
/// axes scale to the data; an alert line joins the axis only when it is near the data.
pub fn draw_chart<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    data: &ChartData,
) -> DrawResult<ChartLayout, DB> {
    draw_chart_in(root, data, TextScale::CANVAS)
}

/// [`draw_chart`] on a backend whose text sizes `text` corrects.
fn draw_chart_in<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    data: &ChartData,
    text: TextScale,
) -> DrawResult<ChartLayout, DB> {
    root.fill(&WHITE)?;
    let x_max = data.x_max_secs.max(1.0);
    let (y_max, off_scale) = left_axis(data);
    let y2_max = top(std::iter::once(crate::axis::extents(data).1));
    let entries = crate::legend::entries(data, ALERT, &off_scale);
    let (width, height) = root.dim_in_pixel();
    // A canvas sized by [`canvas_height`] has room for the whole legend; a fixed-size SVG may
    // not, and then the plot keeps at least half.
    let strip = crate::legend::height(&entries, width).min(height / 2);
    let plot_area_px = height - strip;
    let (root, legend_area) = root.split_vertically(plot_area_px);
    crate::legend::draw(&legend_area, &entries, text)?;
    let root = &root;
    let has_y2 = data.y2_label.is_some();
    let mut chart = ChartBuilder::on(root)
        .caption(
            &data.title,
            text.font(caption_px(&data.title, width).into()),
        )
        .margin(8)
        .margin_right(if has_y2 { 8 } else { 20 })
        // Room for the tick labels and, under them, the axis description without touching.
        .x_label_area_size(40)
        .y_label_area_size(52)
        .right_y_label_area_size(if has_y2 { 60 } else { 0 })
        .build_cartesian_2d(0f64..x_max, 0f64..y_max)?
        .set_secondary_coord(0f64..x_max, 0f64..y2_max);
    chart
        .configure_mesh()
        .x_desc("simulated time (s)")
        .x_labels(x_label_count(width))
        .y_labels(y_label_count(plot_area_px))
        .y_desc(&data.y_label)
        .x_label_formatter(&|x| tick(*x, x_max))
        .y_label_formatter(&|y| tick(*y, y_max))
        .label_style(text.font(LABEL_PX))
        .light_line_style(WHITE.mix(0.0))
        .draw()?;
    if let Some(label) = &data.y2_label {
        chart
            .configure_secondary_axes()
            .y_desc(label)
            .y_labels(y_label_count(plot_area_px))
            .label_style(text.font(LABEL_PX))
            .y_label_formatter(&|y| tick(*y, y2_max))
            .draw()?;
    }
    for (alert, _) in data.alerts.iter().zip(&off_scale).filter(|(_, off)| !**off) {
        chart.draw_series(DashedLineSeries::new(
            [(0.0, alert.value), (x_max, alert.value)],
            6,
            4,
            ALERT.stroke_width(1),
        ))?;
    }
    draw_fault_marks(&mut chart, data, (x_max, y_max), text)?;
    for s in &data.series {
        draw_series(&mut chart, s, if s.secondary { y2_max } else { y_max })?;
    }
    draw_cut_peaks(&mut chart, data, (y_max, y2_max), text)?;
    if let Some(c) = data.cursor_secs {
        let c = c.clamp(0.0, x_max);
        chart.draw_series(LineSeries::new(
            [(c, 0.0), (c, y_max)],
            CURSOR.stroke_width(1),
        ))?;
    }
    let (xs, _) = chart.plotting_area().get_pixel_range();
    Ok(ChartLayout {
        left_px: xs.start,
        right_px: xs.end,
        x_max_secs: x_max,
    })
}

type Xy = Cartesian2d<RangedCoordf64, RangedCoordf64>;
type Dual<'a, DB> = DualCoordChartContext<'a, DB, Xy, Xy>;

/// The fault colour: a muted grey, so fault moments read as context under the data.
pub(crate) const FAULT: RGBColor = RGBColor(110, 110, 110);

/// Approximate width of one character of a fault label (10 px sans-serif), in pixels.
const FAULT_CHAR_PX: f64 = 5.5;
/// Height of one row of fault labels, in pixels.
const FAULT_ROW_PX: f64 = 12.0;

/// Each fault's moment: a dotted vertical line with its verb and target at the top. A label
/// that would run into the one before it drops to the next row ([`fault_label_rows`]).
fn draw_fault_marks<'a, DB: DrawingBackend + 'a>(
    chart: &mut Dual<'a, DB>,
    data: &ChartData,
    (x_max, y_max): (f64, f64),
    text: TextScale,
) -> DrawResult<(), DB> {
    let marks: Vec<_> = data.faults.iter().filter(|f| f.secs <= x_max).collect();
    let (w_px, h_px) = chart.plotting_area().dim_in_pixel();
    let secs_per_px = x_max / f64::from(w_px.max(1));
    let y_per_px = y_max / f64::from(h_px.max(1));
    let rows = fault_label_rows(&marks, secs_per_px);
    for (f, row) in marks.iter().zip(rows) {
        chart.draw_series(DashedLineSeries::new(
            [(f.secs, 0.0), (f.secs, y_max)],
            3,
            3,
            FAULT.stroke_width(1),
        ))?;
        chart.draw_series(std::iter::once(Text::new(
            f.label.clone(),
            (f.secs, y_max - row as f64 * FAULT_ROW_PX * y_per_px),
            text.font(10.0).color(&FAULT),
        )))?;
    }
    Ok(())
}

/// The row (0 = top) of each fault label, in order: the first row where the label starts
/// after the previous label of that row ends. `secs_per_px` converts the labels' pixel width
/// to the time axis.
pub(crate) fn fault_label_rows(marks: &[&crate::FaultMark], secs_per_px: f64) -> Vec<usize> {
    let mut row_ends: Vec<f64> = Vec::new();
    marks
        .iter()
        .map(|m| {
            let width = m.label.chars().count() as f64 * FAULT_CHAR_PX * secs_per_px;
            let row = row_ends
                .iter()
                .position(|end| m.secs > *end)
                .unwrap_or(row_ends.len());
            if row == row_ends.len() {
                row_ends.push(0.0);
            }
            row_ends[row] = m.secs + width;
            row
        })
        .collect()
}

/// Each series, on either axis, that a brief spike takes above the plot (`crate::axis`): its
/// peak, written where the line leaves the top, so the cut is never mistaken for the value.
/// A right-axis series is written in the right axis's coordinates.
fn draw_cut_peaks<'a, DB: DrawingBackend + 'a>(
    chart: &mut Dual<'a, DB>,
    data: &ChartData,
    (y_max, y2_max): (f64, f64),
    text: TextScale,
) -> DrawResult<(), DB> {
    for s in &data.series {
        let top = if s.secondary { y2_max } else { y_max };
        let peak = s.points.iter().copied().max_by(|a, b| a.1.total_cmp(&b.1));
        let Some((secs, value)) = peak.filter(|p| p.1 > top) else {
            continue;
        };
        let label = Text::new(
            format!("{}: peak {value} (off scale)", s.metric),
            (secs, top * 0.93),
            text.font(11.0).color(&series_colour(s.colour)),
        );
        if s.secondary {
            chart.draw_secondary_series(std::iter::once(label))?;
        } else {
            chart.draw_series(std::iter::once(label))?;
        }
    }
    Ok(())
}

/// One series, cut at `top` (the axis's top): the first run solid, later runs (compare mode)
/// dashed in the same colour.
fn draw_series<DB: DrawingBackend>(
    chart: &mut Dual<'_, DB>,
    s: &Series,
    top: f64,
) -> DrawResult<(), DB> {
    let style = series_colour(s.colour).stroke_width(2);
    let points = s.points.iter().map(|&(x, y)| (x, y.min(top)));
    match (s.secondary, s.run) {
        (false, 0) => chart.draw_series(LineSeries::new(points, style))?,
        (false, _) => chart.draw_series(DashedLineSeries::new(points, 7, 4, style))?,
        (true, 0) => chart.draw_secondary_series(LineSeries::new(points, style))?,
        (true, _) => chart.draw_secondary_series(DashedLineSeries::new(points, 7, 4, style))?,
    };
    Ok(())
}

/// Renders a chart to an SVG document (tests, and the CLI's reports).
pub fn render_svg(data: &ChartData, width: u32, height: u32) -> Result<String, String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (width, height)).into_drawing_area();
        draw_chart_in(&root, data, TextScale::SVG).map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(out)
}

#[cfg(test)]
#[path = "draw_tests.rs"]
mod tests;
