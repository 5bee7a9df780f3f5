//! The fault palette: pick a fault and a target, apply it now (at the cursor) or schedule it
//! at a time with a duration; edit or delete the fault selected on the timeline.

use faultline_scenario::{parse_duration_arg, FaultAction, FaultSpec};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::PanelProps;
use crate::playground::Action;

fn select_value(e: &Event) -> Option<String> {
    e.target_dyn_into::<HtmlSelectElement>().map(|s| s.value())
}

fn input_value(e: &InputEvent) -> Option<String> {
    e.target_dyn_into::<HtmlInputElement>().map(|s| s.value())
}

/// A text field bound to a `UseStateHandle<String>`.
fn text_field(
    id: &'static str,
    label: &'static str,
    value: &UseStateHandle<String>,
    hint: &'static str,
) -> Html {
    let v = value.clone();
    let on_input = Callback::from(move |e: InputEvent| {
        if let Some(s) = input_value(&e) {
            v.set(s);
        }
    });
    html! {
        <label>{ label }
            <input id={ id } type="text" size="7" placeholder={ hint } value={ (**value).clone() } oninput={ on_input } />
        </label>
    }
}

/// The palette.
#[function_component]
pub fn FaultPalette(props: &PanelProps) -> Html {
    let pg = props.state.pg.borrow();
    let action = use_state(|| FaultAction::Kill);
    let target = use_state(|| "tikv-1".to_string());
    let at = use_state(String::new);
    let duration = use_state(String::new);
    let peers = use_state(String::new);
    let error = use_state(|| None::<String>);

    let names: Vec<String> = pg.frame.nodes.iter().map(|n| n.name.clone()).collect();
    let on_action_pick = {
        let action = action.clone();
        Callback::from(move |e: Event| {
            if let Some(a) =
                select_value(&e).and_then(|v| FaultAction::ALL.into_iter().find(|a| a.name() == v))
            {
                action.set(a);
            }
        })
    };
    let on_target = {
        let target = target.clone();
        Callback::from(move |e: Event| {
            if let Some(v) = select_value(&e) {
                target.set(v);
            }
        })
    };
    // Builds the fault from the fields; `now` overrides `at` with the cursor.
    let build = {
        let (action, target, at, duration, peers) = (
            action.clone(),
            target.clone(),
            at.clone(),
            duration.clone(),
            peers.clone(),
        );
        let base = pg.fault_now(*action, &target);
        move |now: bool| -> Result<FaultSpec, String> {
            let mut f = base.clone();
            f.action = *action;
            f.target = (*target).clone();
            f.loss_percent = (*action == FaultAction::Loss).then_some(30);
            f.delay =
                (*action == FaultAction::Delay).then_some(faultline_scenario::Dur::millis(200));
            if !now {
                f.at = parse_duration_arg(at.trim()).map_err(|e| format!("at: {e}"))?;
            }
            if !duration.trim().is_empty() {
                f.duration = Some(
                    parse_duration_arg(duration.trim()).map_err(|e| format!("duration: {e}"))?,
                );
            }
            if !peers.trim().is_empty() {
                f.peers = Some(peers.trim().to_string());
            }
            Ok(f)
        }
    };
    let submit = |now: bool| {
        let cb = props.on_action.clone();
        let build = build.clone();
        let error = error.clone();
        Callback::from(move |_: MouseEvent| match build(now) {
            Ok(f) => {
                error.set(None);
                cb.emit(Action::AddFault(f));
            }
            Err(e) => error.set(Some(e)),
        })
    };
    // Keyed by the fault's fields so its editor resets when the fault changes.
    let selected = pg.selected_fault.and_then(|i| {
        pg.scenario()
            .faults
            .get(i)
            .cloned()
            .map(|f| (i, format!("{i}-{}-{:?}-{}", f.at, f.duration, f.target), f))
    });
    html! {
        <section class="panel fault-palette" aria-label="fault palette">
            <h3>{ "Faults" }</h3>
            <div class="row">
                <select id="fault-action" aria-label="fault" onchange={ on_action_pick }>
                    { for FaultAction::ALL.iter().map(|a| html! {
                        <option value={ a.name() } selected={ *a == *action }>{ a.name() }</option>
                    }) }
                </select>
                <select id="fault-target" aria-label="target" onchange={ on_target }>
                    { for names.iter().map(|n| html! {
                        <option value={ n.clone() } selected={ *n == *target }>{ n }</option>
                    }) }
                    <option value="tikv-*" selected={ *target == "tikv-*" }>{ "tikv-* (every store)" }</option>
                </select>
                { text_field("fault-peers", "peers", &peers, "all others") }
                { text_field("fault-duration", "for", &duration, "e.g. 30s") }
                <button id="fault-apply-now" class="primary" onclick={ submit(true) }>{ "Apply now" }</button>
                { text_field("fault-at", "at", &at, "e.g. 2m") }
                <button id="fault-schedule" onclick={ submit(false) }>{ "Schedule" }</button>
            </div>
            if let Some(e) = &*error {
                <p class="field-error" role="alert">{ e }</p>
            }
            if let Some((i, key, f)) = selected {
                <SelectedFault { key } index={ i } fault={ f } on_action={ props.on_action.clone() } />
            }
        </section>
    }
}

