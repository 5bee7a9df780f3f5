//! Running external programs with readable failures.

use std::fmt;
use std::path::Path;
use std::process::{Command, Stdio};

/// An xtask failure: which step broke and why, printed as one line.
#[derive(Debug)]
pub struct Error(pub String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Result of an xtask step.
pub type Result<T = ()> = std::result::Result<T, Error>;

/// Shorthand for building an [`Error`].
pub fn err<T>(msg: impl Into<String>) -> Result<T> {
    Err(Error(msg.into()))
}

/// Prints a step banner so a long log shows where it is.
pub fn step(title: &str) {
    println!("\n==> {title}");
}

/// Renders a command line for messages (`program arg arg`).
pub fn show(c: &Command) -> String {
    let mut s = c.get_program().to_string_lossy().into_owned();
    for a in c.get_args() {
        s.push(' ');
        s.push_str(&a.to_string_lossy());
    }
    s
}

/// Runs a command with inherited stdio; any non-zero exit is an error naming `what`.
pub fn run(what: &str, c: &mut Command) -> Result {
    let line = show(c);
    println!("    $ {line}");
    let status = c
        .status()
        .map_err(|e| Error(format!("{what}: could not start `{line}`: {e}")))?;
    if status.success() {
        Ok(())
    } else {
        err(format!("{what}: `{line}` exited with {status}"))
    }
}

/// Runs a command quietly and returns its trimmed stdout, or `None` if it is missing or fails.
/// Used for version probes, where absence is an expected answer.
pub fn probe(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// A `Command` for `program` running in `dir`.
pub fn in_dir(program: &str, dir: &Path) -> Command {
    let mut c = Command::new(program);
    c.current_dir(dir);
    c
}
