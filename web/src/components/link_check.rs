//! The link-check banner ("Reproduced" / "Different run", with what differs) and compare
//! mode's "jump to the first difference". Logic lives in `playground::link_check`.

use faultline_sim::SimTime;
use yew::prelude::*;

use super::PanelProps;
use crate::format;
use crate::playground::link_check::{check_state, current_difference, CheckState};
use crate::playground::Action;

/// The banner over the run of a self-checking link (nothing for a plain link).
#[function_component]
pub fn LinkCheckBanner(props: &PanelProps) -> Html {
    let pg = props.state.pg.borrow();
    match check_state(&pg) {
        None => html! {},
        Some(CheckState::Replaying(at)) => html! {
            <div id="link-check" class="link-check replaying" role="status" data-state="replaying">
                { format!("Checking the link: replaying to {}…", format::sim_time(at)) }
            </div>
        },
        Some(CheckState::Done(v)) => {
            let class = if v.reproduced() {
                "reproduced"
            } else {
                "different"
            };
            html! {
                <div id="link-check" class={ classes!("link-check", class) } role="status" data-state={ class }>
                    <p class="headline">{ v.headline() }</p>
                    if !v.reproduced() {
                        <ul class="details">
                            { for v.details().into_iter().map(|d| html! { <li>{ d }</li> }) }
                        </ul>
                    }
                </div>
            }
        }
    }
}

/// Compare mode's first-difference control: ask, then jump to where the runs part.
#[function_component]
pub fn FirstDifference(props: &PanelProps) -> Html {
    let pg = props.state.pg.borrow();
    if pg.compare.is_none() || pg.frame.twin.is_none() {
        return html! {};
    }
    let find = {
        let cb = props.on_action.clone();
        Callback::from(move |_: MouseEvent| cb.emit(Action::FindFirstDifference))
    };
    let answer = current_difference(&pg).cloned();
    let jump = answer.as_ref().and_then(|d| d.at_us).map(|at| {
        let cb = props.on_action.clone();
        Callback::from(move |_: MouseEvent| cb.emit(Action::Seek(SimTime(at))))
    });
    html! {
        <section id="first-difference" class="panel first-difference">
            <div class="row">
                <button id="find-first-difference" onclick={ find } disabled={ pg.checks.searching }>
                    { if pg.checks.searching { "Searching for the first difference…" } else { "Find the first difference" } }
                </button>
                if let (Some(jump), Some(at)) = (jump, answer.as_ref().and_then(|d| d.at_us)) {
                    <button id="jump-first-difference" class="primary" onclick={ jump }
                            data-at-us={ at.to_string() }>
                        { format!("Jump to the first difference ({})", format::sim_time(SimTime(at))) }
                    </button>
                }
            </div>
            if let Some(d) = &answer {
                <ul id="first-difference-lines" class="details">
                    { for d.lines.iter().map(|l| html! { <li>{ l }</li> }) }
                </ul>
            }
        </section>
    }
}
