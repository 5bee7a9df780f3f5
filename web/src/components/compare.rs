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
        return switch(toggle, &pick, &props.on_action);
    };
    let bug = &BUGS[toggle_on];
    let cb = props.on_action.clone();
    let stop = Callback::from(move |_: MouseEvent| cb.emit(Action::CompareOff));
    let on_jump = {
        let cb = props.on_action.clone();
        Callback::from(move |t| cb.emit(Action::Seek(t)))
    };
    let primary_buggy = is_buggy(pg.scenario(), toggle_on);
    let f = &pg.frame;
    let mut sides = [
        Side {
            which: "primary",
            buggy: primary_buggy,
            hash: f.trace_hash,
            strip: f.strip.clone(),
            expect: f.expectations.clone(),
        },
        Side {
            which: "twin",
            buggy: !primary_buggy,
            hash: twin.trace_hash,
            strip: twin.strip.clone(),
            expect: twin.expectations.clone(),
        },
    ];
    // Buggy on the left, as in every view below.
    sides.sort_by_key(|s| !s.buggy);
    let column = |s: Side| {
        let values = side_values(pg.scenario(), toggle_on, s.buggy == primary_buggy, s.buggy);
        side_column(s, values, &on_jump)
    };
    html! {
        <section id="compare" class="panel compare on">
            <h3>{ format!("Compare: {} ({})", bug.issue, bug.symptom) }
                <button id="compare-off" onclick={ stop }>{ "Leave compare" }</button></h3>
            if let Some(why) = bug.not_reproduced {
                <p class="notice" id="compare-not-reproduced" role="status">{ why }</p>
            } else if f.trace_hash == twin.trace_hash && f.now_us > 0 {
                <p class="notice" id="compare-same" role="status">{ same_run_notice(bug) }</p>
            }
            <div class="compare-grid">
                { for sides.into_iter().map(column) }
            </div>
            <p class="hint">{ "Each view below shows both runs side by side, buggy on the left." }</p>
        </section>
    }
}

/// What compare says while both runs are identical: this scenario has not reached the bug.
fn same_run_notice(bug: &crate::toggles::BugInfo) -> String {
    format!(
        "Both runs are identical so far: this scenario does not exercise {} yet.",
        bug.issue
    )
}

/// Compare mode off: which bug's toggles to flip, and the button that starts it.
fn switch(
    toggle: usize,
    pick: &UseStateHandle<Option<usize>>,
    on_action: &Callback<Action>,
) -> Html {
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
    let cb = on_action.clone();
    let start = Callback::from(move |_: MouseEvent| cb.emit(Action::CompareOn(toggle)));
    html! {
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
    }
}

/// One run of the pair, as its column shows it.
struct Side {
    /// `primary` (the scenario as opened) or `twin` (its toggles flipped).
    which: &'static str,
    buggy: bool,
    hash: u64,
    strip: Rc<vm::MetricsStripVm>,
    expect: Rc<vm::ExpectationsVm>,
}

/// `key = value, …` for the bug's toggles on one side: the scenario's own values on the
/// primary side, the flipped side's value on the twin.
fn side_values(
    scenario: &faultline_scenario::Scenario,
    bug: usize,
    primary: bool,
    buggy: bool,
) -> String {
    toggles_of(bug)
        .map(|t| {
            let value = if primary {
                toggle_value(scenario, t)
            } else if buggy {
                TOGGLES[t].values.0.to_string()
            } else {
                TOGGLES[t].values.1.to_string()
            };
            format!("{} = {value}", TOGGLES[t].key)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A run's column: its toggle values, trace hash, headline numbers and expectations.
fn side_column(s: Side, values: String, on_jump: &Callback<faultline_sim::SimTime>) -> Html {
    let label = if s.buggy { "buggy" } else { "fixed" };
    html! {
        <div class={ classes!("compare-col", label) } data-run={ s.which } data-side={ label }>
            <h4>{ format!("{label}: {values}") }</h4>
            <p class="hash">{ "trace hash " }<code data-hash={ s.which }>{ format_hash(s.hash) }</code></p>
            <MetricsStrip data={ s.strip } run={ s.which } />
            <ExpectationsPanel data={ s.expect } on_jump={ on_jump.clone() }
                               title={ format!("Expectations ({label})") } />
        </div>
    }
}

/// `tiflow#9344 (cdc.processor_close_on_session_loss + cdc.capture_remove_delay)`.
fn option_label(bug: usize, issue: &str) -> String {
    let keys: Vec<&str> = toggles_of(bug).map(|t| TOGGLES[t].key).collect();
    format!("{issue} ({})", keys.join(" + "))
}
