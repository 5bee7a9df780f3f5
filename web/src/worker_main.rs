//! The simulation worker trunk builds (`data-type="worker"` in index.html): it owns the runs
//! and answers the page with frames (see `faultline_web::engine`).

#[cfg(target_arch = "wasm32")]
fn main() {
    faultline_web::engine::worker::register();
}

/// Natively the worker only exists for tests and clippy.
#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("faultline-worker runs in the browser: use `cargo xtask serve`");
}
