//! Watermark blame (tiflow#9595): per changefeed, the tables holding the minimum checkpoint
//! and resolved ts, the region holding each table's minimum, its leader store, and why.

use std::rc::Rc;

use yew::prelude::*;

use super::fmt;
use super::glossary::explain;
use crate::view_model::blame::{BlameVm, FeedBlame, Reason, TableBlame};

/// Props of [`WatermarkBlame`].
#[derive(Properties, PartialEq)]
pub struct WatermarkBlameProps {
    /// From `view_model::blame(&run)`.
    pub data: Rc<BlameVm>,
    /// A region id was clicked (show it in the region detail panel).
    #[prop_or_default]
    pub on_select_region: Callback<u32>,
}

/// The blame view.
#[function_component]
pub fn WatermarkBlame(props: &WatermarkBlameProps) -> Html {
    if props.data.feeds.is_empty() {
        return html! {
            <section class="view blame empty"><p>{ "No changefeeds in this run." }</p></section>
        };
    }
    html! {
        <section class="view blame">
            { for props.data.feeds.iter().map(|f| feed(f, &props.on_select_region)) }
        </section>
    }
}

fn feed(f: &FeedBlame, on_select: &Callback<u32>) -> Html {
    html! {
        <div class="feed" data-changefeed={ f.id.clone() }>
            <h3>
                { format!("{}: checkpoint lag {} s, resolved-ts lag {} s",
                    f.id, fmt::value(f.checkpoint_lag_secs), fmt::value(f.resolved_lag_secs)) }
            </h3>
            <table>
                <thead><tr>
                    <th>{ "table" }</th><th>{ "capture" }</th><th title={ explain("checkpoint lag") }>{ "checkpoint lag" }</th>
                    <th title={ explain("resolved lag") }>{ "resolved lag" }</th><th>{ "slowest region" }</th><th>{ "leader" }</th>
                    <th>{ "subscription" }</th><th>{ "why" }</th>
                </tr></thead>
                <tbody>{ for f.tables.iter().map(|t| table(t, on_select)) }</tbody>
            </table>
        </div>
    }
}

fn table(t: &TableBlame, on_select: &Callback<u32>) -> Html {
    let r = &t.region;
    let holds: Vec<&str> = [
        t.holds_checkpoint.then_some("min checkpoint"),
        t.holds_resolved.then_some("min resolved"),
    ]
    .into_iter()
    .flatten()
    .collect();
    let reasons: Vec<&Reason> = r.reasons.iter().chain(&t.reasons).collect();
    let region_id = r.region;
    html! {
        <tr data-table={ t.table.to_string() } data-holds-checkpoint={ t.holds_checkpoint.to_string() }
            class={ classes!(t.holds_checkpoint.then_some("holder")) }>
            <td>
                { format!("t{}", t.table) }
                if !holds.is_empty() { <span class="holds">{ format!(" ({})", holds.join(", ")) }</span> }
            </td>
            <td>{ &t.capture }</td>
            <td>{ format!("{} s", fmt::value(t.checkpoint_lag_secs)) }</td>
            <td>{ format!("{} s", fmt::value(t.resolved_lag_secs)) }</td>
            <td>
                <button class="link" data-region={ region_id.to_string() }
                        onclick={ on_select.reform(move |_| region_id) }>
                    { format!("region {region_id}") }
                </button>
                { format!(" ({} s)", fmt::value(r.resolved_lag_secs)) }
            </td>
            <td>{ r.leader_store.clone().unwrap_or_else(|| "none".into()) }</td>
            <td>{ &r.owner }</td>
            <td>
                if reasons.is_empty() { <span class="ok">{ "nothing holds it back" }</span> }
                <ul class="reasons">
                    { for reasons.iter().map(|x| html! {
                        <li data-reason={ x.code() }>{ x.explain() }</li>
                    }) }
                </ul>
            </td>
        </tr>
    }
}
