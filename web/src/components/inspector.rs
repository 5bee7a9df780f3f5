//! The inspector: the scenario's parameters and behaviour toggles. A change commits on
//! blur/enter; the run rebuilds from t = 0 and returns to the cursor. An invalid value keeps
//! the last good run and shows the validator's message next to its field.

use std::rc::Rc;

use faultline_scenario::{parse_duration_arg, Dur, Problem, Scenario};
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::changefeed_editor::changefeeds_fieldset;
use super::field_problems::problems_for;
use super::PanelProps;
use crate::playground::Action;
use crate::toggles::{
    issue_url, set_toggle_buggy, set_toggle_fixed_as, toggle_is_buggy, toggle_value, BUGS, TOGGLES,
};

type Setter<T> = fn(&mut Scenario, T);

fn input_text(e: &Event) -> Option<String> {
    e.target_dyn_into::<HtmlInputElement>().map(|i| i.value())
}

fn num_field(
    label: &str,
    field: &'static str,
    value: u64,
    set: Setter<u64>,
    on_action: &Callback<Action>,
    problems: &[Problem],
) -> Html {
    let cb = on_action.clone();
    let onchange = Callback::from(move |e: Event| {
        let Some(text) = input_text(&e) else { return };
        match text.trim().parse::<u64>() {
            Ok(v) => cb.emit(Action::Edit(Rc::new(move |s| set(s, v)))),
            Err(_) => cb.emit(Action::Notice(format!(
                "`{field}`: `{text}` is not a whole number"
            ))),
        }
    });
    html! {
        <label class="field">
            <span>{ label }</span>
            <input type="number" min="0" data-field={ field } value={ value.to_string() } {onchange} />
            { problems_for(problems, field) }
        </label>
    }
}

fn dur_field(
    label: &str,
    field: &'static str,
    value: Dur,
    set: Setter<Dur>,
    on_action: &Callback<Action>,
    problems: &[Problem],
) -> Html {
    let cb = on_action.clone();
    let onchange = Callback::from(move |e: Event| {
        let Some(text) = input_text(&e) else { return };
        match parse_duration_arg(text.trim()) {
            Ok(v) => cb.emit(Action::Edit(Rc::new(move |s| set(s, v)))),
            Err(err) => cb.emit(Action::Notice(format!("`{field}`: {err}"))),
        }
    });
    html! {
        <label class="field">
            <span>{ label }</span>
            <input type="text" size="6" data-field={ field } value={ value.to_string() } {onchange} />
            { problems_for(problems, field) }
        </label>
    }
}

fn bool_field(
    label: &str,
    field: &'static str,
    value: bool,
    set: Setter<bool>,
    on_action: &Callback<Action>,
) -> Html {
    let cb = on_action.clone();
    let onchange = Callback::from(move |e: Event| {
        if let Some(i) = e.target_dyn_into::<HtmlInputElement>() {
            let v = i.checked();
            cb.emit(Action::Edit(Rc::new(move |s| set(s, v))));
        }
    });
    html! {
        <label class="field check">
            <input type="checkbox" data-field={ field } checked={ value } {onchange} />
            <span>{ label }</span>
        </label>
    }
}

