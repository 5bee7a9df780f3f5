//! Guided steps: the caption for the cursor with its checked claims, Prev/Next that move the
//! cursor to a step's time and pause there, and a way out to free play. The rules live in
//! `playground::guide`.

use yew::prelude::*;

use super::PanelProps;
use crate::format::plural;
use crate::playground::{Action, GuideStop};
use crate::view_model::expectations::GuideClaimRow;

/// A claim's observed value in words: a state-coded metric by its state's name.
fn observed_words(c: &GuideClaimRow, v: f64) -> String {
    let metric = c.row.check.split(' ').next().unwrap_or_default();
    match crate::view_model::metrics_strip::state_name(metric, v) {
        Some(name) => name.to_string(),
        None => crate::views::fmt::value(v),
    }
}

/// The shown step's claims: each with its verdict and the value the run showed, so a reader
/// sees that the caption is checked, and a false one at a glance.
fn claims(all: &[GuideClaimRow], step: Option<usize>) -> Html {
    let Some(step) = step else {
        return html! {};
    };
    let mine: Vec<&GuideClaimRow> = all.iter().filter(|c| c.step == step).collect();
    if mine.is_empty() {
        return html! {};
    }
    html! {
        <ul id="guide-claims" class="claims" aria-label="what this caption claims, checked">
            { for mine.iter().map(|c| {
                let r = &c.row;
                let mark = match r.verdict.as_str() {
                    "pass" => "✓",
                    "fail" => "✗",
                    _ => "…",
                };
                let observed = match r.observed {
                    Some(v) => format!("observed {}", observed_words(c, v)),
                    None => "not reached yet".into(),
                };
                html! {
                    <li class={ classes!("claim", r.verdict.clone()) } data-verdict={ r.verdict.clone() }
                        title={ r.check.clone() }>
                        <span class="mark" aria-label={ r.verdict.clone() }>{ mark }</span>
                        { format!(" {} · {observed}", r.name) }
                    </li>
                }
            }) }
        </ul>
    }
}

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
            { claims(&pg.frame.expectations.claims, nav.step) }
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
