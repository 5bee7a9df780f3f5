//! A swimlane view (SVG): one lane per entity, coloured segments per state over time, the time
//! cursor, and a legend; highlighted windows (a double write) are outlined over a lane.
//! Clicking a segment or a window jumps the cursor to where it began. Used for the sink state
//! of each changefeed (issue 7), table-to-capture assignment and the owner (issue 6).

use std::rc::Rc;

use faultline_sim::SimTime;
use yew::prelude::*;

use super::fmt;
use crate::view_model::lanes::{Lane, LanesVm};

/// Props of [`StateLanes`].
#[derive(Properties, PartialEq)]
pub struct StateLanesProps {
    /// From `view_model::lanes::sink_lanes(&run)` (or another lane builder).
    pub data: Rc<LanesVm>,
    /// A segment was clicked: jump to its start.
    #[prop_or_default]
    pub on_jump: Callback<SimTime>,
    /// Drawing width in SVG units (the SVG scales to its box).
    #[prop_or(640)]
    pub width: u32,
}

/// Left margin for lane labels, lane height and gap, in SVG units.
const LABEL_W: f64 = 80.0;
const LANE_H: f64 = 18.0;
const GAP: f64 = 6.0;
const AXIS_H: f64 = 16.0;

/// The swimlanes.
#[function_component]
pub fn StateLanes(props: &StateLanesProps) -> Html {
    let d = &props.data;
    if d.lanes.is_empty() {
        return html! {
            <figure class="view lanes empty" data-lanes={ d.id.clone() }>
                <figcaption>{ &d.title }{ ": no data in this run" }</figcaption>
            </figure>
        };
    }
    let w = props.width as f64;
    let plot_w = w - LABEL_W - 8.0;
    let x = move |secs: f64| LABEL_W + plot_w * (secs / d.x_max_secs).clamp(0.0, 1.0);
    let h = d.lanes.len() as f64 * (LANE_H + GAP) + AXIS_H;
    let lanes = d
        .lanes
        .iter()
        .enumerate()
        .map(|(i, lane)| lane_row(i as f64 * (LANE_H + GAP), lane, &x, &props.on_jump));
    let cx = x(d.cursor_secs);
    let axis_y = h - AXIS_H + 12.0;
    html! {
        <figure class="view lanes" data-lanes={ d.id.clone() }>
            <figcaption>{ &d.title }</figcaption>
            <svg viewBox={ format!("0 0 {w} {h}") } width="100%" role="img" aria-label={ d.title.clone() }>
                { for lanes }
                <line class="cursor" x1={ cx.to_string() } x2={ cx.to_string() } y1="0" y2={ (h - AXIS_H).to_string() } />
                <text class="axis" x={ LABEL_W.to_string() } y={ axis_y.to_string() }>{ "0 s" }</text>
                <text class="axis" x={ (w - 8.0).to_string() } y={ axis_y.to_string() } text-anchor="end">
                    { format!("{:.0} s", d.x_max_secs) }
                </text>
            </svg>
            <ul class="legend">
                { for d.states.iter().map(|s| html! {
                    <li data-state={ s.clone() }><span class={ format!("swatch state-{s}") }></span>{ s }</li>
                }) }
            </ul>
        </figure>
    }
}

/// One lane at height `y`: its label, a segment per state (`x` maps seconds to SVG units) and
/// its highlighted windows outlined over them; clicking either jumps to where it began.
fn lane_row(y: f64, lane: &Lane, x: &impl Fn(f64) -> f64, on_jump: &Callback<SimTime>) -> Html {
    let jump = |from_secs: f64| {
        let (cb, at) = (on_jump.clone(), fmt::secs_to_time(from_secs));
        Callback::from(move |_: MouseEvent| cb.emit(at))
    };
    let segs = lane.segments.iter().map(|s| {
        let onclick = jump(s.from_secs);
        // A segment that has just begun still gets a visible sliver.
        let sw = (x(s.to_secs) - x(s.from_secs)).max(1.5);
        html! {
            <rect class={ format!("seg state-{}", s.state) } data-state={ s.state.clone() }
                  data-from={ format!("{:.3}", s.from_secs) }
                  x={ format!("{:.1}", x(s.from_secs)) } y={ y.to_string() }
                  width={ format!("{sw:.1}") } height={ LANE_H.to_string() } { onclick }>
                <title>{ format!("{}: {} from {:.1} s to {:.1} s", lane.name, s.state, s.from_secs, s.to_secs) }</title>
            </rect>
        }
    });
    let highlights = lane.highlights.iter().map(|s| {
        let onclick = jump(s.from_secs);
        let sw = (x(s.to_secs) - x(s.from_secs)).max(3.0);
        html! {
            <rect class={ format!("hl state-{}", s.state) } data-highlight={ s.state.clone() }
                  data-from={ format!("{:.3}", s.from_secs) }
                  x={ format!("{:.1}", x(s.from_secs) - 1.0) } y={ (y - 2.0).to_string() }
                  width={ format!("{:.1}", sw + 2.0) } height={ (LANE_H + 4.0).to_string() } { onclick }>
                <title>{ format!("{}: {} from {:.1} s to {:.1} s", lane.name, s.state, s.from_secs, s.to_secs) }</title>
            </rect>
        }
    });
    html! {
        <g class="lane" data-lane={ lane.name.clone() } data-highlights={ lane.highlights.len().to_string() }
           data-states={ lane.segments.iter().map(|s| s.state.as_str()).collect::<Vec<_>>().join(",") }>
            <text x="0" y={ (y + LANE_H * 0.75).to_string() } class="lane-label">{ &lane.name }</text>
            { for segs }
            { for highlights }
        </g>
    }
}
