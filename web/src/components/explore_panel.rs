//! The Explore panel: runs many seeds of the current scenario, each with a random fault
//! schedule, checks every property, and lists the failures as links; "Shrink" turns a failure
//! into a smaller scenario that still fails.
//!
//! Both jobs run on the page's thread in slices between frames (see
//! `crate::playground::explore` for why not in a worker): an effect keyed on a tick counter
//! schedules a zero-delay timeout that runs one slice and bumps the counter, which re-renders
//! (progress) and schedules the next slice, until the job is done or stopped.

use std::cell::RefCell;
use std::rc::Rc;

use faultline_scenario::share_url;
use gloo::timers::callback::Timeout;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::PanelProps;
use crate::dom;
use crate::playground::explore::{ExploreJob, ShrinkJob, ShrinkStatus, MAX_RUNS};
use crate::slicer;

/// Wall-clock budget of one explore slice (ms): most of a 60 fps frame, leaving the rest for
/// painting and input.
const SLICE_MS: f64 = 12.0;

/// Failure rows drawn; the count stays exact.
const MAX_ROWS: usize = 200;

/// The jobs the panel drives; `RefCell` because slices mutate them outside rendering.
#[derive(Default)]
struct Jobs {
    explore: Option<ExploreJob>,
    /// Which failure (index into the explore failures) is being shrunk, and the shrink.
    shrink: Option<(usize, ShrinkJob)>,
    /// A problem with the inputs.
    error: Option<String>,
    /// Stopped by the user.
    stopped: bool,
}

impl Jobs {
    fn busy(&self) -> bool {
        !self.stopped
            && (self.explore.as_ref().is_some_and(|j| !j.finished())
                || self
                    .shrink
                    .as_ref()
                    .is_some_and(|(_, s)| s.status == ShrinkStatus::Running))
    }

    /// One slice of whichever job is running: a shrink step first (the user asked for it
    /// last), else explore for `SLICE_MS`.
    fn slice(&mut self) {
        if let Some((_, s)) = self
            .shrink
            .as_mut()
            .filter(|(_, s)| s.status == ShrinkStatus::Running)
        {
            s.step();
        } else if let Some(j) = self.explore.as_mut() {
            slicer::run_for(j, SLICE_MS, dom::now_ms);
        }
    }
}

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
    let jobs = use_mut_ref(Jobs::default);
    let tick = use_state(|| 0u64);
    let seeds = use_state(|| "20".to_string());
    let first = use_state(|| "0".to_string());
    let faults = use_state(String::new);
    let busy = jobs.borrow().busy();
    {
        let (jobs, tick) = (jobs.clone(), tick.clone());
        use_effect_with((*tick, busy), move |&(n, busy)| {
            let t = busy.then(|| {
                Timeout::new(0, move || {
                    jobs.borrow_mut().slice();
                    tick.set(n + 1);
                })
            });
            move || drop(t)
        });
    }
    let start = {
        let (jobs, tick, state) = (jobs.clone(), tick.clone(), props.state.clone());
        let (seeds, first, faults) = (seeds.clone(), first.clone(), faults.clone());
        Callback::from(move |_: MouseEvent| {
            let n = seeds.trim().parse::<u64>();
            let from = first.trim().parse::<u64>();
            let base = state.pg.borrow().scenario().clone();
            let mut j = jobs.borrow_mut();
            *j = Jobs::default();
            match (n, from) {
                (Ok(n), Ok(from)) => match ExploreJob::new(&base, &faults, from, n) {
                    Ok(job) => j.explore = Some(job),
                    Err(e) => j.error = Some(e),
                },
                _ => j.error = Some("seeds and first seed must be whole numbers".into()),
            }
            tick.set(*tick + 1);
        })
    };
    let stop = {
        let (jobs, tick) = (jobs.clone(), tick.clone());
        Callback::from(move |_: MouseEvent| {
            jobs.borrow_mut().stopped = true;
            tick.set(*tick + 1);
        })
    };
    let j = jobs.borrow();
    html! {
        <section class="panel explore" id="explore">
            <h3>{ "Explore" }</h3>
            <p class="hint">
                { "Runs this scenario with many seeds, each adding a random fault schedule, and checks every property \
                   and expectation (like " }<code>{ "faultline explore" }</code>{ "). Runs here, between frames." }
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
            if let Some(e) = &j.error {
                <p id="explore-error" class="error" role="alert">{ e }</p>
            }
            if let Some(job) = &j.explore {
                { progress(job, j.stopped) }
                { failures(job, &jobs, &tick, j.shrink.as_ref(), busy) }
            }
        </section>
    }
}

