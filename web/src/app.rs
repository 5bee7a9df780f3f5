//! The page: layout, the simulation worker, keyboard shortcuts, URL-hash sync and autosave.
//! State lives in `crate::state`; the rules in `crate::playground`; the runs in the engine
//! (`crate::engine`), which runs in a Web Worker and reports frames.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::events::EventListener;
use gloo::timers::callback::Timeout;
use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;
use yew::prelude::*;

use crate::components::branches::Branches;
use crate::components::compare::Compare;
use crate::components::controls::Controls;
use crate::components::explore_panel::ExplorePanel;
use crate::components::fault_palette::FaultPalette;
use crate::components::fault_timeline::FaultTimeline;
use crate::components::gallery::Gallery;
use crate::components::guide::Guide;
use crate::components::header::Header;
use crate::components::help::Help;
use crate::components::inspector::Inspector;
use crate::components::link_check::{FirstDifference, LinkCheckBanner};
use crate::components::link_error::LinkError;
use crate::components::run_status::RunStatus;
use crate::components::scrubber::Scrubber;
use crate::components::share::Share;
use crate::components::topology::Topology;
use crate::components::views_panel::ViewsPanel;
use crate::dom;
use crate::engine::RunState;
use crate::playground::{saved_session, topology as topo, Action, Playground};
use crate::state::AppState;
use crate::views::{ExpectationsPanel, MetricsStrip};

/// Most often the URL hash is rewritten while playing (it is cheap, but the address bar
/// flickering at 60 Hz is not).
const HASH_EVERY_MS: f64 = 500.0;

/// Builds the initial state from the URL, the autosave and the saved node positions.
fn initial_state() -> AppState {
    let mut pg = Playground::from_hash(&dom::current_hash(), dom::autosaved(), dom::is_embed());
    if let Some(text) = dom::load(dom::POSITIONS_KEY) {
        pg.selection.positions = topo::positions_from_text(&text);
    }
    if let Some(text) = saved_session::load_from_tab() {
        pg.restore_session(&text);
    }
    AppState {
        pg: Rc::new(RefCell::new(pg)),
        rev: 0,
        send: Rc::new(RefCell::new(None)),
    }
}

/// Spawns the simulation worker once index.html's early download of its script and
/// WebAssembly (`faultlineWorkerLoader`) settles, from those bytes; the normal way (its own
/// requests for [`SCRIPT`](crate::engine::worker::SCRIPT) and its WebAssembly) if that
/// download failed or the page has no such loader. Commands wait in the playground's outbox
/// until then.
#[cfg(target_arch = "wasm32")]
fn spawn_engine(state: &crate::state::StateHandle) {
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsValue;

    // A worker whose script fails to load fails silently (gloo's bridge just queues the
    // commands), so the page says so itself if the worker has not reported in time. Counted
    // from here, not from the spawn: waiting for the early download is part of the start.
    let d = state.dispatcher();
    Timeout::new(crate::playground::WORKER_START_MS, move || {
        d.dispatch(Action::EngineSilent)
    })
    .forget();
    let Some(loader) = early_worker_loader() else {
        connect_engine(state, None);
        return;
    };
    let state = state.clone();
    // The loader never rejects, but a rejection must not leave the page without a worker:
    // `catch` turns it into undefined, which means "the normal way".
    let ignore = Closure::once(|_: JsValue| {});
    let spawn = Closure::once(move |url: JsValue| connect_engine(&state, url.as_string()));
    let _ = loader.catch(&ignore).then(&spawn);
    // Each runs at most once, when the download settles; a page load makes one pair.
    ignore.forget();
    spawn.forget();
}

/// index.html's `window.faultlineWorkerLoader`, if the page has it.
#[cfg(target_arch = "wasm32")]
fn early_worker_loader() -> Option<js_sys::Promise> {
    let window = web_sys::window()?;
    js_sys::Reflect::get(&window, &"faultlineWorkerLoader".into())
        .ok()?
        .dyn_into::<js_sys::Promise>()
        .ok()
}

