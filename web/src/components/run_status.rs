//! Status, simulated time and trace hash, and a seek's progress. The ids `status`,
//! `sim-time`, `sim-end`, `trace-hash` and `seek-progress` are a contract with the browser
//! tests.

use faultline_sim::{format_hash, SimTime};
use yew::prelude::*;

use super::PanelProps;
use crate::engine::Frame;
use crate::format;

/// The run's status line.
#[function_component]
pub fn RunStatus(props: &PanelProps) -> Html {
    let pg = props.state.pg.borrow();
    let f = &pg.frame;
    html! {
        <>
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
        { seek_progress(f) }
        </>
    }
}

/// While a seek replays: a bar from where the replay started to the target, and the
/// simulated time reached (a long seek at full scale takes seconds).
fn seek_progress(f: &Frame) -> Html {
    let (Some(to), Some(from)) = (f.seek_target_us, f.seek_from_us) else {
        return html! {};
    };
    let span = to.saturating_sub(from).max(1);
    let done = f.now_us.saturating_sub(from).min(span);
    html! {
        <div class="seek-progress" id="seek-progress" role="status"
             data-reached={ f.now_us.to_string() } data-target={ to.to_string() }>
            <progress max={ span.to_string() } value={ done.to_string() } aria-label="seek progress" />
            <span>{ format!("seeking: {} of {}", format::sim_time(SimTime(f.now_us)), format::sim_time(SimTime(to))) }</span>
        </div>
    }
}
