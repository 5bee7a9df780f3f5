//! Rules for text from a scenario (files and share links are untrusted): no control
//! characters in names, which a terminal would obey (clear the screen, move the cursor, forge
//! a line). Names are one-line labels, so none at all; descriptions and captions are prose,
//! so they may keep line breaks (`\n`) and tabs (`\t`), but no other control character:
//! not even `\r`, which returns the cursor to overwrite the line it ends.

use crate::error::Problems;

/// Where a piece of text may go, and so which control characters it may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextKind {
    /// One-line labels: scenario name, issue, expectation names, node selectors, ids.
    Name,
    /// Multi-line prose: descriptions, captions.
    Prose,
}

impl TextKind {
    fn allows(self, c: char) -> bool {
        !c.is_control() || (self == TextKind::Prose && (c == '\n' || c == '\t'))
    }
}

/// Reports the first disallowed control character of `text`, by its code point (writing the
/// character itself into the message would carry it to the terminal).
pub(crate) fn check_chars(p: &mut Problems, field: &str, text: &str, kind: TextKind) {
    if let Some(c) = text.chars().find(|c| !kind.allows(*c)) {
        let allowed = match kind {
            TextKind::Name => "names may not contain control characters",
            TextKind::Prose => "only line breaks and tabs are allowed among control characters",
        };
        p.add(
            field,
            format!(
                "contains the control character U+{:04X}; {allowed}",
                c as u32
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_reject_every_control_character_and_prose_keeps_newlines_and_tabs() {
        let mut p = Problems::default();
        check_chars(&mut p, "name", "ok name", TextKind::Name);
        check_chars(&mut p, "description", "line\n\tindented", TextKind::Prose);
        assert!(p.0.is_empty());
        check_chars(&mut p, "name", "a\nb", TextKind::Name);
        check_chars(&mut p, "description", "x\x1b[2J", TextKind::Prose);
        check_chars(&mut p, "guide[0].caption", "fail\rpass", TextKind::Prose);
        let got: Vec<String> =
            p.0.iter()
                .map(|x| format!("{}: {}", x.field, x.message))
                .collect();
        assert_eq!(
            got[0],
            "name: contains the control character U+000A; names may not contain control characters"
        );
        assert!(got[1].starts_with("description: contains the control character U+001B"));
        assert!(got[2].starts_with("guide[0].caption: contains the control character U+000D"));
    }
}
