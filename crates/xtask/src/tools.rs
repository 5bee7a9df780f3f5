//! Installing the tools a fresh machine lacks, at the versions this repository needs.
//!
//! Each `ensure_*` probes first and only installs when the tool is missing or at the wrong
//! version, so a warm machine pays nothing. Installs are slow (trunk compiles for ~14 min on 2
//! cores), so each prints what it is doing and roughly how long it takes.

use crate::cmd::{self, err, in_dir, probe, Result};
use crate::paths;
use std::fs;
use std::path::Path;
use std::process::Command;

/// The trunk series that builds with our rustc (trunk 0.22 needs a newer compiler).
const TRUNK_SERIES: &str = "0.21";
const WASM_TARGET: &str = "wasm32-unknown-unknown";

/// Adds the wasm32 target with rustup unless it is already installed.
pub fn ensure_wasm_target() -> Result {
    let installed = probe("rustup", &["target", "list", "--installed"]).unwrap_or_default();
    if installed.lines().any(|l| l.trim() == WASM_TARGET) {
        return Ok(());
    }
    println!("adding the {WASM_TARGET} target (about 1 min)...");
    cmd::run(
        "adding the wasm32 target",
        Command::new("rustup").args(["target", "add", WASM_TARGET]),
    )
}

/// Installs trunk 0.21.x unless a 0.21 trunk is on PATH.
pub fn ensure_trunk() -> Result {
    let have = probe("trunk", &["--version"]);
    let wanted_prefix = format!("trunk {TRUNK_SERIES}.");
    if have
        .as_deref()
        .is_some_and(|v| v.starts_with(&wanted_prefix))
    {
        return Ok(());
    }
    match &have {
        Some(v) => println!("found `{v}`, need trunk {TRUNK_SERIES}.x"),
        None => println!("trunk is not installed"),
    }
    println!("installing trunk {TRUNK_SERIES} (about 14 min on 2 cores)...");
    // --locked: trunk's own lockfile is known to build with our rustc; unlocked resolution
    // can pull dependencies that need a newer compiler.
    cmd::run(
        "installing trunk",
        Command::new("cargo").args([
            "install",
            "trunk",
            "--version",
            &format!("~{TRUNK_SERIES}"),
            "--locked",
        ]),
    )
}

/// Installs wasm-bindgen-cli at exactly the version of the wasm-bindgen crate in Cargo.lock.
/// trunk refuses (offline) or downloads (online) when they differ, and a mismatch breaks the
/// generated JS glue, so the lockfile is the single source of truth.
pub fn ensure_wasm_bindgen() -> Result {
    let want = locked_version("wasm-bindgen")?;
    check_trunk_toml_pin(&want)?;
    let have = probe("wasm-bindgen", &["--version"]);
    if have.as_deref() == Some(format!("wasm-bindgen {want}").as_str()) {
        return Ok(());
    }
    match &have {
        Some(v) => println!("found `{v}`, need wasm-bindgen {want}"),
        None => println!("wasm-bindgen-cli is not installed"),
    }
    println!("installing wasm-bindgen-cli {want} (about 6 min on 2 cores)...");
    // No --locked: one dependency pinned in wasm-bindgen-cli's lockfile is no longer
    // available from the registry, so a locked install fails.
    cmd::run(
        "installing wasm-bindgen-cli",
        Command::new("cargo").args(["install", "wasm-bindgen-cli", "--version", &want]),
    )
}

/// Installs the npm packages of `dir` (from its package-lock.json) unless they are current.
pub fn ensure_npm_packages(dir: &Path, why: &str) -> Result {
    let lock = dir.join("package-lock.json");
    let installed = dir.join("node_modules").join(".package-lock.json");
    if is_newer_or_equal(&installed, &lock) {
        return Ok(());
    }
    if probe("npm", &["--version"]).is_none() {
        return err(format!(
            "npm is needed for {why} but is not on PATH; install Node.js 20+ (Debian: apt-get install -y nodejs npm)"
        ));
    }
    println!(
        "installing npm packages in {} for {why} (under a minute)...",
        dir.display()
    );
    cmd::run(
        &format!("npm ci for {why}"),
        in_dir("npm", dir).args(["ci", "--no-audit", "--no-fund"]),
    )
}

