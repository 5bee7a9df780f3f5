//! One chart on a canvas, drawn by the same plotters function the SVG export uses. Clicking it
//! jumps the cursor to that time.

use std::rc::Rc;

use faultline_sim::SimTime;
use yew::prelude::*;

use super::shown_width::{use_shown_width, Shown};
use super::{canvas, fmt};
use crate::charts::{canvas_height, ChartLayout};
use crate::view_model::chart_data::ChartData;

/// Props of [`Chart`].
#[derive(Properties, PartialEq)]
pub struct ChartProps {
    /// From `view_model::chart_data(kind, &runs, Some(cursor))`.
    pub data: Rc<ChartData>,
    /// Canvas width in pixels.
    #[prop_or(640)]
    pub width: u32,
    /// The plot's height in pixels, lower on a narrow chart ([`plot_height`]); the legend's rows
    /// add to the canvas below it (a row or two at the usual width, so about the 260 pixels
    /// every chart had before).
    #[prop_or(220)]
    pub height: u32,
    /// The chart was clicked at this time.
    #[prop_or_default]
    pub on_jump: Callback<SimTime>,
    /// It shows one of the scenario's key metrics: first, at full width.
    #[prop_or_default]
    pub wide: bool,
    /// It draws the metric the guide step at the cursor names.
    #[prop_or_default]
    pub highlighted: bool,
    /// Which run it plots in compare mode (`buggy`, `fixed`): the `data-run` attribute.
    #[prop_or_default]
    pub run: Option<AttrValue>,
}

/// The narrowest canvas a chart is drawn on: narrower, its axis labels and legend stop fitting,
/// so a chart shown narrower than this is scaled down instead.
const MIN_CANVAS_PX: u32 = 280;
/// The widest canvas a chart is drawn on, whatever the layout reports.
const MAX_CANVAS_PX: u32 = 2560;

/// A narrow chart's plot is this much as high as the chart is wide: a phone-wide chart at the
/// usual height took most of the screen, and a tour step's caption and the chart it talks
/// about no longer fitted on it together.
const PLOT_ASPECT: f64 = 0.42;
/// The lowest a plot gets, however narrow the chart.
const MIN_PLOT_PX: u32 = 150;

/// The plot's height on a canvas `width` pixels wide: the `usual` height, lower on a chart too
/// narrow to keep [`PLOT_ASPECT`] at it (a phone), never under [`MIN_PLOT_PX`].
fn plot_height(width: u32, usual: u32) -> u32 {
    let proportional = (f64::from(width) * PLOT_ASPECT).round() as u32;
    proportional.clamp(MIN_PLOT_PX.min(usual), usual)
}

/// The canvas width of a chart `shown` CSS pixels wide: the same, so its text keeps the size
/// it is drawn at. A canvas drawn at a fixed width and scaled by CSS shrank its labels, to
/// half beside the other charts at 1024 pixels and to a third, unreadable, on a phone. Until
/// the chart is laid out (and natively), the `usual` width, twice that for a key chart.
fn canvas_width(shown: Option<u32>, wide: bool, usual: u32) -> u32 {
    match shown {
        Some(w) => w.clamp(MIN_CANVAS_PX, MAX_CANVAS_PX),
        None if wide => usual * 2,
        None => usual,
    }
}

/// A chart.
#[function_component]
pub fn Chart(props: &ChartProps) -> Html {
    let canvas_ref = use_node_ref();
    let figure_ref = use_node_ref();
    let shown = use_shown_width(&figure_ref);
    let width = canvas_width(shown.width(), props.wide, props.width);
    let height = canvas_height(&props.data, width, plot_height(width, props.height));
    // Where the last drawing put the plot, for mapping clicks to time; not state, because
    // drawing it must not re-render.
    let layout = use_mut_ref(|| None::<ChartLayout>);
    {
        let (canvas_ref, layout) = (canvas_ref.clone(), layout.clone());
        // Not before the chart's width is known: it would be drawn twice on every mount (a
        // tab switch, the first frame).
        let ready = shown != Shown::Waiting;
        use_effect_with(
            (props.data.clone(), width, height, ready),
            move |(data, _, _, ready)| {
                if *ready {
                    *layout.borrow_mut() = canvas::draw_chart(&canvas_ref, data);
                }
            },
        );
    }
    let data = &props.data;
    if data.is_empty() {
        return html! {
            <figure ref={ figure_ref } class="view chart empty" data-chart={ data.kind.id() }>
                <figcaption>{ &data.title }{ ": no data in this run" }</figcaption>
            </figure>
        };
    }
    let onclick = {
        let (canvas_ref, cb) = (canvas_ref.clone(), props.on_jump.clone());
        Callback::from(move |e: MouseEvent| {
            let Some(l) = *layout.borrow() else {
                return;
            };
            if let Some((x, _)) = canvas::canvas_xy(&canvas_ref, &e) {
                cb.emit(fmt::secs_to_time(l.secs_at(x as i32)));
            }
        })
    };
    let series: Vec<String> = data.series.iter().map(|s| s.label.clone()).collect();
    let class = classes!(
        "view",
        "chart",
        props.wide.then_some("wide"),
        props.highlighted.then_some("highlight")
    );
    html! {
        <figure ref={ figure_ref } {class} data-chart={ data.kind.id() } data-key={ props.wide.to_string() } data-run={ props.run.clone() }
                data-series={ series.join(",") }>
            <canvas ref={ canvas_ref } width={ width.to_string() }
                    height={ height.to_string() } aria-label={ data.title.clone() }
                    {onclick} />
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::canvas_width;

    #[test]
    fn a_chart_is_drawn_as_wide_as_it_is_shown() {
        // The panel beside the gallery at 1024 pixels, and a phone.
        assert_eq!(canvas_width(Some(686), true, 640), 686);
        assert_eq!(canvas_width(Some(342), false, 640), 342);
        // Two charts a row at 1440 pixels.
        assert_eq!(canvas_width(Some(551), false, 640), 551);
    }

    #[test]
    fn a_phone_wide_plot_is_lower_and_a_wider_one_has_the_usual_height() {
        use super::plot_height;
        assert_eq!(plot_height(1102, 220), 220);
        assert_eq!(plot_height(543, 220), 220);
        assert_eq!(plot_height(420, 220), 176);
        assert_eq!(plot_height(353, 220), 150);
        assert_eq!(plot_height(280, 220), 150);
    }

    #[test]
    fn too_narrow_a_chart_is_scaled_and_before_layout_it_has_the_usual_width() {
        assert_eq!(canvas_width(Some(120), false, 640), 280);
        assert_eq!(canvas_width(Some(9_000), true, 640), 2560);
        assert_eq!(canvas_width(None, false, 640), 640);
        assert_eq!(canvas_width(None, true, 640), 1280);
    }
}