/// Starts the worker, from `loader` (a script that brings the worker's code and WebAssembly
/// with it) or else from its files: its frames and crash reports become actions, and the
/// state's sender posts to it (flushing what the page queued before it existed).
#[cfg(target_arch = "wasm32")]
fn connect_engine(state: &crate::state::StateHandle, loader: Option<String>) {
    use crate::engine::worker::{SimWorker, SCRIPT};
    use crate::engine::FromEngine;
    use gloo::worker::Spawnable;

    let d = state.dispatcher();
    let mut spawner = SimWorker::spawner();
    spawner
        // trunk builds workers with wasm-bindgen's no-modules target.
        .as_module(false)
        // The early loader starts the WebAssembly itself; without it gloo writes the
        // shim that loads SCRIPT and its `_bg.wasm`.
        .with_loader(loader.is_some())
        .callback(move |out: FromEngine| match out {
            FromEngine::Ready => d.dispatch(Action::EngineReady),
            FromEngine::Frame(f) => d.dispatch(Action::Frame(f)),
            FromEngine::Toml(a) => d.dispatch(Action::Toml(a)),
            FromEngine::FirstDifference(a) => d.dispatch(Action::FirstDifference(a)),
            FromEngine::Crashed { message, at_us } => {
                d.dispatch(Action::EngineCrashed(message, at_us))
            }
        });
    let bridge = spawner.spawn(loader.as_deref().unwrap_or(SCRIPT));
    *state.send.borrow_mut() = Some(Box::new(move |m| bridge.send(m)));
    state.flush();
}

#[cfg(not(target_arch = "wasm32"))]
fn spawn_engine(_: &crate::state::StateHandle) {}

/// Maps a key press to an action; None for keys we leave alone (and for typing in fields).
fn shortcut(e: &KeyboardEvent) -> Option<Action> {
    let typing = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"));
    if typing {
        return None;
    }
    let ctrl = e.ctrl_key() || e.meta_key();
    match e.key().as_str() {
        " " => Some(Action::TogglePlay),
        "ArrowRight" if e.shift_key() => Some(Action::Nudge(10_000_000)),
        "ArrowRight" => Some(Action::StepEvent),
        "ArrowLeft" => Some(Action::Nudge(-1_000_000)),
        "z" | "Z" if ctrl && e.shift_key() => Some(Action::Redo),
        "z" if ctrl => Some(Action::Undo),
        "?" => Some(Action::ToggleHelp),
        "Escape" => Some(Action::ContextMenu(None)),
        _ => None,
    }
}

/// The root component.
#[function_component]
pub fn App() -> Html {
    let state = use_reducer_eq(initial_state);
    let on_action = {
        let d = state.dispatcher();
        Callback::from(move |a: Action| d.dispatch(a))
    };
    let (status, embed, help_open, hash, edits, link) = {
        let pg = state.pg.borrow();
        (
            pg.status(),
            pg.embed,
            pg.help_open,
            address(&pg),
            pg.edits,
            pg.link.clone(),
        )
    };
    let active = matches!(status, "running" | "seeking");

    // The engine: spawned once; it plays and seeks on its own and sends frames.
    {
        let state = state.clone();
        use_effect_with((), move |_| spawn_engine(&state));
    }
    use_shortcuts_and_links(&state);
    use_address_bar(hash, active, &state);
    use_saved_work(&state, edits, link);

    let close_help = {
        let cb = on_action.clone();
        Callback::from(move |_| cb.emit(Action::ToggleHelp))
    };
    let on_jump = {
        let cb = on_action.clone();
        Callback::from(move |t| cb.emit(Action::Seek(t)))
    };
    let pg = state.pg.borrow();
    let file = pg.file;
    let headline = Headline {
        strip: pg.frame.strip.clone(),
        expect: expectations_to_show(&pg),
        compare_on: pg.compare.is_some() && pg.frame.twin.is_some(),
        on_jump,
    };
    drop(pg);

    if embed {
        return embed_page(&state, &on_action, headline);
    }
    html! {
        <>
        <a class="skip-link" href="#playground" onclick={ skip_to_playground }>{ "Skip to the playground" }</a>
        <header class="topbar">
            <h1>{ "Faultline" }</h1>
            <Share state={ state.clone() } on_action={ on_action.clone() } />
        </header>
        <main class="layout">
            <aside class="side">
                <Gallery current={ file } on_action={ on_action.clone() } />
            </aside>
            { center_column(&state, &on_action, headline) }
        </main>
        if help_open {
            <Help on_close={ close_help } />
        }
        </>
    }
}

