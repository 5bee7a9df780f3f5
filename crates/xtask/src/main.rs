//! `cargo xtask`: the two commands a fresh machine needs.
//!
//! - `cargo xtask serve`: installs what is missing (wasm32 target, trunk, wasm-bindgen-cli),
//!   builds the web app in release mode and serves it compressed at <http://127.0.0.1:8080>
//!   (`--dev`: a debug build that reloads on edits).
//! - `cargo xtask test`: fmt, clippy, unit tests, release wasm build, download size, browser
//!   tests. Fails fast with a message naming the step that failed.

mod bench;
mod cmd;
mod encoding;
mod http;
mod paths;
mod serve;
mod size;
mod static_server;
mod test;
mod tools;

use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask <serve|test|bench-wasm>

  serve [--dev]
          install missing tools, build the web app (release) and serve it compressed at
          http://127.0.0.1:8080; --dev serves a debug build that rebuilds on every edit
  test    fmt check, clippy -D warnings, cargo test, release wasm build, size report,
          browser tests (headless Chromium)
  bench-wasm [MINUTES]
          the full-scale tikv#14547 run natively and as wasm (Node.js): the speed ratio";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // Freshly installed tools (cargo's bin dir, web/node_modules/.bin) must be visible to
    // our probes and to trunk, even in a shell whose PATH predates the install. Safe: no
    // other thread exists yet.
    std::env::set_var("PATH", paths::tool_path());
    let result = match args.first().map(String::as_str) {
        Some("serve") => serve::run(&args[1..]),
        Some("test") => test::run(&args[1..]),
        Some("bench-wasm") => bench::run_wasm_ratio(&args[1..]),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("\nxtask: FAILED: {e}");
            ExitCode::FAILURE
        }
    }
}
