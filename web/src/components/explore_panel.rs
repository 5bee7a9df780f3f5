//! The Explore panel: runs many seeds of the current scenario, each with a random fault
//! schedule, checks every property, and lists the failures as links; "Shrink" turns a failure
//! into a smaller scenario that still fails.
//!
//! The jobs run in the simulation worker (`crate::engine`, in slices between its other
//! work; see `crate::engine::explore`); the panel sends start/stop/shrink and draws the
//! progress the engine reports in its frames.

use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::PanelProps;
use crate::dom;
use crate::engine::explore::MAX_RUNS;
use crate::engine::{ExploreCmd, ExploreProgress, ShrinkView};
use crate::playground::Action;

/// An `oninput` callback storing the input's text in `field`, so re-renders (progress, every
/// slice) keep what the user typed.
fn keep(field: &UseStateHandle<String>) -> Callback<InputEvent> {
    let field = field.clone();
    Callback::from(move |e: InputEvent| {
        if let Some(i) = e.target_dyn_into::<HtmlInputElement>() {
            field.set(i.value());
        }
    })
}

/// The Explore panel.
#[function_component]
pub fn ExplorePanel(props: &PanelProps) -> Html {
    let seeds = use_state(|| "20".to_string());
    let first = use_state(|| "0".to_string());
    let faults = use_state(String::new);
    let input_error = use_state(|| None::<String>);
    let pg = props.state.pg.borrow();
    let view = &pg.explore;
    let busy = view.busy();
    let start = {
        let (cb, state, input_error) = (
            props.on_action.clone(),
            props.state.clone(),
            input_error.clone(),
        );
        let (seeds, first, faults) = (seeds.clone(), first.clone(), faults.clone());
        Callback::from(move |_: MouseEvent| {
            match (seeds.trim().parse::<u64>(), first.trim().parse::<u64>()) {
                (Ok(n), Ok(from)) => {
                    input_error.set(None);
                    let link = state.pg.borrow().link.clone();
                    cb.emit(Action::Explore(ExploreCmd::Start {
                        link,
                        faults: (*faults).clone(),
                        first_seed: from,
                        seeds: n,
                    }));
                }
                _ => input_error.set(Some("seeds and first seed must be whole numbers".into())),
            }
        })
    };
    let stop = {
        let cb = props.on_action.clone();
        Callback::from(move |_: MouseEvent| cb.emit(Action::Explore(ExploreCmd::Stop)))
    };
    let error = (*input_error).clone().or_else(|| view.error.clone());
    html! {
        <section class="panel explore" id="explore">
            <h3>{ "Explore" }</h3>
            <p class="hint">
                { "Runs this scenario with many seeds, each adding a random fault schedule, and checks every property \
                   and expectation (like " }<code>{ "faultline explore" }</code>{ "). Runs in the simulation worker; the page stays responsive." }
            </p>
            <div class="row">
                <label>{ "seeds " }<input id="explore-seeds" type="number" min="1" max="1000"
                    value={ (*seeds).clone() } oninput={ keep(&seeds) } /></label>
                <label>{ "first seed " }<input id="explore-first" type="number" min="0"
                    value={ (*first).clone() } oninput={ keep(&first) } /></label>
                <label>{ "faults " }<input id="explore-faults" type="text" size="34"
                    placeholder="kill=2,partition=2,loss,pause,broker-down"
                    value={ (*faults).clone() } oninput={ keep(&faults) } /></label>
                <button id="explore-start" class="primary" onclick={ start } disabled={ busy }>{ "Explore" }</button>
                <button id="explore-stop" onclick={ stop } disabled={ !busy }>{ "Stop" }</button>
            </div>
            if let Some(e) = error {
                <p id="explore-error" class="error" role="alert">{ e }</p>
            }
            if let Some(job) = &view.job {
                { progress(job) }
                { failures(job, &props.on_action, busy) }
            }
        </section>
    }
}

