//! The `[[expect]]` checks, evaluated live at the cursor: pass, fail or pending, with the
//! observed value.

use faultline_scenario::{ExpectResult, Verdict};
use yew::prelude::*;

/// Props of [`Expectations`].
#[derive(Properties, PartialEq, Clone)]
pub struct ExpectationsProps {
    /// `primary` or `twin`.
    pub which: AttrValue,
    /// A heading (e.g. "buggy" / "fixed" in compare mode).
    pub title: AttrValue,
    /// The results.
    pub results: Vec<ExpectResult>,
}

/// The expectations panel.
#[function_component]
pub fn Expectations(props: &ExpectationsProps) -> Html {
    if props.results.is_empty() {
        return html! {};
    }
    let id = (props.which.as_str() == "primary").then_some("expectations");
    html! {
        <section class="expectations panel" id={ id } data-run={ props.which.clone() }>
            <h3>{ props.title.clone() }</h3>
            <ul>
                { for props.results.iter().map(|r| {
                    let mark = match r.verdict {
                        Verdict::Pass => "pass",
                        Verdict::Fail => "fail",
                        _ => "pending",
                    };
                    let observed = r.observed.map(|v| format!(" (observed {v})")).unwrap_or_default();
                    html! {
                        <li class={ mark } data-verdict={ mark }>
                            <strong>{ mark }</strong>{ " " }{ &r.name }{ ": " }
                            <code>{ &r.check }</code>{ observed }
                        </li>
                    }
                }) }
            </ul>
        </section>
    }
}
