//! The scrubber over [0, duration]: dragging rewinds (nearest snapshot, then replay) or
//! fast-forwards. The fault timeline sits right under it.

use faultline_sim::SimTime;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::PanelProps;
use crate::playground::Action;

/// Scrubber resolution: the range input works in milliseconds.
const US_PER_STEP: u64 = 1_000;

/// The scrubber.
#[function_component]
pub fn Scrubber(props: &PanelProps) -> Html {
    let pg = props.state.pg.borrow();
    let end = pg.end().as_micros() / US_PER_STEP;
    let at = pg.seek_target().unwrap_or(pg.now()).as_micros() / US_PER_STEP;
    // Seek on release (change), not on every pixel of a drag (input): a rewind replays.
    let on_change = {
        let cb = props.on_action.clone();
        Callback::from(move |e: Event| {
            if let Some(input) = e.target_dyn_into::<HtmlInputElement>() {
                if let Ok(v) = input.value().parse::<u64>() {
                    cb.emit(Action::Seek(SimTime(v * US_PER_STEP)));
                }
            }
        })
    };
    html! {
        <input id="scrubber" class="scrubber" type="range" min="0" max={ end.to_string() }
               step="1" value={ at.to_string() } aria-label="time cursor"
               onchange={ on_change } disabled={ pg.embed } />
    }
}
