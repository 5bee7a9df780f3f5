//! The compare twin: a second run of the same scenario with one toggle flipped, kept at the
//! main run's cursor.

use super::session::Session;

/// The compare twin.
pub(crate) struct Twin {
    /// The toggle flipped in the twin.
    pub(crate) toggle: usize,
    /// The twin's run.
    pub(crate) session: Session,
}
