//! Compare mode: the same scenario with one bug's toggles flipped, run on the same cursor; both
//! runs' headline numbers and expectations side by side (the design-review view); the views
//! panel shows both runs' charts, region maps and heatmaps (components::view_bodies).

use faultline_sim::format_hash;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use std::rc::Rc;

use super::PanelProps;
use crate::playground::Action;
use crate::toggles::{is_buggy, primary_toggle, toggle_value, toggles_of, BUGS, TOGGLES};
use crate::view_model as vm;
use crate::views::{ExpectationsPanel, MetricsStrip};

/// The compare panel: a switch when off, both runs when on.
#[function_component]
pub fn Compare(props: &PanelProps) -> Html {
    let pg = props.state.pg.borrow();
    let pick = use_state(|| None::<usize>);
    let toggle = pick.unwrap_or_else(|| primary_toggle(pg.scenario()));
    let (Some(toggle_on), Some(twin)) = (pg.compare, pg.frame.twin.as_ref()) else {
        let on_pick = {
            let pick = pick.clone();
            Callback::from(move |e: Event| {
                if let Some(v) = e
                    .target_dyn_into::<HtmlSelectElement>()
                    .and_then(|s| s.value().parse().ok())
                {
                    pick.set(Some(v));
                }
            })
        };
        let cb = props.on_action.clone();
        let start = Callback::from(move |_: MouseEvent| cb.emit(Action::CompareOn(toggle)));
        return html! {
            <section class="panel compare off">
                <h3>{ "Compare" }</h3>
                <div class="row">
                    <label for="compare-toggle">{ "Run this scenario twice, with" }</label>
                    <select id="compare-toggle" onchange={ on_pick }>
                        { for BUGS.iter().enumerate().map(|(i, b)| html! {
                            <option value={ i.to_string() } selected={ i == toggle }>{ option_label(i, b.issue) }</option>
                        }) }
                    </select>
                    <span>{ "flipped" }</span>
                    <button id="compare-on" class="primary" onclick={ start }>{ "Compare buggy vs fixed" }</button>
                </div>
            </section>
        };
    };
    let bug = &BUGS[toggle_on];
    let cb = props.on_action.clone();
    let stop = Callback::from(move |_: MouseEvent| cb.emit(Action::CompareOff));
    let on_jump = {
        let cb = props.on_action.clone();
        Callback::from(move |t| cb.emit(Action::Seek(t)))
    };
    let primary_buggy = is_buggy(pg.scenario(), toggle_on);
    let values = |buggy: bool| {
        toggles_of(toggle_on)
            .map(|t| {
                let side = if buggy {
                    TOGGLES[t].values.0
                } else {
                    TOGGLES[t].values.1
                };
                let value = if buggy == primary_buggy {
                    toggle_value(pg.scenario(), t)
                } else {
                    side.to_string()
                };
                format!("{} = {value}", TOGGLES[t].key)
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let col = |which: &'static str,
               buggy: bool,
               hash: u64,
               strip: Rc<vm::MetricsStripVm>,
               expect: Rc<vm::ExpectationsVm>| {
        let label = if buggy { "buggy" } else { "fixed" };
        html! {
            <div class={ classes!("compare-col", label) } data-run={ which } data-side={ label }>
                <h4>{ format!("{label}: {}", values(buggy)) }</h4>
                <p class="hash">{ "trace hash " }<code data-hash={ which }>{ format_hash(hash) }</code></p>
                <MetricsStrip data={ strip } run={ which } />
                <ExpectationsPanel data={ expect } on_jump={ on_jump.clone() }
                                   title={ format!("Expectations ({label})") } />
            </div>
        }
    };
    let f = &pg.frame;
    html! {
        <section id="compare" class="panel compare on">
            <h3>{ format!("Compare: {} ({})", bug.issue, bug.symptom) }
                <button id="compare-off" onclick={ stop }>{ "Leave compare" }</button></h3>
            if f.trace_hash == twin.trace_hash && f.now_us > 0 {
                <p class="notice" id="compare-same" role="status">{ format!(
                    "Both runs are identical so far: this scenario does not exercise {} yet.", bug.issue) }</p>
            }
            <div class="compare-grid">
                { col("primary", primary_buggy, f.trace_hash, f.strip.clone(), f.expectations.clone()) }
                { col("twin", !primary_buggy, twin.trace_hash, twin.strip.clone(), twin.expectations.clone()) }
            </div>
            <p class="hint">{ "Each view below shows both runs side by side, buggy on the left." }</p>
        </section>
    }
}

/// `tiflow#9344 (cdc.processor_close_on_session_loss + cdc.capture_remove_delay)`.
fn option_label(bug: usize, issue: &str) -> String {
    let keys: Vec<&str> = toggles_of(bug).map(|t| TOGGLES[t].key).collect();
    format!("{issue} ({})", keys.join(" + "))
}
