//! The branch list: every run kept by "branch here", with its trace hash; click to switch.

use faultline_sim::format_hash;
use yew::prelude::*;

use super::PanelProps;
use crate::format;
use crate::playground::Action;

/// The branch list (hidden while there is only one run).
#[function_component]
pub fn Branches(props: &PanelProps) -> Html {
    let pg = props.state.pg.borrow();
    if pg.branches.len() < 2 {
        return html! {};
    }
    html! {
        <section id="branches" class="panel branches">
            <h3>{ "Branches" }</h3>
            <ul>
                { for pg.branches.iter().enumerate().map(|(i, b)| {
                    let active = i == pg.active;
                    let (cursor, hash) = if active {
                        (pg.now(), pg.trace_hash())
                    } else {
                        (b.cursor, b.hash)
                    };
                    let cb = props.on_action.clone();
                    let onclick = Callback::from(move |_: MouseEvent| cb.emit(Action::SwitchBranch(i)));
                    html! {
                        <li class={ classes!(active.then_some("current")) } data-branch={ i.to_string() }>
                            <button class="link" {onclick} disabled={ active }>{ &b.label }</button>
                            { format!(" · {} faults · at {} · ", b.scenario.faults.len(), format::sim_time(cursor)) }
                            <code class="branch-hash">{ format_hash(hash) }</code>
                        </li>
                    }
                }) }
            </ul>
        </section>
    }
}
