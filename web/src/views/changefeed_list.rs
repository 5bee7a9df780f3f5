//! The changefeed list, as `cdc cli changefeed list` shows it (id, state, checkpoint, lag,
//! error), plus the owner-side sink state the list hides but issue 7 is about.

use std::rc::Rc;

use yew::prelude::*;

use super::fmt;
use crate::view_model::lanes::ChangefeedListVm;

/// Props of [`ChangefeedList`].
#[derive(Properties, PartialEq)]
pub struct ChangefeedListProps {
    /// From `view_model::lanes::changefeed_list(&run)`.
    pub data: Rc<ChangefeedListVm>,
}

/// The changefeed list at the cursor.
#[function_component]
pub fn ChangefeedList(props: &ChangefeedListProps) -> Html {
    if props.data.rows.is_empty() {
        return html! {
            <section class="view changefeed-list empty"><p>{ "No changefeeds in this run." }</p></section>
        };
    }
    html! {
        <section class="view changefeed-list">
            <h3><code>{ "cdc cli changefeed list" }</code></h3>
            <table>
                <thead>
                    <tr><th>{ "id" }</th><th>{ "sink" }</th><th>{ "state" }</th><th>{ "sink state" }</th>
                        <th>{ "checkpoint" }</th><th>{ "checkpoint lag" }</th><th>{ "error" }</th></tr>
                </thead>
                <tbody>
                    { for props.data.rows.iter().map(|r| html! {
                        <tr data-changefeed={ r.id.clone() } data-state={ r.state.clone() } data-sink={ r.sink.clone() }>
                            <td>{ &r.id }</td>
                            <td>{ &r.sink_type }</td>
                            <td class={ format!("feed-state state-{}", r.state) }>{ &r.state }</td>
                            <td class={ format!("state-{}", r.sink) }>{ &r.sink }</td>
                            <td>{ format!("{:.1} s", r.checkpoint_secs) }</td>
                            <td data-lag={ fmt::value(r.checkpoint_lag_secs) }>{ format!("{} s", fmt::value(r.checkpoint_lag_secs)) }</td>
                            <td class="error">{ r.error.clone().unwrap_or_default() }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
        </section>
    }
}
