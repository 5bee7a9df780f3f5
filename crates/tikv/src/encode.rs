//! Trace-encoding helpers shared by messages and model actions.

use faultline_sim::TraceHasher;

/// Hashes `v` only when there is one, so that adding an optional field to a message keeps
/// the hashes of every run that does not use it.
pub(crate) fn word_if_some(h: &mut TraceHasher, v: Option<u64>) {
    if let Some(v) = v {
        h.word(v);
    }
}
