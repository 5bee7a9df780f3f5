//! A form field's validation messages, shown under the field. A leaf the editors share (the
//! inspector and the changefeed editor), so neither imports the other for it.

use faultline_scenario::Problem;
use yew::prelude::*;

/// Messages for `field` (and its sub-fields).
pub(crate) fn problems_for(problems: &[Problem], field: &str) -> Html {
    html! {
        { for problems.iter().filter(|p| p.field == field || p.field.starts_with(&format!("{field}.")) || p.field.starts_with(&format!("{field}["))).map(|p| html! {
            <span class="field-error" data-field={ p.field.clone() }>{ &p.message }</span>
        }) }
    }
}
