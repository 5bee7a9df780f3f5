//! `cargo xtask serve`: set up what is missing, build the app as a visitor gets it (release,
//! wasm-opt, compressed), and serve it at 127.0.0.1:8080. `--dev` instead runs `trunk serve`:
//! a debug build that rebuilds and reloads on every edit, for working on the app.

use crate::cmd::{self, in_dir, Result};
use crate::{paths, static_server, tools};

/// Address and port the README promises.
pub const ADDRESS: &str = "127.0.0.1";
/// Port the README and `faultline link` promise.
pub const PORT: &str = "8080";

/// Installs tools, builds, then serves until interrupted. `--dev` switches to `trunk serve`
/// (debug, watching); other arguments go to `trunk serve` in that mode.
pub fn run(args: &[String]) -> Result {
    let dev = args.iter().any(|a| a == "--dev");
    cmd::step("checking tools");
    ensure_build_tools(!dev)?;
    if dev {
        let extra: Vec<&String> = args.iter().filter(|a| *a != "--dev").collect();
        cmd::step(&format!(
            "serving a debug build that reloads on edits at http://{ADDRESS}:{PORT}/ (Ctrl-C stops)"
        ));
        return cmd::run(
            "trunk serve",
            in_dir("trunk", &paths::root())
                .args(["serve", "--offline", "--address", ADDRESS, "--port", PORT])
                .args(extra),
        );
    }
    cmd::step("release build (a few minutes the first time; `--dev` for a quick debug loop)");
    build_release()?;
    cmd::step(&format!(
        "serving the release build at http://{ADDRESS}:{PORT}/ (Ctrl-C stops; the default \
         scenario is tikv#14547)"
    ));
    static_server::serve(&paths::dist(), ADDRESS, PORT)
}

/// `trunk build --release`: the page and the worker, size-tuned but for the model crates
/// (speed-tuned, see the root Cargo.toml), and run through wasm-opt.
pub fn build_release() -> Result {
    cmd::run(
        "trunk build --release",
        in_dir("trunk", &paths::root()).args(["build", "--release", "--offline"]),
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
