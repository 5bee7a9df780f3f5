//! The space-time (Lamport) diagram as SVG: a vertical lane per chosen node, time flowing
//! down, an arrow from (sender, sent) to (receiver, delivered) per message; hover an arrow for
//! its label, click it to jump to its delivery.

use std::rc::Rc;

use faultline_sim::SimTime;
use yew::prelude::*;

use super::fmt;
use crate::view_model::space_time::{Arrow, SpaceTimeVm, MAX_LANES};

/// Props of [`SpaceTime`].
#[derive(Properties, PartialEq)]
pub struct SpaceTimeProps {
    /// From `view_model::space_time(&messages.rows, &chosen, cursor_us, half_window_us)`.
    pub data: Rc<SpaceTimeVm>,
    /// Every node name, for the picker.
    pub nodes: Vec<String>,
    /// The picker changed the chosen nodes (at most `MAX_LANES`).
    pub on_select_nodes: Callback<Vec<String>>,
    /// An arrow was clicked: jump to its delivery.
    #[prop_or_default]
    pub on_jump: Callback<SimTime>,
    /// False when the run records no messages (the diagram would be empty).
    #[prop_or(true)]
    pub recording: bool,
    /// SVG width.
    #[prop_or(560)]
    pub width: u32,
    /// SVG height.
    #[prop_or(420)]
    pub height: u32,
}

const TOP: f64 = 28.0;
const BOTTOM: f64 = 8.0;
const SIDE: f64 = 50.0;

/// The diagram with its node picker.
#[function_component]
pub fn SpaceTime(props: &SpaceTimeProps) -> Html {
    let d = &props.data;
    let (w, h) = (props.width as f64, props.height as f64);
    let lanes = d.lanes.len().max(1);
    let lane_x = |i: usize| {
        if lanes == 1 {
            w / 2.0
        } else {
            SIDE + i as f64 * (w - 2.0 * SIDE) / (lanes - 1) as f64
        }
    };
    let span = d.to_us.saturating_sub(d.from_us).max(1) as f64;
    let time_y = |us: u64| {
        let t = us.clamp(d.from_us, d.to_us) - d.from_us;
        TOP + t as f64 / span * (h - TOP - BOTTOM)
    };
    let arrow = |a: &Arrow| {
        let label = format!(
            "{} → {}: {} (sent {}, delivered {})",
            d.lanes[a.from_lane],
            d.lanes[a.to_lane],
            a.label,
            fmt::at(a.sent_us),
            fmt::at(a.delivered_us)
        );
        html! {
            <g class="arrow" onclick={ props.on_jump.reform({ let t = a.delivered_us; move |_| SimTime(t) }) }>
                <title>{ label }</title>
                <line x1={ lane_x(a.from_lane).to_string() } y1={ time_y(a.sent_us).to_string() }
                      x2={ lane_x(a.to_lane).to_string() } y2={ time_y(a.delivered_us).to_string() }
                      marker-end="url(#st-head)" />
            </g>
        }
    };
    let cursor_y = time_y(d.cursor_us).to_string();
    html! {
        <section class="view space-time">
            { picker(props) }
            if !props.recording {
                <p class="note">{ "Message recording is off for this run." }</p>
            }
            <svg width={ props.width.to_string() } height={ props.height.to_string() }
                 viewBox={ format!("0 0 {w} {h}") } role="img"
                 aria-label="space-time diagram">
                <defs>
                    <marker id="st-head" viewBox="0 0 10 10" refX="10" refY="5"
                            markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                        <path d="M 0 0 L 10 5 L 0 10 z" />
                    </marker>
                </defs>
                { for d.lanes.iter().enumerate().map(|(i, name)| {
                    let x = lane_x(i).to_string();
                    html! {
                        <g class="lane" data-lane={ name.clone() }>
                            <text x={ x.clone() } y="16" text-anchor="middle">{ name }</text>
                            <line x1={ x.clone() } y1={ TOP.to_string() } x2={ x }
                                  y2={ (h - BOTTOM).to_string() } />
                        </g>
                    }
                }) }
                <line class="cursor" x1="0" x2={ w.to_string() } y1={ cursor_y.clone() } y2={ cursor_y } />
                { for d.arrows.iter().map(arrow) }
            </svg>
            <p class="note">
                { format!("{} to {}, {} messages", fmt::at(d.from_us), fmt::at(d.to_us), d.arrows.len()) }
                if d.omitted > 0 { { format!(" ({} more not drawn)", d.omitted) } }
            </p>
        </section>
    }
}

/// Checkboxes for the lanes; once `MAX_LANES` are chosen the others are disabled.
fn picker(props: &SpaceTimeProps) -> Html {
    let chosen = &props.data.lanes;
    let full = chosen.len() >= MAX_LANES;
    html! {
        <fieldset class="lane-picker">
            <legend>{ format!("nodes (up to {MAX_LANES})") }</legend>
            { for props.nodes.iter().map(|n| {
                let on = chosen.contains(n);
                let toggle = {
                    let (cb, chosen, n) = (props.on_select_nodes.clone(), chosen.clone(), n.clone());
                    Callback::from(move |_: Event| {
                        let mut next: Vec<String> = chosen.iter().filter(|c| **c != n).cloned().collect();
                        if !on {
                            next.push(n.clone());
                        }
                        cb.emit(next);
                    })
                };
                html! {
                    <label>
                        <input type="checkbox" checked={ on } disabled={ full && !on }
                               data-node={ n.clone() } onchange={ toggle } />
                        { n }
                    </label>
                }
            }) }
        </fieldset>
    }
}
