//! Faults as markers (instant) or bars (with a duration) on a strip under the scrubber.
//! Click selects (the palette then edits it); dragging a marker moves it in time.

use faultline_scenario::Dur;
use web_sys::HtmlElement;
use yew::prelude::*;

use super::PanelProps;
use crate::playground::Action;

/// The fault strip.
#[function_component]
pub fn FaultTimeline(props: &PanelProps) -> Html {
    let pg = props.state.pg.borrow();
    let end = pg.end().as_micros().max(1) as f64;
    let strip = use_node_ref();
    // Index being dragged; the move is committed on release (one rebuild, one undo step).
    let dragging = use_state(|| None::<usize>);
    let pct = |us: u64| (us as f64 / end * 100.0).min(100.0);
    let faults = pg.scenario().faults.clone();
    let time_at = {
        let strip = strip.clone();
        move |client_x: i32| -> Option<u64> {
            let el = strip.cast::<HtmlElement>()?;
            let r = el.get_bounding_client_rect();
            let f = ((client_x as f64 - r.left()) / r.width().max(1.0)).clamp(0.0, 1.0);
            Some((f * end) as u64 / 1_000_000 * 1_000_000)
        }
    };
    let on_up = {
        let cb = props.on_action.clone();
        let dragging = dragging.clone();
        let faults = faults.clone();
        let time_at = time_at.clone();
        Callback::from(move |e: PointerEvent| {
            if let Some(i) = *dragging {
                dragging.set(None);
                if let (Some(t), Some(f)) = (time_at(e.client_x()), faults.get(i)) {
                    if Dur(t) != f.at {
                        let mut moved = f.clone();
                        moved.at = Dur(t);
                        cb.emit(Action::UpdateFault(i, moved));
                    }
                }
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
                        dragging.set(Some(i));
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
