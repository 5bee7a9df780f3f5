//! Why a link could not be opened, in words a reader of an old issue can act on.

use super::limits::{LINK_VERSION, MAX_DECOMPRESSED_BYTES, MAX_LINK_CHARS};
use crate::model_version::MODEL_VERSION;

/// Why a link could not be opened.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LinkError {
    /// No `v<N>.` prefix.
    #[error(
        "this is not a Faultline scenario link (it should contain `#v{LINK_VERSION}.` followed by the scenario)"
    )]
    NotALink,
    /// A newer link format than this build writes.
    #[error("this link was made by a newer Faultline (link format v{0}); this version reads v1 and v{LINK_VERSION}. Open it with a newer build.")]
    FutureVersion(u32),
    /// An older, no longer supported format.
    #[error("this link uses link format v{0}, which this version does not read (it reads v1 and v{LINK_VERSION})")]
    UnknownVersion(u32),
    /// Too long to be a real scenario.
    #[error("the link is {0} characters long; the limit is {MAX_LINK_CHARS}")]
    TooLong(usize),
    /// Not base64url.
    #[error("the link is corrupted: character {position} (`{ch}`) is not allowed in a link; was it cut or edited?")]
    BadCharacter {
        /// 1-based position in the payload.
        position: usize,
        /// The offending character.
        ch: char,
    },
    /// Base64 fine, but the compressed data is broken or incomplete.
    #[error("the link is truncated or corrupted: the compressed scenario does not unpack ({0})")]
    Corrupted(String),
    /// Decompresses beyond the cap.
    #[error(
        "the link unpacks to more than {MAX_DECOMPRESSED_BYTES} bytes, the limit for a scenario"
    )]
    TooLarge,
    /// The scenario inside does not decode.
    #[error("the link is corrupted: the scenario inside does not decode ({0})")]
    BadScenario(String),
    /// A v2 link from a newer model uses a field or value this build does not know.
    #[error(
        "this link uses `{what}`, which this build does not understand: the link was made with \
         model {link_model}; this build knows up to model {MODEL_VERSION}. Open it with a newer \
         Faultline."
    )]
    NewerModel {
        /// The field path and, for an unknown value, the value: `faults[3].action = merge`.
        what: String,
        /// The model version recorded in the link.
        link_model: u32,
    },
    /// The scenario decodes but breaks the rules.
    #[error("{0}")]
    Invalid(String),
}
