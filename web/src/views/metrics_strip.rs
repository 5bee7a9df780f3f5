//! The compact strip of headline numbers. Each value sits alone in an element with a stable
//! `data-metric="<name>"` attribute, so browser tests can read it.

use std::rc::Rc;

use yew::prelude::*;

use super::fmt;
use crate::view_model::metrics_strip::MetricsStripVm;

/// Props of [`MetricsStrip`].
#[derive(Properties, PartialEq)]
pub struct MetricsStripProps {
    /// From `view_model::metrics_strip(&run)`.
    pub data: Rc<MetricsStripVm>,
    /// Names the run in compare mode (`data-run`), e.g. `primary` / `twin`.
    #[prop_or_default]
    pub run: Option<AttrValue>,
}

/// The metrics strip.
#[function_component]
pub fn MetricsStrip(props: &MetricsStripProps) -> Html {
    html! {
        <dl class="view metrics-strip" data-run={ props.run.clone() }>
            { for props.data.items.iter().map(|i| html! {
                <div class={ classes!("metric", i.alert.then_some("alert")) }>
                    <dt>{ &i.caption }</dt>
                    <dd data-metric={ i.name.clone() } data-alert={ i.alert.to_string() }>
                        { fmt::opt_value(i.value) }
                    </dd>
                </div>
            }) }
        </dl>
    }
}
