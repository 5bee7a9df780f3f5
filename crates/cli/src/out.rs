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

use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

/// Prints one line on stdout, control characters escaped.
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::out::line(&format!($($arg)*))
    };
}
pub(crate) use say;

/// True for characters a terminal acts on, or that hide or rearrange text, rather than show:
/// C0 and C1 controls and DEL (except newline and tab, which only lay text out), and every
/// format and separator character (general categories Cf, Zl, Zp): bidirectional overrides,
/// isolates and marks (U+202E, U+2066, U+200F) that make a line read differently from what it
/// holds, invisible ones (U+200B, U+FEFF, U+00AD) that make two names look equal, and line and
/// paragraph separators (U+2028, U+2029) that some terminals break lines on.
fn is_dangerous(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t') || is_format_or_separator(c)
}

/// General category Cf, Zl or Zp, from the Unicode tables (not a hand-kept list, which would
/// miss the characters a later Unicode version adds).
fn is_format_or_separator(c: char) -> bool {
    matches!(
        c.general_category(),
        GeneralCategory::Format
            | GeneralCategory::LineSeparator
            | GeneralCategory::ParagraphSeparator
    )
}

/// `text` with every dangerous character written as an escape (`\x1b`, `\u{202e}`), so it
/// shows on the terminal as what it is and does nothing.
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    escape_where(text, is_dangerous)
}

/// Like [`escape_controls`], and newlines and tabs escaped too: for text that must stay on one
/// line, such as a command-line argument quoted in a message (`--set name=x\ny`).
pub fn escape_line(text: &str) -> Cow<'_, str> {
    escape_where(text, |c| c == '\n' || c == '\t' || is_dangerous(c))
}

fn escape_where(text: &str, escaped: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !text.chars().any(&escaped) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            c if !escaped(c) => out.push(c),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
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

/// Arguments longer than this many characters are shortened when shown as a label: well past
/// any scenario file's path (the gallery's run to about 70), well short of a share link (from a
/// few hundred characters to 64 KB).
const LONG_ARG_CHARS: usize = 200;

/// How much of a shortened argument is shown.
const SHOWN_ARG_CHARS: usize = 60;

/// A command-line argument as a label on one line: a share link can be 64 KB, which as the
/// label of every line of `check` would bury the lines it labels, so a long one is shortened to
/// its first [`SHOWN_ARG_CHARS`] characters, `…` and its length.
pub fn arg_label(arg: &str) -> String {
    let count = arg.chars().count();
    if count <= LONG_ARG_CHARS {
        return escape_line(arg).into_owned();
    }
    let head: String = arg.chars().take(SHOWN_ARG_CHARS).collect();
    format!("{}… ({count} characters)", escape_line(&head))
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

    #[test]
    fn format_and_separator_characters_are_shown_not_obeyed() {
        for (c, shown) in [
            ('\u{200f}', "\\u{200f}"),
            ('\u{2028}', "\\u{2028}"),
            ('\u{2029}', "\\u{2029}"),
            ('\u{2066}', "\\u{2066}"),
            ('\u{feff}', "\\u{feff}"),
            ('\u{ad}', "\\u{ad}"),
            ('\u{200b}', "\\u{200b}"),
            ('\u{e0001}', "\\u{e0001}"),
        ] {
            assert_eq!(escape_controls(&format!("a{c}b")), format!("a{shown}b"));
        }
        assert_eq!(
            escape_controls("é ü 漢字 🙂"),
            "é ü 漢字 🙂",
            "letters and symbols stay"
        );
    }

    #[test]
    fn a_long_argument_is_labelled_by_its_start_and_length() {
        let link = format!("http://127.0.0.1:8080/#v2.{}", "A".repeat(70_000));
        let label = arg_label(&link);
        assert_eq!(
            label,
            format!(
                "http://127.0.0.1:8080/#v2.{}… (70026 characters)",
                "A".repeat(34)
            )
        );
        assert_eq!(arg_label("scenarios/a.toml"), "scenarios/a.toml");
        let gallery_path = "scenarios/tiflow-9595-changefeed-stuck-after-tikv-failure-fixed.toml";
        assert_eq!(
            arg_label(gallery_path),
            gallery_path,
            "a file's path is shown whole"
        );
        assert_eq!(arg_label("a\nb"), "a\\nb");
    }

    #[test]
    fn one_line_text_escapes_line_breaks_too() {
        assert_eq!(escape_line("name=x\ny\tz"), "name=x\\ny\\tz");
        assert_eq!(escape_line("a\u{202e}b"), "a\\u{202e}b");
        assert_eq!(escape_line("plain"), "plain");
    }
}
