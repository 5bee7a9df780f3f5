//! Each `[[expect]]` live at the cursor (pass, fail or pending, with the observed value), and
//! the first invariant violation with a link to jump to it.

use std::rc::Rc;

use faultline_sim::SimTime;
use yew::prelude::*;

use super::fmt;
use crate::view_model::expectations::ExpectationsVm;

/// Props of [`ExpectationsPanel`].
#[derive(Properties, PartialEq)]
pub struct ExpectationsPanelProps {
    /// From `view_model::expectations(&run)`.
    pub data: Rc<ExpectationsVm>,
    /// "Jump to the moment" of the violation.
    pub on_jump: Callback<SimTime>,
    /// Heading (e.g. "buggy" / "fixed" in compare mode).
    #[prop_or(AttrValue::Static("Expectations"))]
    pub title: AttrValue,
}

/// The expectations panel.
#[function_component]
pub fn ExpectationsPanel(props: &ExpectationsPanelProps) -> Html {
    let d = &props.data;
    html! {
        <section class="view expectations-panel">
            <h3>{ props.title.clone() }</h3>
            if let Some(v) = &d.violation {
                <p class="violation" role="alert" data-violation-at={ v.at_us.to_string() }>
                    <strong>{ "invariant violated" }</strong>{ format!(" at {}: {} ", fmt::at(v.at_us), v.message) }
                    <button class="jump" onclick={ props.on_jump.reform({ let t = v.at_us; move |_| SimTime(t) }) }>
                        { "jump to the moment" }
                    </button>
                </p>
            }
            if d.rows.is_empty() {
                <p class="note">{ "This scenario has no expectations." }</p>
            }
            <ul>
                { for d.rows.iter().map(|r| html! {
                    <li class={ r.verdict.clone() } data-expect-index={ r.index.to_string() }
                        data-verdict={ r.verdict.clone() }>
                        <span class="verdict">{ &r.verdict }</span>{ " " }
                        <span class="name">{ &r.name }</span>
                        <code class="check">{ &r.check }</code>
                        <span class="observed" data-observed={ r.observed.map(|v| v.to_string()) }>
                            { format!("observed {}", fmt::opt_value(r.observed)) }
                        </span>
                    </li>
                }) }
            </ul>
        </section>
    }
}
