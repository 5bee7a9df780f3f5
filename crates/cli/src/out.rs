//! Everything the CLI prints goes through here, for two reasons.
//!
//! - Scenario text is untrusted: a name, description or caption from a file or a share link
//!   may hold ANSI escapes that clear the screen, retitle the window or move the cursor to
//!   forge a "pass" line. [`escape_controls`] writes every control character visibly instead.
//! - Output often goes into a pipe (`faultline explore ... | head`): when the reader goes away,
//!   the command ends quietly with exit code 0, as ripgrep does, instead of panicking.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::{ErrorKind, Write};

/// Prints one line on stdout, control characters escaped.
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::out::line(&format!($($arg)*))
    };
}
pub(crate) use say;

/// True for characters a terminal acts on rather than shows: C0 and C1 controls and DEL
/// (except newline and tab, which only lay text out), and the bidirectional overrides and
/// isolates that can make a line read differently from what it holds.
fn is_dangerous(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `text` with every dangerous character written as an escape (`\x1b`, `\u{202e}`), so it
/// shows on the terminal as what it is and does nothing.
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_dangerous) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            c if !is_dangerous(c) => out.push(c),
            c if (c as u32) < 0x80 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
        }
    }
    Cow::Owned(out)
}

/// Writes `text` and a newline to stdout, escaped. A closed pipe ends the process quietly.
pub fn line(text: &str) {
    let mut stdout = std::io::stdout().lock();
    let result = stdout
        .write_all(escape_controls(text).as_bytes())
        .and_then(|()| stdout.write_all(b"\n"));
    if let Err(e) = result {
        if e.kind() == ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write to stdout: {e}");
        std::process::exit(2);
    }
}

/// Writes one line on stderr, escaped (errors quote scenario text too).
pub fn warn(text: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{}", escape_controls(text));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_shown_not_obeyed() {
        assert_eq!(escape_controls("plain\tand\nlines"), "plain\tand\nlines");
        assert_eq!(escape_controls("\x1b[2Jgone"), "\\x1b[2Jgone");
        assert_eq!(escape_controls("bell\x07\r"), "bell\\x07\\x0d");
        assert_eq!(escape_controls("c1 \u{9b}31m"), "c1 \\u{9b}31m");
        assert_eq!(escape_controls("\u{202e}txt.exe"), "\\u{202e}txt.exe");
        assert_eq!(escape_controls("del\x7f"), "del\\x7f");
    }
}
