//! `faultline completions SHELL`: a completion script for bash, zsh, fish, elvish or
//! PowerShell, generated from the same clap definitions that parse the arguments.

use clap::{Args, CommandFactory};
use clap_complete::Shell;

use crate::Cli;

/// Prints a shell completion script, e.g. `faultline completions bash > ~/.local/share/bash-completion/completions/faultline`.
#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell to complete in.
    #[arg(value_enum)]
    shell: Shell,
}

/// Writes the script to stdout.
pub fn run(a: CompletionsArgs) -> Result<i32, String> {
    let mut cmd = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(a.shell, &mut cmd, "faultline", &mut script);
    // Through `out::line` so a closed pipe ends quietly; the script is our own text, and
    // contains no control characters for the escaping to touch.
    crate::out::line(String::from_utf8_lossy(&script).trim_end());
    Ok(0)
}
