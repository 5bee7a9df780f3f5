//! One chart on a canvas, drawn by the same plotters function the SVG export uses. Clicking it
//! jumps the cursor to that time.

use std::rc::Rc;

use faultline_sim::SimTime;
use yew::prelude::*;

use super::{canvas, fmt};
use crate::charts::ChartLayout;
use crate::view_model::chart_data::ChartData;

/// Props of [`Chart`].
#[derive(Properties, PartialEq)]
pub struct ChartProps {
    /// From `view_model::chart_data(kind, &runs, Some(cursor))`.
    pub data: Rc<ChartData>,
    /// Canvas width in pixels.
    #[prop_or(640)]
    pub width: u32,
    /// Canvas height in pixels.
    #[prop_or(260)]
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

/// The views panel's padding, both sides (web/style.css `.panel`).
const PANEL_PADDING_PX: f64 = 32.0;
/// What the window's edges and the panel's padding take, roughly, before the panel is laid
/// out.
const PAGE_MARGINS_PX: f64 = 40.0;

/// The canvas width of a key chart, which spans the panel: as wide as the panel has `room`
/// for (CSS pixels), at most twice the usual width (sharp at full width on a wide screen)
/// and never narrower than the other charts. The text is drawn in canvas pixels and the
/// canvas is scaled to the panel, so a key chart always 1,280 pixels wide shrank its labels
/// to two thirds beside the other charts at 1024 pixels and to a third, unreadable, on a
/// phone. Without a measure (natively), twice the usual width.
fn key_chart_width(width: u32, room: Option<f64>) -> u32 {
    let wide = width * 2;
    match room {
        Some(r) => wide.min(r.max(f64::from(width)) as u32),
        None => wide,
    }
}

/// The room a key chart has: the views panel's width inside its padding, or before it is laid
/// out, the window's less its margins.
fn key_chart_room() -> Option<f64> {
    crate::dom::element_width("views")
        .map(|w| w - PANEL_PADDING_PX)
        .or_else(|| crate::dom::screen_width().map(|w| w - PAGE_MARGINS_PX))
}

/// A chart.
#[function_component]
pub fn Chart(props: &ChartProps) -> Html {
    let canvas_ref = use_node_ref();
    let width = if props.wide {
        key_chart_width(props.width, key_chart_room())
    } else {
        props.width
    };
    // Where the last drawing put the plot, for mapping clicks to time; not state, because
    // drawing it must not re-render.
    let layout = use_mut_ref(|| None::<ChartLayout>);
    {
        let (canvas_ref, layout) = (canvas_ref.clone(), layout.clone());
        use_effect_with(
            (props.data.clone(), width, props.height),
            move |(data, _, _)| {
                *layout.borrow_mut() = canvas::draw_chart(&canvas_ref, data);
            },
        );
    }
    let data = &props.data;
    if data.is_empty() {
        return html! {
            <figure class="view chart empty" data-chart={ data.kind.id() }>
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
        <figure {class} data-chart={ data.kind.id() } data-key={ props.wide.to_string() } data-run={ props.run.clone() }
                data-series={ series.join(",") }>
            <canvas ref={ canvas_ref } width={ width.to_string() }
                    height={ props.height.to_string() } aria-label={ data.title.clone() }
                    {onclick} />
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::key_chart_width;

    #[test]
    fn a_key_chart_is_as_wide_as_its_room_between_the_usual_width_and_twice_it() {
        assert_eq!(key_chart_width(640, None), 1280);
        assert_eq!(key_chart_width(640, Some(1400.0)), 1280);
        // The panel beside the gallery at 1024 pixels.
        assert_eq!(key_chart_width(640, Some(686.0)), 686);
        // A phone: as wide as the other charts, not wider.
        assert_eq!(key_chart_width(640, Some(350.0)), 640);
    }
}
