//! The region heatmap: time across, regions in key order down, one canvas pixel per cell
//! painted in one `ImageData`, scaled up with crisp pixels. A click selects the cell's
//! region (its bucket's lowest leaderless region on a leaderless cell) at the cell's time.

use std::rc::Rc;

use faultline_sim::SimTime;
use yew::prelude::*;

use super::canvas;
use super::region_map::legend;
use crate::format;
use crate::view_model::heatmap::HeatmapVm;

/// Props of [`Heatmap`].
#[derive(Properties, PartialEq)]
pub struct HeatmapProps {
    /// From the engine (`Session::heatmap`).
    pub data: Rc<HeatmapVm>,
    /// Which run (`run`, `buggy`, `fixed`): the `data-run` attribute and the caption.
    #[prop_or_else(|| AttrValue::from("run"))]
    pub run: AttrValue,
    /// A cell was clicked: its region and the time of its column.
    pub on_select: Callback<(u32, SimTime)>,
    /// CSS width of the plot.
    #[prop_or(640)]
    pub width: u32,
}

/// CSS pixels per row: a few rows are drawn tall, 256 rows one or two pixels each.
fn row_px(buckets: u32) -> u32 {
    (256 / buckets.max(1)).clamp(1, 8) * 2
}

/// The heatmap with its axis labels and legend.
#[function_component]
pub fn Heatmap(props: &HeatmapProps) -> Html {
    let canvas_ref = use_node_ref();
    {
        let canvas_ref = canvas_ref.clone();
        use_effect_with(props.data.clone(), move |d| {
            canvas::put_rgba(&canvas_ref, d.columns, d.buckets, &d.rgba_bytes());
        });
    }
    let d = &props.data;
    let onclick = {
        let (canvas_ref, d, cb) = (canvas_ref.clone(), d.clone(), props.on_select.clone());
        Callback::from(move |e: MouseEvent| {
            let Some((x, y)) = canvas::canvas_xy(&canvas_ref, &e) else {
                return;
            };
            if x < 0.0 || y < 0.0 {
                return;
            }
            let (column, bucket) = (x as u32, y as u32);
            if let Some(region) = d.region_at(column, bucket) {
                cb.emit((region, d.time_of(column)));
            }
        })
    };
    let height = d.buckets * row_px(d.buckets);
    // At most `width` wide, narrower in a narrow column (a phone, compare's pair): the cells
    // stretch, the click maps through the canvas's own size.
    let size = format!("width:100%;max-width:{}px;height:{height}px", props.width);
    let per_row = d.regions.div_ceil(d.buckets.max(1));
    let first = d
        .first_leaderless()
        .map(|(c, b)| format!("{c},{b}"))
        .unwrap_or_default();
    let end = SimTime(d.columns.saturating_sub(1) as u64 * d.column_us);
    html! {
        <figure class="view heatmap" data-run={ props.run.clone() } data-columns={ d.columns.to_string() }
                data-recorded={ d.recorded.to_string() } data-buckets={ d.buckets.to_string() }
                data-leaderless-cells={ d.leaderless_cells().to_string() }
                data-first-leaderless={ first }
                data-stripe-row={ d.stripe_row_now().map_or(-1, |b| b as i64).to_string() }>
            <figcaption>
                { format!("Regions over time ({}): ", props.run) }
                { if per_row > 1 {
                    format!("{} rows of {per_row} regions in key order", d.buckets)
                } else {
                    format!("{} regions in key order", d.regions)
                } }
                { ", a row is leaderless if any of its regions is; click a cell for its region" }
                { split_off_note(d) }
            </figcaption>
            <div class="heatmap-plot">
                <span class="heatmap-axis-y">{ "first key" }</span>
                <canvas ref={ canvas_ref } style={ size } width={ d.columns.to_string() }
                        height={ d.buckets.to_string() } aria-label={ format!("region heatmap ({})", props.run) }
                        {onclick} />
                <span class="heatmap-axis-y">{ "last key" }</span>
            </div>
            <p class="heatmap-axis-x">
                <span>{ "0s" }</span>
                <span>{ format!("one column per {}", format::sim_time(SimTime(d.column_us))) }</span>
                <span>{ format::sim_time(end) }</span>
            </p>
            { legend(&d.stores, None) }
        </figure>
    }
}

/// What the caption adds once splits made regions: where they are drawn.
fn split_off_note(d: &HeatmapVm) -> String {
    match d.regions_now.saturating_sub(d.regions) {
        0 => String::new(),
        1 => ". The region split off since the start is drawn in the row of the range it came from".to_string(),
        n => format!(
            ". The {n} regions split off since the start are drawn in the rows of the ranges they came from"
        ),
    }
}
