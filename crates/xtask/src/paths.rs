//! Where things are in the repository.

use std::path::PathBuf;

/// The repository root (the workspace that contains `crates/xtask`).
pub fn root() -> PathBuf {
    // CARGO_MANIFEST_DIR is crates/xtask; the root is two levels up. Using it (rather than the
    // current directory) lets `cargo xtask` work from any subdirectory. `cargo run` sets it
    // for the running binary too, and that value comes first: the compile-time one names the
    // checkout the binary was built in, which is another checkout when a target directory
    // was copied (a gate run that way tested the other checkout's files).
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from);
    manifest
        .parent()
        .and_then(|p| p.parent())
        .map(PathBuf::from)
        .unwrap_or(manifest)
}

/// The web crate, which also holds the npm package for build tools (wasm-opt).
pub fn web() -> PathBuf {
    root().join("web")
}

/// The browser tests (a Node package).
pub fn e2e() -> PathBuf {
    root().join("tests").join("e2e")
}

/// Trunk's output directory.
pub fn dist() -> PathBuf {
    root().join("dist")
}

/// Cargo's target directory (honours CARGO_TARGET_DIR, which cargo itself does).
pub fn target() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => root().join(dir),
        None => root().join("target"),
    }
}

/// The model alone built as WebAssembly (`crates/wasm-bench`, `bench::build_raw_wasm`).
pub fn raw_model_wasm() -> PathBuf {
    target()
        .join("wasm32-unknown-unknown")
        .join("release")
        .join("faultline_wasm_bench.wasm")
}

/// The directory holding `wasm-opt` once `npm ci` ran in web/.
pub fn node_bin() -> PathBuf {
    web().join("node_modules").join(".bin")
}

/// `cargo install` puts binaries here; a fresh shell may not have it on PATH yet.
pub fn cargo_bin() -> Option<PathBuf> {
    if let Some(home) = std::env::var_os("CARGO_HOME") {
        return Some(PathBuf::from(home).join("bin"));
    }
    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo").join("bin"))
}

/// PATH with the cargo bin dir and the local node bin dir in front, so freshly installed
/// tools are found by us and by trunk (which looks wasm-bindgen and wasm-opt up on PATH).
pub fn tool_path() -> std::ffi::OsString {
    let mut dirs: Vec<PathBuf> = vec![node_bin()];
    dirs.extend(cargo_bin());
    if let Some(old) = std::env::var_os("PATH") {
        dirs.extend(std::env::split_paths(&old));
    }
    std::env::join_paths(dirs).unwrap_or_default()
}
