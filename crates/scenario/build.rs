//! Records the commit this build was made from (`FAULTLINE_COMMIT`, or `git rev-parse`), for
//! the issue report: a reader of an old report learns which Faultline produced it.

use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=FAULTLINE_COMMIT");
    let commit = std::env::var("FAULTLINE_COMMIT").ok().or_else(git_head);
    println!(
        "cargo:rustc-env=FAULTLINE_COMMIT={}",
        commit.unwrap_or_else(|| "unknown".into())
    );
}

fn git_head() -> Option<String> {
    let out = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    let text = text.trim();
    (out.status.success() && !text.is_empty()).then(|| text.to_string())
}