/// Props of [`SelectedFault`].
#[derive(Properties, PartialEq, Clone)]
pub struct SelectedFaultProps {
    /// Index in the scenario's faults.
    pub index: usize,
    /// The fault.
    pub fault: FaultSpec,
    /// Where actions go.
    pub on_action: Callback<Action>,
}

/// Editor of the selected fault: move it in time, change its duration, delete it.
#[function_component]
pub fn SelectedFault(props: &SelectedFaultProps) -> Html {
    let at = use_state(|| props.fault.at.to_string());
    let duration = use_state(|| {
        props
            .fault
            .duration
            .map(|d| d.to_string())
            .unwrap_or_default()
    });
    let error = use_state(|| None::<String>);
    let i = props.index;
    let save = {
        let (at, duration, error, cb, f) = (
            at.clone(),
            duration.clone(),
            error.clone(),
            props.on_action.clone(),
            props.fault.clone(),
        );
        Callback::from(move |_: MouseEvent| {
            let mut f = f.clone();
            let parsed = parse_duration_arg(at.trim())
                .map_err(|e| format!("at: {e}"))
                .and_then(|a| {
                    f.at = a;
                    f.duration = if duration.trim().is_empty() {
                        None
                    } else {
                        Some(
                            parse_duration_arg(duration.trim())
                                .map_err(|e| format!("duration: {e}"))?,
                        )
                    };
                    Ok(())
                });
            match parsed {
                Ok(()) => cb.emit(Action::UpdateFault(i, f)),
                Err(e) => error.set(Some(e)),
            }
        })
    };
    let delete = {
        let cb = props.on_action.clone();
        Callback::from(move |_: MouseEvent| cb.emit(Action::RemoveFault(i)))
    };
    let close = {
        let cb = props.on_action.clone();
        Callback::from(move |_: MouseEvent| cb.emit(Action::SelectFault(None)))
    };
    html! {
        <div class="selected-fault row" id="selected-fault">
            <strong>{ format!("#{} {} {}", i + 1, props.fault.action.name(), props.fault.target) }</strong>
            { text_field("selected-fault-at", "at", &at, "") }
            { text_field("selected-fault-duration", "for", &duration, "none") }
            <button id="selected-fault-save" onclick={ save }>{ "Save" }</button>
            <button id="selected-fault-delete" class="danger" onclick={ delete }>{ "Delete" }</button>
            <button onclick={ close }>{ "Close" }</button>
            if let Some(e) = &*error {
                <p class="field-error" role="alert">{ e }</p>
            }
        </div>
    }
}
