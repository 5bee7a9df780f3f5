//! The error box: what went wrong with a link or an import, and what to open instead.

use yew::prelude::*;

use super::PanelProps;
use crate::playground::Action;

/// The error box (nothing when there is no error).
#[function_component]
pub fn LinkError(props: &PanelProps) -> Html {
    let pg = props.state.pg.borrow();
    let Some(e) = &pg.error else {
        return html! {};
    };
    let send = |a: Action| {
        let cb = props.on_action.clone();
        Callback::from(move |_: MouseEvent| cb.emit(a.clone()))
    };
    let open_default = {
        let cb = props.on_action.clone();
        Callback::from(move |_: MouseEvent| {
            cb.emit(Action::Open {
                scenario: Box::new(crate::gallery::default_scenario()),
                file: Some(crate::gallery::DEFAULT_SCENARIO_FILE),
            });
            cb.emit(Action::DismissError);
        })
    };
    html! {
        <div class="error-box" role="alert">
            <p id="error" class="error">{ e }</p>
            <div class="row">
                if pg.autosaved.is_some() {
                    <button id="open-autosave" class="primary" onclick={ send(Action::OpenAutosave) }>
                        { "Open my last autosaved scenario" }
                    </button>
                }
                <button id="open-default" onclick={ open_default }>{ "Open the default scenario" }</button>
                <button onclick={ send(Action::DismissError) }>{ "Dismiss" }</button>
            </div>
        </div>
    }
}
