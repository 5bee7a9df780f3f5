//! Status, simulated time and trace hash. The ids `status`, `sim-time`, `sim-end` and
//! `trace-hash` are a contract with the browser tests.

use faultline_sim::format_hash;
use yew::prelude::*;

use super::PanelProps;
use crate::format;

/// The run's status line.
#[function_component]
pub fn RunStatus(props: &PanelProps) -> Html {
    let pg = props.state.pg.borrow();
    let f = &pg.frame;
    html! {
        <dl class="run">
            <dt>{ "status" }</dt>
            <dd id="status">{ pg.status() }</dd>
            <dt>{ "time" }</dt>
            <dd>
                <span id="sim-time">{ format::sim_time(pg.now()) }</span>
                { " of " }
                <span id="sim-end">{ format::sim_time(pg.end()) }</span>
            </dd>
            <dt>{ "trace hash" }</dt>
            <dd><code id="trace-hash">{ format_hash(f.trace_hash) }</code></dd>
            <dt>{ "events" }</dt>
            <dd id="events">{ f.events }</dd>
            <dt>{ "snapshots" }</dt>
            <dd>{ f.snapshots }</dd>
        </dl>
    }
}