/// The progress bar and its counters (`data-done`, `data-total`, `data-failing` for tests).
fn progress(job: &ExploreJob, stopped: bool) -> Html {
    let state = if job.finished() {
        "finished"
    } else if stopped {
        "stopped"
    } else {
        "running"
    };
    let now = job
        .running()
        .map(|(seed, f)| format!(", seed {seed} at {:.0}%", f * 100.0))
        .unwrap_or_default();
    html! {
        <div class="explore-progress">
            <progress id="explore-progress" max={ job.total().to_string() } value={ job.done().to_string() } />
            <span id="explore-status" data-state={ state } data-done={ job.done().to_string() }
                  data-total={ job.total().to_string() } data-failing={ job.failing_seeds.to_string() }>
                { format!("{state}: {} of {} seeds, {} failing{now}", job.done(), job.total(), job.failing_seeds) }
            </span>
            { for job.notes.iter().map(|n| html! { <p class="note">{ n }</p> }) }
        </div>
    }
}

/// The failure list: seed, property, message, a link opening the failing run in a new tab,
/// and "Shrink".
fn failures(
    job: &ExploreJob,
    jobs: &Rc<RefCell<Jobs>>,
    tick: &UseStateHandle<u64>,
    shrink: Option<&(usize, ShrinkJob)>,
    busy: bool,
) -> Html {
    if job.failures.is_empty() {
        return html! { <p class="note" id="explore-no-failures">{ "No failures so far." }</p> };
    }
    let base = dom::base_url();
    html! {
        <table class="explore-failures" id="explore-failures">
            <thead><tr><th>{ "seed" }</th><th>{ "property" }</th><th>{ "what failed" }</th><th></th><th></th></tr></thead>
            <tbody>
                { for job.failures.iter().enumerate().take(MAX_ROWS).map(|(i, f)| {
                    let on_shrink = {
                        let (jobs, tick, f) = (jobs.clone(), tick.clone(), f.clone());
                        Callback::from(move |_: MouseEvent| {
                            let mut j = jobs.borrow_mut();
                            j.stopped = false;
                            j.shrink = Some((i, ShrinkJob::new(&f.scenario, &f.property)));
                            tick.set(*tick + 1);
                        })
                    };
                    let shrunk = shrink.filter(|(k, _)| *k == i).map(|(_, s)| s);
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
            if job.failures.len() > MAX_ROWS {
                <tfoot><tr><td colspan="5" class="note">
                    { format!("first {MAX_ROWS} of {} failures shown", job.failures.len()) }
                </td></tr></tfoot>
            }
        </table>
    }
}

/// A shrink's progress, and its result as a link.
fn shrink_status(s: &ShrinkJob, base: &str) -> Html {
    let (state, text) = match &s.status {
        ShrinkStatus::Running => (
            "running",
            format!("shrinking… {} of at most {MAX_RUNS} runs", s.runs),
        ),
        ShrinkStatus::Done => ("done", format!("smallest found after {} runs", s.runs)),
        ShrinkStatus::Capped => (
            "capped",
            format!(
                "stopped at {} runs (the CLI's `faultline shrink` goes further)",
                s.runs
            ),
        ),
        ShrinkStatus::Failed(e) => ("failed", e.clone()),
    };
    html! {
        <div class="shrink-status" id="shrink-status" data-state={ state } data-runs={ s.runs.to_string() }
             data-faults={ s.current.faults.len().to_string() }>
            <span>{ text }</span>
            <span>{ format!(" · faults {} → {}", s.faults_before, s.current.faults.len()) }</span>
            <span>{ format!(" · {} stores, {} regions, {:.0} s", s.current.topology.stores, s.current.topology.regions, s.current.duration.0 as f64 / 1e6) }</span>
            { " " }
            <a id="shrunk-link" href={ share_url(base, &s.current) } target="_blank" rel="noopener">{ "open the shrunk run ↗" }</a>
        </div>
    }
}
