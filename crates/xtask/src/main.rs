//! `cargo xtask`: the two commands a fresh machine needs.
//!
//! - `cargo xtask serve`: installs what is missing (wasm32 target, trunk, wasm-bindgen-cli),
//!   builds the web app and serves it at <http://127.0.0.1:8080>.
//! - `cargo xtask test`: fmt, clippy, unit tests, release wasm build, download size, browser
//!   tests. Fails fast with a message naming the step that failed.

mod bench;
mod cmd;
mod paths;
mod serve;
mod size;
mod test;
mod tools;

use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask <serve|test|bench-wasm>

  serve   install missing tools, build the web app and serve it at http://127.0.0.1:8080
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