/// Makes wasm-opt (binaryen from npm, in web/node_modules) available for release builds.
/// Debian's binaryen is too old to read what current rustc emits.
pub fn ensure_wasm_opt() -> Result {
    ensure_npm_packages(&paths::web(), "wasm-opt (binaryen)")?;
    match probe("wasm-opt", &["--version"]) {
        Some(v) if v.contains("version 132") => Ok(()),
        Some(v) => err(format!(
            "wasm-opt on PATH is `{v}`, but Trunk.toml pins version_132; \
             remove it from PATH or update the pin"
        )),
        None => err("wasm-opt not found after npm ci in web/"),
    }
}

/// Path of the Chromium the browser tests drive: $CHROMIUM, else Debian's /usr/bin/chromium,
/// installed with apt when we are root.
pub fn ensure_chromium() -> Result<String> {
    if let Ok(p) = std::env::var("CHROMIUM") {
        return Ok(p);
    }
    let debian = "/usr/bin/chromium";
    if Path::new(debian).exists() {
        return Ok(debian.to_string());
    }
    let root = probe("id", &["-u"]).as_deref() == Some("0");
    if !root {
        return err(format!(
            "{debian} is missing; run `sudo apt-get update && sudo apt-get install -y chromium` \
             or set CHROMIUM=/path/to/chromium"
        ));
    }
    println!("installing Debian's chromium with apt (a few minutes)...");
    cmd::run("apt-get update", Command::new("apt-get").arg("update"))?;
    cmd::run(
        "installing chromium",
        Command::new("apt-get").args(["install", "-y", "chromium"]),
    )?;
    Ok(debian.to_string())
}

/// The version of `package` recorded in Cargo.lock.
pub fn locked_version(package: &str) -> Result<String> {
    let lock_path = paths::root().join("Cargo.lock");
    let lock = fs::read_to_string(&lock_path)
        .map_err(|e| cmd::Error(format!("reading {}: {e}", lock_path.display())))?;
    parse_locked_version(&lock, package).ok_or_else(|| {
        cmd::Error(format!(
            "no `{package}` entry in Cargo.lock; run `cargo generate-lockfile`"
        ))
    })
}

/// Finds `version = "..."` right after `name = "<package>"` in a Cargo.lock.
fn parse_locked_version(lock: &str, package: &str) -> Option<String> {
    let name_line = format!("name = \"{package}\"");
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line.trim() == name_line {
            let v = lines.next()?.trim().strip_prefix("version = \"")?;
            return Some(v.trim_end_matches('"').to_string());
        }
    }
    None
}

/// Fails when Trunk.toml's `wasm_bindgen` pin differs from Cargo.lock: offline trunk would
/// then refuse the installed CLI with a less obvious message.
fn check_trunk_toml_pin(want: &str) -> Result {
    let path = paths::root().join("Trunk.toml");
    let text = fs::read_to_string(&path)
        .map_err(|e| cmd::Error(format!("reading {}: {e}", path.display())))?;
    let pin = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("wasm_bindgen"))
        .and_then(|rest| rest.split('"').nth(1));
    match pin {
        Some(p) if p == want => Ok(()),
        Some(p) => err(format!(
            "Trunk.toml pins wasm_bindgen = \"{p}\" but Cargo.lock has wasm-bindgen {want}; make them equal"
        )),
        None => err("Trunk.toml has no [tools] wasm_bindgen pin"),
    }
}

/// True when `a` exists and was modified no earlier than `b`.
fn is_newer_or_equal(a: &Path, b: &Path) -> bool {
    let mtime = |p: &Path| fs::metadata(p).and_then(|m| m.modified()).ok();
    match (mtime(a), mtime(b)) {
        (Some(ta), Some(tb)) => ta >= tb,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::{check_trunk_toml_pin, locked_version, parse_locked_version};

    /// Catches a wasm-bindgen bump in Cargo.lock without the matching Trunk.toml edit in
    /// plain `cargo test`, before a slow wasm build would.
    #[test]
    fn trunk_toml_pins_the_locked_wasm_bindgen() {
        let locked = locked_version("wasm-bindgen").unwrap();
        check_trunk_toml_pin(&locked).unwrap();
    }

    #[test]
    fn finds_the_version_of_the_exact_package() {
        let lock = r#"
[[package]]
name = "wasm-bindgen-macro"
version = "0.2.130"

[[package]]
name = "wasm-bindgen"
version = "0.2.131"
"#;
        assert_eq!(
            parse_locked_version(lock, "wasm-bindgen").as_deref(),
            Some("0.2.131")
        );
        assert_eq!(parse_locked_version(lock, "yew"), None);
    }
}