/// The inspector.
#[function_component]
pub fn Inspector(props: &PanelProps) -> Html {
    let pg = props.state.pg.borrow();
    let s = &pg.draft;
    let p = &pg.problems;
    let a = &props.on_action;
    let discard = {
        let cb = a.clone();
        Callback::from(move |_: MouseEvent| cb.emit(Action::DiscardDraft))
    };
    html! {
        <section class="panel inspector" id="inspector">
            <h3>{ "Parameters" }</h3>
            if !p.is_empty() {
                <div class="field-error" role="alert" id="edit-problems">
                    { "This edit is not valid; the run keeps the last valid scenario. " }
                    { for p.iter().filter(|x| x.field.is_empty()).map(|x| html! { <span>{ &x.message }</span> }) }
                    <button onclick={ discard }>{ "Discard the edit" }</button>
                </div>
            }
            <fieldset><legend>{ "Run" }</legend>
                { num_field("seed", "seed", s.seed, |s, v| s.seed = v, a, p) }
                { dur_field("duration", "duration", s.duration, |s, v| s.duration = v, a, p) }
            </fieldset>
            <fieldset><legend>{ "Topology" }</legend>
                { num_field("stores", "topology.stores", s.topology.stores.into(), |s, v| s.topology.stores = v.min(u32::MAX as u64) as u32, a, p) }
                { num_field("regions", "topology.regions", s.topology.regions.into(), |s, v| s.topology.regions = v.min(u32::MAX as u64) as u32, a, p) }
                { num_field("replicas", "topology.replicas", s.topology.replicas.into(), |s, v| s.topology.replicas = v.min(u32::MAX as u64) as u32, a, p) }
                { num_field("TiCDC captures", "topology.captures", s.topology.captures.into(), |s, v| s.topology.captures = v.min(u32::MAX as u64) as u32, a, p) }
            </fieldset>
            <fieldset><legend>{ "Raft" }</legend>
                { dur_field("base tick", "raft.base_tick", s.raft.base_tick, |s, v| s.raft.base_tick = v, a, p) }
                { num_field("heartbeat ticks", "raft.heartbeat_ticks", s.raft.heartbeat_ticks.into(), |s, v| s.raft.heartbeat_ticks = v.min(u32::MAX as u64) as u32, a, p) }
                { num_field("election ticks", "raft.election_ticks", s.raft.election_ticks.into(), |s, v| s.raft.election_ticks = v.min(u32::MAX as u64) as u32, a, p) }
                { bool_field("pre-vote", "raft.prevote", s.raft.prevote, |s, v| s.raft.prevote = v, a) }
                { bool_field("check-quorum", "raft.check_quorum", s.raft.check_quorum, |s, v| s.raft.check_quorum = v, a) }
            </fieldset>
            <fieldset><legend>{ "Hibernate regions" }</legend>
                { bool_field("enabled", "hibernate.enabled", s.hibernate.enabled, |s, v| s.hibernate.enabled = v, a) }
                { dur_field("stale-state check", "hibernate.peer_stale_state_check_interval", s.hibernate.peer_stale_state_check_interval, |s, v| s.hibernate.peer_stale_state_check_interval = v, a, p) }
                { dur_field("unreachable backoff", "hibernate.unreachable_backoff", s.hibernate.unreachable_backoff, |s, v| s.hibernate.unreachable_backoff = v, a, p) }
            </fieldset>
            <fieldset><legend>{ "PD" }</legend>
                { bool_field("leader balance", "pd.leader_balance", s.pd.leader_balance, |s, v| s.pd.leader_balance = v, a) }
                { dur_field("max peer down", "pd.max_peer_down_duration", s.pd.max_peer_down_duration, |s, v| s.pd.max_peer_down_duration = v, a, p) }
            </fieldset>
            <fieldset><legend>{ "Workload" }</legend>
                { num_field("raw writes/s", "workload.writes_per_sec", s.workload.writes_per_sec.into(), |s, v| s.workload.writes_per_sec = v.min(u32::MAX as u64) as u32, a, p) }
                { num_field("transactions/s", "workload.txns_per_sec", s.workload.txns_per_sec.into(), |s, v| s.workload.txns_per_sec = v.min(u32::MAX as u64) as u32, a, p) }
                { num_field("tables", "workload.tables", s.workload.tables.into(), |s, v| s.workload.tables = v.min(u32::MAX as u64) as u32, a, p) }
            </fieldset>
            { changefeeds_fieldset(s, num_field("Kafka brokers", "topology.kafka_brokers", s.topology.kafka_brokers.into(), |s, v| s.topology.kafka_brokers = v.min(u32::MAX as u64) as u32, a, p), a, p) }
            { toggles_fieldset(s, a, p) }
        </section>
    }
}