/// What the run says at the cursor, above the views: hidden while compare shows both runs'.
struct Headline {
    strip: Rc<crate::view_model::MetricsStripVm>,
    expect: Rc<crate::view_model::ExpectationsVm>,
    compare_on: bool,
    on_jump: Callback<faultline_sim::SimTime>,
}

/// The expectations panel's rows. Until the worker's first frame the page knows the scenario
/// but not its run: list its expectations pending rather than "no expectations".
fn expectations_to_show(pg: &Playground) -> Rc<crate::view_model::ExpectationsVm> {
    if pg.frame.state == RunState::Loading && pg.frame.expectations.rows.is_empty() {
        Rc::new(crate::view_model::expectations::pending_expectations(
            pg.scenario(),
        ))
    } else {
        pg.frame.expectations.clone()
    }
}

/// The page embedded in another (`embed` in the link): the run and its headline only, no
/// gallery, editors or share bar.
fn embed_page(
    state: &crate::state::StateHandle,
    on_action: &Callback<Action>,
    h: Headline,
) -> Html {
    html! {
        <main class="embed">
            <Header state={ state.clone() } on_action={ on_action.clone() } />
            <Controls state={ state.clone() } on_action={ on_action.clone() } />
            <RunStatus state={ state.clone() } on_action={ on_action.clone() } />
            <Scrubber state={ state.clone() } on_action={ on_action.clone() } />
            <MetricsStrip data={ h.strip } />
            <ExpectationsPanel data={ h.expect } on_jump={ h.on_jump } />
        </main>
    }
}

/// The playground's column: controls and the key view first (on a phone too), the editors
/// after them.
fn center_column(
    state: &crate::state::StateHandle,
    on_action: &Callback<Action>,
    h: Headline,
) -> Html {
    let Headline {
        strip,
        expect,
        compare_on,
        on_jump,
    } = h;
    html! {
        <div class="center" id="playground" tabindex="-1">
            <LinkError state={ state.clone() } on_action={ on_action.clone() } />
            <LinkCheckBanner state={ state.clone() } on_action={ on_action.clone() } />
            <Header state={ state.clone() } on_action={ on_action.clone() } />
            <Guide state={ state.clone() } on_action={ on_action.clone() } />
            <section class="panel time">
                <Controls state={ state.clone() } on_action={ on_action.clone() } />
                <Scrubber state={ state.clone() } on_action={ on_action.clone() } />
                <FaultTimeline state={ state.clone() } on_action={ on_action.clone() } />
                <RunStatus state={ state.clone() } on_action={ on_action.clone() } />
                <Notice state={ state.clone() } on_action={ on_action.clone() } />
            </section>
            <Branches state={ state.clone() } on_action={ on_action.clone() } />
            if !compare_on {
                <MetricsStrip data={ strip } />
            }
            <Compare state={ state.clone() } on_action={ on_action.clone() } />
            <FirstDifference state={ state.clone() } on_action={ on_action.clone() } />
            if !compare_on {
                <ExpectationsPanel data={ expect } on_jump={ on_jump } />
            }
            <ViewsPanel state={ state.clone() } on_action={ on_action.clone() } />
            <Topology state={ state.clone() } on_action={ on_action.clone() } />
            <FaultPalette state={ state.clone() } on_action={ on_action.clone() } />
            <Inspector state={ state.clone() } on_action={ on_action.clone() } />
            <ExplorePanel state={ state.clone() } on_action={ on_action.clone() } />
        </div>
    }
}