/// The progress bar and its counters (`data-done`, `data-total`, `data-failing` for tests).
fn progress(job: &ExploreProgress) -> Html {
    let state = job.state.as_str();
    let now = job
        .running
        .map(|(seed, f)| format!(", seed {seed} at {:.0}%", f * 100.0))
        .unwrap_or_default();
    html! {
        <div class="explore-progress">
            <progress id="explore-progress" max={ job.total.to_string() } value={ job.done.to_string() } />
            <span id="explore-status" data-state={ state.to_string() } data-done={ job.done.to_string() }
                  data-total={ job.total.to_string() } data-failing={ job.failing_seeds.to_string() }>
                { format!("{state}: {} of {} seeds, {} failing{now}", job.done, job.total, job.failing_seeds) }
            </span>
            { for job.notes.iter().map(|n| html! { <p class="note">{ n }</p> }) }
        </div>
    }
}

/// The failure list: seed, property, message, a link opening the failing run in a new tab,
/// and "Shrink".
fn failures(job: &ExploreProgress, on_action: &Callback<Action>, busy: bool) -> Html {
    if job.failures.is_empty() {
        return html! { <p class="note" id="explore-no-failures">{ "No failures so far." }</p> };
    }
    let base = dom::base_url();
    html! {
        <table class="explore-failures" id="explore-failures">
            <thead><tr><th>{ "seed" }</th><th>{ "property" }</th><th>{ "what failed" }</th><th></th><th></th></tr></thead>
            <tbody>
                { for job.failures.iter().enumerate().map(|(i, f)| {
                    let on_shrink = {
                        let cb = on_action.clone();
                        Callback::from(move |_: MouseEvent| cb.emit(Action::Explore(ExploreCmd::Shrink(i))))
                    };
                    let shrunk = job.shrink.as_ref().filter(|s| s.index == i);
                    html! {
                        <>
                        <tr data-seed={ f.seed.to_string() } data-property={ f.property.clone() }>
                            <td>{ f.seed }</td>
                            <td><code>{ &f.property }</code></td>
                            <td class="message">{ &f.message }</td>
                            <td><a class="open" href={ format!("{base}#{}", f.link) } target="_blank" rel="noopener">{ "open ↗" }</a></td>
                            <td><button class="shrink" onclick={ on_shrink } disabled={ busy }>{ "Shrink" }</button></td>
                        </tr>
                        if let Some(s) = shrunk {
                            <tr class="shrink-row"><td colspan="5">{ shrink_status(s, &base) }</td></tr>
                        }
                        </>
                    }
                }) }
            </tbody>
            if job.failure_count > job.failures.len() {
                <tfoot><tr><td colspan="5" class="note">
                    { format!("first {} of {} failures shown", job.failures.len(), job.failure_count) }
                </td></tr></tfoot>
            }
        </table>
    }
}

/// A shrink's progress, and its result as a link.
fn shrink_status(s: &ShrinkView, base: &str) -> Html {
    let text = match s.state.as_str() {
        "running" => format!("shrinking… {} of at most {MAX_RUNS} runs", s.runs),
        "done" => format!("smallest found after {} runs", s.runs),
        "capped" => format!(
            "stopped at {} runs (the CLI's `faultline shrink` goes further)",
            s.runs
        ),
        _ => s.error.clone().unwrap_or_default(),
    };
    let (stores, regions, duration_us) = s.size;
    html! {
        <div class="shrink-status" id="shrink-status" data-state={ s.state.clone() } data-runs={ s.runs.to_string() }
             data-faults={ s.faults.1.to_string() }>
            <span>{ text }</span>
            <span>{ format!(" · faults {} → {}", s.faults.0, s.faults.1) }</span>
            <span>{ format!(" · {stores} stores, {regions} regions, {:.0} s", duration_us as f64 / 1e6) }</span>
            { " " }
            <a id="shrunk-link" href={ format!("{}#{}", base.split('#').next().unwrap_or(base), s.link) } target="_blank" rel="noopener">{ "open the shrunk run ↗" }</a>
        </div>
    }
}