/// Every `[toggles]` key, grouped under the bug it belongs to, each with both behaviours.
fn toggles_fieldset(s: &Scenario, a: &Callback<Action>, p: &[Problem]) -> Html {
    html! {
        <fieldset class="toggles"><legend>{ "Modelled behaviour (bug toggles)" }</legend>
            { for BUGS.iter().enumerate().map(|(b, bug)| html! {
                <div class="bug" data-bug={ bug.issue }>
                    <h4><a href={ issue_url(bug.issue).unwrap_or_default() } target="_blank" rel="noopener">{ bug.issue }</a>
                        { format!(": {}", bug.symptom) }</h4>
                    { for (0..TOGGLES.len()).filter(|&t| TOGGLES[t].bug == b).map(|t| toggle_row(s, t, a, p)) }
                </div>
            }) }
        </fieldset>
    }
}

/// A choice between a toggle's fixed values (the shipped fix and the alternatives upstream
/// designed), each with its sentence.
fn fixed_choice(s: &Scenario, t: usize, a: &Callback<Action>) -> Html {
    let info = &TOGGLES[t];
    let current = toggle_value(s, t);
    let cb = a.clone();
    let onchange = Callback::from(move |e: Event| {
        let Some(select) = e.target_dyn_into::<web_sys::HtmlSelectElement>() else {
            return;
        };
        let value = select.value();
        cb.emit(Action::Edit(Rc::new(move |s| {
            set_toggle_fixed_as(s, t, &value);
        })))
    });
    let id = format!("fixed-{}", info.key);
    let options =
        std::iter::once((info.values.1, info.fixed)).chain(info.other_fixed.iter().copied());
    html! {
        <div class="field">
            <label for={ id.clone() }>{ "fixed as" }</label>
            <select id={ id } {onchange}>
                { for options.map(|(v, why)| html! {
                    <option value={ v } selected={ current == v } title={ why }>{ v }</option>
                }) }
            </select>
            { for info.other_fixed.iter().filter(|(v, _)| current == *v).map(|(_, why)| html! { <p class="active">{ *why }</p> }) }
        </div>
    }
}

fn toggle_row(s: &Scenario, t: usize, a: &Callback<Action>, p: &[Problem]) -> Html {
    let info = &TOGGLES[t];
    let buggy = toggle_is_buggy(s, t);
    let cb = a.clone();
    let onchange = Callback::from(move |_: Event| {
        cb.emit(Action::Edit(Rc::new(move |s| {
            set_toggle_buggy(s, t, !buggy)
        })))
    });
    let field = format!("toggles.{}", info.key);
    html! {
        <div class={ classes!("toggle", buggy.then_some("buggy")) } data-toggle={ info.key }>
            <label class="field check">
                <input type="checkbox" checked={ buggy } {onchange} />
                <span><code>{ info.key }</code>{ format!(" = {} ({})", toggle_value(s, t), if buggy { "buggy" } else { "fixed" }) }</span>
            </label>
            if !buggy && !info.other_fixed.is_empty() {
                { fixed_choice(s, t, a) }
            }
            if info.key == "cdc.capture_remove_delay" {
                { dur_field("remove delay", "toggles.cdc.capture_remove_delay", s.toggles.cdc_capture_remove_delay.0, |s, v| s.toggles.cdc_capture_remove_delay = faultline_scenario::CaptureRemoveDelay(v), a, p) }
            }
            { problems_for(p, &field) }
            <p class={ classes!(buggy.then_some("active")) }><strong>{ "Buggy: " }</strong>{ info.buggy }</p>
            <p class={ classes!((!buggy).then_some("active")) }><strong>{ "Fixed: " }</strong>{ info.fixed }</p>
        </div>
    }
}
