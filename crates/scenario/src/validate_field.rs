//! The checks of one value that the validation files share: a text's length against its
//! limit, a duration against a range.

use crate::dur::Dur;
use crate::error::Problems;

/// A text's length against its limit.
pub(crate) fn check_len(p: &mut Problems, field: &str, text: &str, limit: usize) {
    if text.chars().count() > limit {
        p.add(
            field,
            format!("longer than the limit of {limit} characters"),
        );
    }
}

/// A duration against a range, for fields that are not knobs.
pub(crate) fn dur_range(p: &mut Problems, field: &str, d: Dur, lo: Dur, hi: Dur) {
    if d < lo || d > hi {
        p.add(field, format!("{d} is out of range; allowed {lo}..={hi}"));
    }
}
