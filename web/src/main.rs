//! Entry point trunk builds; the app lives in the library.

#[cfg(target_arch = "wasm32")]
fn main() {
    faultline_web::start();
}

/// Natively the crate only exists for tests and clippy; the app itself runs under trunk.
#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("faultline-web runs in the browser: use `cargo xtask serve`");
}
