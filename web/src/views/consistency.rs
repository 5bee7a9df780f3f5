//! The consistency check as a table of differing rows: upstream (ground truth) against
//! downstream MySQL, value and version, per changefeed.

use std::rc::Rc;

use faultline_sim::SimTime;
use yew::prelude::*;

use super::fmt;
use crate::view_model::consistency::{ConsistencyVm, FeedConsistency, Version};

/// Props of [`ConsistencyTable`].
#[derive(Properties, PartialEq)]
pub struct ConsistencyTableProps {
    /// From `view_model::consistency(&run)`.
    pub data: Rc<ConsistencyVm>,
    /// A row's double-write link was clicked: jump there.
    #[prop_or_default]
    pub on_jump: Callback<SimTime>,
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
            { for props.data.feeds.iter().map(|f| feed(f, &props.on_jump)) }
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

/// The double-write link of a row: the moment its table began to have two writers.
fn double_write(at: Option<u64>, on_jump: &Callback<SimTime>) -> Html {
    let Some(us) = at else {
        return html! { <td class="note">{ "–" }</td> };
    };
    let onclick = {
        let cb = on_jump.clone();
        Callback::from(move |_: MouseEvent| cb.emit(SimTime(us)))
    };
    html! {
        <td><button class="link jump" data-double-write-at={ us.to_string() } { onclick }
                    title="jump to when a second capture began writing this table">
            { fmt::at(us) }
        </button></td>
    }
}

fn feed(f: &FeedConsistency, on_jump: &Callback<SimTime>) -> Html {
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
                            <th colspan="2">{ "upstream" }</th><th colspan="2">{ "downstream" }</th>
                            <th rowspan="2">{ "double write from" }</th></tr>
                        <tr><th>{ "value" }</th><th>{ "version" }</th><th>{ "value" }</th><th>{ "version" }</th></tr>
                    </thead>
                    <tbody>
                        { for f.rows.iter().map(|d| html! {
                            <tr data-table={ d.table.to_string() } data-row={ d.row.to_string() }>
                                <td>{ format!("t{}", d.table) }</td><td>{ d.row }</td>
                                { version(&d.upstream) }{ version(&d.downstream) }
                                { double_write(d.double_write_at_us, on_jump) }
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
