//! The page: scenario header, run status, simulated time and trace hash.
//!
//! The element ids (`status`, `sim-time`, `trace-hash`, `error`) are a contract with the
//! browser tests in tests/e2e.

use crate::engine::{self, Engine};
use crate::format;
use crate::slicer;
use faultline_sim::format_hash;
use gloo::events::EventListener;
use gloo::timers::callback::Timeout;
use yew::prelude::*;

/// Wall-clock milliseconds per slice: long enough to make progress, short enough to keep
/// the page responsive (a 60 fps frame is ~16 ms).
const SLICE_MS: f64 = 8.0;

/// Messages the page handles.
pub enum Msg {
    /// Run the next slice of the simulation.
    Slice,
    /// The URL hash changed (a pasted link): reload the scenario.
    HashChanged,
}

/// The root component.
pub struct App {
    engine: Option<Engine>,
    error: Option<String>,
    finished: bool,
    /// Holding the handle keeps the next slice scheduled; dropping it cancels.
    next_slice: Option<Timeout>,
    _hash_listener: EventListener,
}

impl App {
    /// (Re)loads the scenario from the current URL hash and schedules the first slice.
    fn load(&mut self, ctx: &Context<Self>) {
        let hash = current_hash();
        match engine::load(&hash) {
            Ok(loaded) => {
                self.engine = Some(loaded.engine);
                self.error = loaded.link_error;
            }
            Err(e) => {
                self.engine = None;
                self.error = Some(e);
            }
        }
        self.finished = false;
        self.schedule(ctx);
    }

    fn schedule(&mut self, ctx: &Context<Self>) {
        let link = ctx.link().clone();
        // A zero timeout yields to the browser (paint, input) before the next slice.
        self.next_slice = Some(Timeout::new(0, move || link.send_message(Msg::Slice)));
    }
}

impl Component for App {
    type Message = Msg;
    type Properties = ();

    fn create(ctx: &Context<Self>) -> Self {
        let link = ctx.link().clone();
        let window = gloo::utils::window();
        let listener = EventListener::new(&window, "hashchange", move |_| {
            link.send_message(Msg::HashChanged)
        });
        let mut app = App {
            engine: None,
            error: None,
            finished: false,
            next_slice: None,
            _hash_listener: listener,
        };
        app.load(ctx);
        app
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::HashChanged => self.load(ctx),
            Msg::Slice => {
                self.next_slice = None;
                if let Some(engine) = self.engine.as_mut() {
                    self.finished = slicer::run_for(engine, SLICE_MS, js_sys::Date::now);
                    if !self.finished {
                        self.schedule(ctx);
                    }
                }
            }
        }
        true
    }

    fn view(&self, _ctx: &Context<Self>) -> Html {
        let status = match (&self.engine, self.finished) {
            (None, _) => "failed",
            (Some(_), true) => "finished",
            (Some(_), false) => "running",
        };
        html! {
            <main>
                <h1>{ "Faultline" }</h1>
                if let Some(e) = &self.error {
                    <p id="error" class="error" role="alert">{ e }</p>
                }
                if let Some(engine) = &self.engine {
                    { scenario_header(engine) }
                    <dl class="run">
                        <dt>{ "status" }</dt>
                        <dd id="status">{ status }</dd>
                        <dt>{ "simulated time" }</dt>
                        <dd>
                            <span id="sim-time">{ format::sim_time(engine.now()) }</span>
                            { " of " }
                            <span id="sim-end">{ format::sim_time(engine.end()) }</span>
                        </dd>
                        <dt>{ "trace hash" }</dt>
                        <dd><code id="trace-hash">{ format_hash(engine.trace_hash()) }</code></dd>
                    </dl>
                    <progress max={ engine.end().as_micros().max(1).to_string() }
                              value={ engine.now().as_micros().to_string() } />
                    if self.finished {
                        { expectations(engine) }
                    }
                } else {
                    <p id="status">{ status }</p>
                }
            </main>
        }
    }
}

/// Name, story and upstream issue of the scenario. `data-file` names the shipped file when
/// this is the default, so tests can run the same file natively.
fn scenario_header(engine: &Engine) -> Html {
    let s = engine.scenario();
    let (story, details) = format::story(&s.description);
    html! {
        <section class="scenario">
            <h2 id="scenario-name" data-file={ engine.default_file() }>{ &s.name }</h2>
            <p class="story">{ story }</p>
            if !details.is_empty() {
                <p class="details">{ details }</p>
            }
            if let Some(issue) = &s.issue {
                <p class="issue">{ "Models " }<code>{ issue }</code></p>
            }
        </section>
    }
}

/// The `[[expect]]` checks, evaluated once the run finished.
fn expectations(engine: &Engine) -> Html {
    let results = engine.evaluate();
    if results.is_empty() {
        return html! {};
    }
    html! {
        <section id="expectations">
            <h3>{ "Expectations" }</h3>
            <ul>
                { for results.iter().map(|r| {
                    let mark = if r.passed() { "pass" } else { "fail" };
                    let observed = r.observed.map(|v| format!(" (observed {v})")).unwrap_or_default();
                    html! {
                        <li class={ mark }>
                            <strong>{ mark }</strong>{ " " }{ &r.name }{ ": " }
                            <code>{ &r.check }</code>{ observed }
                        </li>
                    }
                }) }
            </ul>
        </section>
    }
}

/// The URL hash including its leading `#`, or empty.
fn current_hash() -> String {
    gloo::utils::window().location().hash().unwrap_or_default()
}
