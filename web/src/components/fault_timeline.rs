//! Faults as markers (instant) or bars (with a duration) on a strip under the scrubber.
//! Click selects (the palette then edits it); dragging a marker moves it in time, by the
//! distance dragged (`playground::timeline`): a click never moves a fault.

use faultline_scenario::Dur;
use web_sys::HtmlElement;
use yew::prelude::*;

use super::PanelProps;
use crate::playground::timeline::dragged_start;
use crate::playground::Action;

/// The fault strip.
#[function_component]
pub fn FaultTimeline(props: &PanelProps) -> Html {
    let pg = props.state.pg.borrow();
    let end = pg.end().as_micros().max(1) as f64;
    let strip = use_node_ref();
    // Index being dragged and where the press was (client x); the move is committed on
    // release (one rebuild, one undo step).
    let dragging = use_state(|| None::<(usize, f64)>);
    let pct = |us: u64| (us as f64 / end * 100.0).min(100.0);
    let faults = pg.scenario().faults.clone();
    let strip_px = {
        let strip = strip.clone();
        move || {
            strip
                .cast::<HtmlElement>()
                .map_or(0.0, |el| el.get_bounding_client_rect().width())
        }
    };
    let on_up = {
        let cb = props.on_action.clone();
        let dragging = dragging.clone();
        let faults = faults.clone();
        let end_us = end as u64;
        Callback::from(move |e: PointerEvent| {
            let Some((i, down_x)) = *dragging else {
                return;
            };
            dragging.set(None);
            let Some(f) = faults.get(i) else {
                return;
            };
            if let Some(t) = dragged_start(f.at.0, down_x, e.client_x() as f64, strip_px(), end_us)
            {
                let mut moved = f.clone();
                moved.at = Dur(t);
                cb.emit(Action::UpdateFault(i, moved));
            }
        })
    };
    let cursor = pct(pg.now().as_micros());
    html! {
        <div id="fault-timeline" class="fault-timeline" ref={ strip } onpointerup={ on_up }
             aria-label="fault timeline">
            <div class="cursor-line" style={ format!("left:{cursor}%") } />
            { for faults.iter().enumerate().map(|(i, f)| {
                let left = pct(f.at.0);
                let width = f.duration.map(|d| pct(d.0).max(0.6)).unwrap_or(0.0);
                let selected = pg.selected_fault == Some(i);
                let select = {
                    let cb = props.on_action.clone();
                    Callback::from(move |_: MouseEvent| cb.emit(Action::SelectFault(Some(i))))
                };
                let down = {
                    let dragging = dragging.clone();
                    Callback::from(move |e: PointerEvent| {
                        e.prevent_default();
                        dragging.set(Some((i, e.client_x() as f64)));
                    })
                };
                let style = if width > 0.0 {
                    format!("left:{left}%;width:{width}%")
                } else {
                    format!("left:{left}%")
                };
                html! {
                    <div class={ classes!("fault", f.action.name(), (width > 0.0).then_some("bar"), selected.then_some("selected")) }
                         style={ style } data-fault={ i.to_string() }
                         title={ format!("{} {} at {}", f.action.name(), f.target, f.at) }
                         onclick={ select } onpointerdown={ down }>
                        <span>{ f.action.name() }{ " " }{ &f.target }</span>
                    </div>
                }
            }) }
        </div>
    }
}
