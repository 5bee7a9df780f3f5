//! Guided steps: the caption for the cursor, Prev/Next that move the cursor to a step's time
//! and pause there, and a way out to free play. The rules live in `playground::guide`.

use yew::prelude::*;

use super::PanelProps;
use crate::format::plural;
use crate::playground::{Action, GuideStop};

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
    let Some(nav) = pg.guide_nav() else {
        return html! {
            <div class="guide off">
                <button id="guide-start" onclick={ send(Action::GuideTo(GuideStop::Step(0))) }>
                    { format!("Take the guided tour ({})", plural(steps.len(), "step", "steps")) }
                </button>
            </div>
        };
    };
    let (label, caption) = match nav.step {
        Some(i) => (
            format!("Step {} of {} · {}", i + 1, nav.count, steps[i].at),
            nav.caption.unwrap_or_default().to_string(),
        ),
        None => (
            format!(
                "{} · starts at {}",
                plural(nav.count, "step", "steps"),
                steps[0].at
            ),
            format!(
                "The tour starts at {}. Press Next to go there.",
                steps[0].at
            ),
        ),
    };
    let button = |stop: Option<GuideStop>| send(Action::GuideTo(stop.unwrap_or(GuideStop::Start)));
    html! {
        <div class="guide" id="guide" role="region" aria-label="guided steps"
             data-step={ nav.step.map(|i| (i + 1).to_string()).unwrap_or_else(|| "0".into()) }>
            <span class="step-no" id="guide-step">{ label }</span>
            <p id="guide-caption" class="caption">{ caption }</p>
            <div class="row">
                <button id="guide-prev" disabled={ nav.prev.is_none() }
                        onclick={ button(nav.prev) }>{ "‹ Prev" }</button>
                <button id="guide-next" class="primary" disabled={ nav.next.is_none() }
                        onclick={ button(nav.next) }>{ "Next ›" }</button>
                <button id="guide-leave" onclick={ send(Action::LeaveGuide) }>{ "Leave the guide" }</button>
            </div>
        </div>
    }
}
