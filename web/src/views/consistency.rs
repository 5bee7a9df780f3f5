//! The consistency check as a table of differing rows: upstream (ground truth) against
//! downstream MySQL, value and version, per changefeed.

use std::rc::Rc;

use yew::prelude::*;

use super::fmt;
use crate::view_model::consistency::{ConsistencyVm, FeedConsistency, Version};

/// Props of [`ConsistencyTable`].
#[derive(Properties, PartialEq)]
pub struct ConsistencyTableProps {
    /// From `view_model::consistency(&run)`.
    pub data: Rc<ConsistencyVm>,
}

/// The consistency view.
#[function_component]
pub fn ConsistencyTable(props: &ConsistencyTableProps) -> Html {
    if props.data.feeds.is_empty() {
        return html! {
            <section class="view consistency empty"><p>{ "No changefeeds in this run." }</p></section>
        };
    }
    html! {
        <section class="view consistency">
            { for props.data.feeds.iter().map(feed) }
        </section>
    }
}

fn version(v: &Version) -> Html {
    html! {
        <>
            <td>{ v.value }</td>
            <td title={ format!("commit ts {}", v.commit_ts) }>
                { if v.commit_ts == 0 { "initial".to_string() } else { fmt::at(v.commit_at_us) } }
            </td>
        </>
    }
}

fn feed(f: &FeedConsistency) -> Html {
    let verdict = if f.differing == 0 {
        "consistent"
    } else {
        "differs"
    };
    html! {
        <div class="feed" data-changefeed={ f.id.clone() } data-differing={ f.differing.to_string() }
             data-consistency={ verdict }>
            <h3>{ format!("{}: {} of {} checked rows differ", f.id, f.differing, f.checked) }</h3>
            if !f.rows.is_empty() {
                <table>
                    <thead>
                        <tr><th rowspan="2">{ "table" }</th><th rowspan="2">{ "row" }</th>
                            <th colspan="2">{ "upstream" }</th><th colspan="2">{ "downstream" }</th></tr>
                        <tr><th>{ "value" }</th><th>{ "version" }</th><th>{ "value" }</th><th>{ "version" }</th></tr>
                    </thead>
                    <tbody>
                        { for f.rows.iter().map(|d| html! {
                            <tr data-table={ d.table.to_string() } data-row={ d.row.to_string() }>
                                <td>{ format!("t{}", d.table) }</td><td>{ d.row }</td>
                                { version(&d.upstream) }{ version(&d.downstream) }
                            </tr>
                        }) }
                    </tbody>
                </table>
                if (f.rows.len() as u64) < f.differing {
                    <p class="note">{ format!("first {} shown", f.rows.len()) }</p>
                }
            }
        </div>
    }
}
