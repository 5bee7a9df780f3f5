//! The selected region: its peers, roles, terms and hibernate GroupState.

use yew::prelude::*;

use super::glossary::explain;
use crate::view_model::region_detail::RegionDetailVm;

/// Props of [`RegionDetailPanel`].
#[derive(Properties, PartialEq)]
pub struct RegionDetailProps {
    /// From `view_model::region_detail(&run, selected)`; `None` shows a hint.
    pub detail: Option<RegionDetailVm>,
}

/// The region detail panel.
#[function_component]
pub fn RegionDetailPanel(props: &RegionDetailProps) -> Html {
    let Some(d) = &props.detail else {
        return html! {
            <section class="view region-detail empty">
                <p>{ "Select a region on the map." }</p>
            </section>
        };
    };
    if let Some(target) = d.merged_into {
        // A merged-away region has no peers and no keys: only what became of it.
        return html! {
            <section class="view region-detail" data-region={ d.id.to_string() }
                     data-leaderless="false" data-merged-into={ target.to_string() }>
                <h3>{ format!("Region {}", d.id) }</h3>
                <p>
                    { format!("Merged into region {target}: its keys are region {target}'s now and its peers were destroyed. ") }
                    <span title="conf_ver counts membership changes, version counts splits and merges">
                        { format!("Last epoch {}/{}.", d.epoch.0, d.epoch.1) }
                    </span>
                </p>
            </section>
        };
    }
    let leader = match (&d.leader_store, d.leaderless_secs) {
        (Some(s), _) => format!("leader on {s}"),
        (None, Some(secs)) => format!("leaderless for {secs} s"),
        (None, None) => "no leader".to_string(),
    };
    html! {
        <section class="view region-detail" data-region={ d.id.to_string() }
                 data-leaderless={ d.leaderless_secs.is_some().to_string() }>
            <h3>{ format!("Region {}", d.id) }</h3>
            <p>
                { format!("{} · ", d.place.describe()) }
                if let Some(parent) = d.split_from {
                    { format!("split from region {parent} · ") }
                }
                <span title="conf_ver counts membership changes, version counts splits and merges">
                    { format!("epoch {}/{} · ", d.epoch.0, d.epoch.1) }
                </span>
                <strong class={ classes!(d.leader_store.is_none().then_some("bad")) }>{ leader }</strong>
                if d.hibernated { { " · hibernated" } }
            </p>
            <table>
                <thead><tr>
                    <th>{ "store" }</th><th>{ "role" }</th><th>{ "term" }</th>
                    <th title={ explain("GroupState") }>{ "GroupState" }</th><th>{ "ticking" }</th>
                    <th>{ "last index" }</th><th>{ "commit" }</th>
                </tr></thead>
                <tbody>
                    { for d.peers.iter().map(|p| html! {
                        <tr class={ classes!((!p.store_live).then_some("down")) }
                            data-store={ p.store.clone() } data-group-state={ p.group_state.clone() }>
                            <td>{ &p.store }{ if p.store_live { "" } else { " (down)" } }</td>
                            <td>{ &p.role }</td>
                            <td>{ p.term }</td>
                            <td title={ explain(&p.group_state) }>{ &p.group_state }</td>
                            <td>{ if p.ticking { "yes" } else { "no" } }</td>
                            <td>{ p.last_index }</td>
                            <td>{ p.commit }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
        </section>
    }
}
