//! Faultline in the browser: the first shell.
//!
//! Loads the scenario from the URL hash (`#v1.…`) or the default, runs it with the same kernel
//! as the CLI in short slices so the page never freezes, and shows the trace hash, the
//! simulated time and the status. A link that fails to decode is reported in the page and the
//! default scenario runs instead.
//!
//! A library (with a thin `main`) so everything compiles and is tested natively too.

pub mod app;
pub mod charts;
pub mod engine;
pub mod format;
pub mod panic_report;
pub mod slicer;
pub mod view_model;
pub mod views;

/// Mounts the app on the page's body. Call once, from `main`.
#[cfg(target_arch = "wasm32")]
pub fn start() {
    panic_report::install();
    yew::Renderer::<app::App>::new().render();
}
