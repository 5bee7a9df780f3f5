//! Guided steps: the caption for the cursor, Prev/Next that jump the cursor to a step, and a
//! way out to free play.

use yew::prelude::*;

use super::PanelProps;
use crate::playground::Action;

/// The guide bar (shown when the scenario has steps).
#[function_component]
pub fn Guide(props: &PanelProps) -> Html {
    let pg = props.state.pg.borrow();
    let steps = &pg.scenario().guide;
    if steps.is_empty() {
        return html! {};
    }
    let send = |a: Action| {
        let cb = props.on_action.clone();
        Callback::from(move |_: MouseEvent| cb.emit(a.clone()))
    };
    let Some(step) = pg.guide else {
        return html! {
            <div class="guide off">
                <button id="guide-start" onclick={ send(Action::GuideTo(0)) }>
                    { format!("Take the guided tour ({} steps)", steps.len()) }
                </button>
            </div>
        };
    };
    let (shown, caption) = pg
        .caption()
        .map(|(i, c)| (i, c.to_string()))
        .unwrap_or((step, String::new()));
    let prev = shown.checked_sub(1);
    let next = (shown + 1 < steps.len()).then_some(shown + 1);
    html! {
        <div class="guide" id="guide" role="region" aria-label="guided steps">
            <span class="step-no">{ format!("Step {} of {} · {}", shown + 1, steps.len(), steps[shown].at) }</span>
            <p id="guide-caption" class="caption">{ caption }</p>
            <div class="row">
                <button id="guide-prev" disabled={ prev.is_none() }
                        onclick={ send(Action::GuideTo(prev.unwrap_or(0))) }>{ "‹ Prev" }</button>
                <button id="guide-next" class="primary" disabled={ next.is_none() }
                        onclick={ send(Action::GuideTo(next.unwrap_or(shown))) }>{ "Next ›" }</button>
                <button id="guide-leave" onclick={ send(Action::LeaveGuide) }>{ "Leave the guide" }</button>
            </div>
        </div>
    }
}
