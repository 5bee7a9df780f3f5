//! `cargo xtask serve`: set up what is missing, then `trunk serve` at 127.0.0.1:8080.

use crate::cmd::{self, in_dir, Result};
use crate::{paths, tools};

/// Address and port the README promises.
pub const ADDRESS: &str = "127.0.0.1";
/// Port the README and `faultline link` promise.
pub const PORT: &str = "8080";

/// Installs tools, then serves (and rebuilds on change) until interrupted. Extra arguments go
/// to `trunk serve` (e.g. `--release`).
pub fn run(extra: &[String]) -> Result {
    cmd::step("checking tools");
    ensure_build_tools(extra.iter().any(|a| a == "--release"))?;
    cmd::step(&format!(
        "serving at http://{ADDRESS}:{PORT}/ (Ctrl-C stops)"
    ));
    cmd::run(
        "trunk serve",
        in_dir("trunk", &paths::root())
            .args(["serve", "--offline", "--address", ADDRESS, "--port", PORT])
            .args(extra),
    )
}

/// Everything `trunk build`/`serve` needs. wasm-opt only runs in release mode, so debug serves
/// skip the npm step.
pub fn ensure_build_tools(release: bool) -> Result {
    tools::ensure_wasm_target()?;
    tools::ensure_trunk()?;
    tools::ensure_wasm_bindgen()?;
    if release {
        tools::ensure_wasm_opt()?;
    }
    Ok(())
}
