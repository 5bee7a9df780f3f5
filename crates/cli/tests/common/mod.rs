//! Running the built `faultline` binary from the tests (each test file uses a part of this).
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

/// The repository root: scenario paths in the tests are relative to it.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `faultline ARGS...` run from the repository root.
pub fn faultline(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_faultline"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("the faultline binary runs")
}

/// Stdout as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Stderr as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A small, fast scenario that random kills break: its expectation wants every leader (the
/// explore tests use the same file).
pub const SMALL: &str = include_str!("../../../explore/tests/common/never-leaderless.toml");
