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
    let s = &pg.session;
    html! {
        <dl class="run">
            <dt>{ "status" }</dt>
            <dd id="status">{ pg.status() }</dd>
            <dt>{ "time" }</dt>
            <dd>
                <span id="sim-time">{ format::sim_time(s.now()) }</span>
                { " of " }
                <span id="sim-end">{ format::sim_time(s.end()) }</span>
            </dd>
            <dt>{ "trace hash" }</dt>
            <dd><code id="trace-hash">{ format_hash(s.run.trace_hash()) }</code></dd>
            <dt>{ "events" }</dt>
            <dd id="events">{ s.run.world.kernel.processed() }</dd>
            <dt>{ "snapshots" }</dt>
            <dd>{ s.snapshot_count() }</dd>
        </dl>
    }
}
