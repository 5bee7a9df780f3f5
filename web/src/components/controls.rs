//! Time controls: play/pause and speed, single steps, jumps, branch here, help.

use web_sys::HtmlSelectElement;
use yew::prelude::*;

use super::PanelProps;
use crate::playground::{Action, Speed};

const SEC: i64 = 1_000_000;

/// The control bar. In embed mode only play/pause remains.
#[function_component]
pub fn Controls(props: &PanelProps) -> Html {
    let pg = props.state.pg.borrow();
    let node = use_state(|| "tikv-1".to_string());
    let send = |a: Action| {
        let cb = props.on_action.clone();
        Callback::from(move |_: MouseEvent| cb.emit(a.clone()))
    };
    let playing = pg.playing;
    let play = html! {
        <button id="play" class="primary" title="Play / pause (space)"
                onclick={ send(Action::TogglePlay) }>
            { if playing { "❚❚ Pause" } else { "▶ Play" } }
        </button>
    };
    if pg.embed {
        return html! { <div class="controls">{ play }</div> };
    }
    let names: Vec<String> = pg.frame.nodes.iter().map(|n| n.name.clone()).collect();
    let on_node = {
        let node = node.clone();
        Callback::from(move |e: Event| {
            if let Some(sel) = e.target_dyn_into::<HtmlSelectElement>() {
                node.set(sel.value());
            }
        })
    };
    let step_node = {
        let cb = props.on_action.clone();
        let node = node.clone();
        Callback::from(move |_: MouseEvent| cb.emit(Action::StepToNode((*node).clone())))
    };
    html! {
        <div class="controls" role="toolbar" aria-label="time controls">
            { play }
            <span class="speeds" role="group" aria-label="speed">
                { for Speed::ALL.iter().map(|&s| html! {
                    <button class={ classes!((pg.speed == s).then_some("on")) }
                            data-speed={ s.label() } onclick={ send(Action::SetSpeed(s)) }>
                        { s.label() }
                    </button>
                }) }
            </span>
            <button id="back-1s" title="Back 1 s (←)" onclick={ send(Action::Nudge(-SEC)) }>{ "−1 s" }</button>
            <button id="step" title="Step one event (→)" onclick={ send(Action::StepEvent) }>{ "Step" }</button>
            <button id="fwd-1s" onclick={ send(Action::Nudge(SEC)) }>{ "+1 s" }</button>
            <button id="fwd-10s" title="+10 s (shift+→)" onclick={ send(Action::Nudge(10 * SEC)) }>{ "+10 s" }</button>
            <button id="fwd-1m" onclick={ send(Action::Nudge(60 * SEC)) }>{ "+1 min" }</button>
            <span class="step-node">
                <select id="step-node-select" aria-label="node" onchange={ on_node }>
                    { for names.iter().map(|n| html! {
                        <option value={ n.clone() } selected={ *n == *node }>{ n }</option>
                    }) }
                </select>
                <button id="step-node" title="Run until this node handles a message or a tick"
                        onclick={ step_node }>{ "Next event of node" }</button>
            </span>
            <button id="branch-here" title="Keep this run and continue in a copy: then add a different fault"
                    onclick={ send(Action::BranchHere) }>{ "Branch here" }</button>
            <button id="help-open" title="Keyboard shortcuts and simplifications (?)"
                    onclick={ send(Action::ToggleHelp) }>{ "?" }</button>
        </div>
    }
}
