//! Faultline in the browser: the playground.
//!
//! Loads the scenario from the URL hash (`#v2.…&t=<cursor>`, or an older `#v1.…`) or the default, runs it with the
//! same kernel as the CLI in a Web Worker so the page never freezes, and lets the user play,
//! rewind, branch, compare, edit and share it. Layout: [`playground`] holds the page's state
//! and its rules (no Yew), [`engine`] owns the runs and answers the page's commands with
//! frames (the worker binary runs it), [`state`] wraps the playground in a reducer,
//! [`components`] draws it, [`app`] wires the page (worker, keys, URL, autosave), [`dom`] is
//! the only browser glue.
//!
//! A library (with a thin `main`) so everything compiles and is tested natively too.

pub mod app;
pub mod charts;
pub mod components;
pub mod dom;
pub mod engine;
pub mod format;
pub mod gallery;
pub mod panic_report;
pub mod playground;
pub mod slicer;
pub mod state;
pub mod toggles;
pub mod view_model;
pub mod views;

/// Mounts the app on the page's body. Call once, from `main`.
#[cfg(target_arch = "wasm32")]
pub fn start() {
    panic_report::install();
    // index.html's placeholder held the page's place while the wasm downloaded.
    if let Some(boot) = gloo::utils::document().get_element_by_id("boot") {
        boot.remove();
    }
    yew::Renderer::<app::App>::new().render();
}