/// Keyboard shortcuts, and links pasted into the address bar.
#[hook]
fn use_shortcuts_and_links(state: &UseReducerHandle<AppState>) {
    {
        let d = state.dispatcher();
        use_effect_with((), move |_| {
            let doc = gloo::utils::document();
            let d2 = d.clone();
            // Not passive: the shortcuts' preventDefault (space scrolls, "?" types) must work.
            let opts = gloo::events::EventListenerOptions::enable_prevent_default();
            let keys = EventListener::new_with_options(&doc, "keydown", opts, move |e| {
                if let Some(a) = e.dyn_ref::<KeyboardEvent>().and_then(shortcut) {
                    e.prevent_default();
                    d2.dispatch(a);
                }
            });
            let hash = EventListener::new(&gloo::utils::window(), "hashchange", move |_| {
                d.dispatch(Action::LoadHash(dom::current_hash()))
            });
            move || drop((keys, hash))
        });
    }
}

/// The address bar always holds the scenario and cursor (throttled while the clock runs).
#[hook]
fn use_address_bar(hash: String, active: bool, state: &UseReducerHandle<AppState>) {
    {
        let last = use_mut_ref(|| 0.0f64);
        use_effect_with(hash, move |hash| {
            let now = dom::now_ms();
            if !active || now - *last.borrow() >= HASH_EVERY_MS {
                *last.borrow_mut() = now;
                dom::replace_hash(hash);
            }
        });
    }
    // A final hash write once the clock stops, so a throttled cursor is not left stale.
    {
        let state = state.clone();
        use_effect_with(active, move |active| {
            let t = (!active)
                .then(|| Timeout::new(0, move || dom::replace_hash(&address(&state.pg.borrow()))));
            move || drop(t)
        });
    }
}

/// What survives a reload: the tab's session, the autosaved scenario and node positions.
#[hook]
fn use_saved_work(state: &UseReducerHandle<AppState>, edits: u64, link: String) {
    // The tab's session (compare, branches, undo, tab) is saved whenever one of them changes.
    {
        let pg = state.pg.borrow();
        let key = (
            pg.edits,
            pg.branches.len(),
            pg.active,
            pg.compare,
            pg.views.tab,
            pg.history.can(),
            pg.link.clone(),
        );
        let state = state.clone();
        use_effect_with(key, move |_| {
            saved_session::save_to_tab(&state.pg.borrow().saved_session())
        });
    }
    // Autosave after edits and opens (not on page load: the old autosave must survive a
    // broken link so it can be offered).
    use_effect_with(edits, move |edits| {
        if *edits > 0 {
            dom::save(dom::AUTOSAVE_KEY, &link);
        }
    });
    {
        let positions = topo::positions_to_text(&state.pg.borrow().selection.positions);
        use_effect_with(positions, |p| {
            if !p.is_empty() {
                dom::save(dom::POSITIONS_KEY, p);
            }
        });
    }
}

/// What the address bar should hold: the scenario and cursor, except that a link that could
/// not be opened stays there (so the reader can copy it into a bug report) until they open or
/// edit something.
fn address(pg: &Playground) -> String {
    if pg.error.is_some() && pg.edits == 0 {
        dom::current_hash()
    } else {
        pg.url_hash()
    }
}

/// The skip link moves focus past the gallery without touching the URL hash (which holds the
/// scenario: following `#playground` would open it as a link).
fn skip_to_playground(e: MouseEvent) {
    use wasm_bindgen::JsCast;
    e.prevent_default();
    let target = gloo::utils::document().get_element_by_id("playground");
    if let Some(el) = target.and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok()) {
        let _ = el.focus();
    }
}

/// A one-line confirmation or hint under the controls.
#[function_component]
fn Notice(props: &crate::components::PanelProps) -> Html {
    let pg = props.state.pg.borrow();
    match &pg.notice {
        Some(n) => html! { <p id="notice" class="notice" role="status">{ n }</p> },
        None => html! {},
    }
}
