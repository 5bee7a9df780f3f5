//! Share links: a scenario, the model version that ran it and, optionally, what the run showed,
//! behind a version prefix: `#v2.<base64url(zlib(payload))>`.
//!
//! - v2 (written): a self-describing payload ([`v2`]): fields are tagged by name, absent ones
//!   take their defaults, and a link from a newer model names what this build does not know.
//! - v1 (read only): the positional postcard form of the first builds ([`v1`]), in each of the
//!   layouts it had.
//!
//! Both keep the zlib checksum and the caps on link length and unpacked size. The corpus in
//! `tests/link_corpus/` holds links of every format ever shipped and is never regenerated.

mod cbor;
mod error;
mod limits;
mod packing;
mod prune;
mod record;
mod shared;
mod v1;
mod v1_layouts;
mod v2;

pub use error::LinkError;
pub use limits::{LINK_VERSION, MAX_DECOMPRESSED_BYTES, MAX_LINK_CHARS};
pub use record::RunRecord;
pub use shared::SharedLink;

use crate::format::Scenario;
use crate::validate::validate;

/// Encodes a scenario as `v2.<payload>` (no leading `#`), with no run record.
pub fn encode_link(s: &Scenario) -> String {
    encode_shared(s, None)
}

/// Encodes a scenario and, for a self-checking link, what its run showed.
pub fn encode_shared(s: &Scenario, record: Option<&RunRecord>) -> String {
    packing::pack(LINK_VERSION, &v2::to_bytes(s, record))
}

/// A full share URL for `base` (e.g. `http://127.0.0.1:8080/`).
pub fn share_url(base: &str, s: &Scenario) -> String {
    let base = base.split('#').next().unwrap_or(base);
    format!("{base}#{}", encode_link(s))
}

/// Decodes a link's scenario: accepts a full URL, `#v2.…`, `v2.…`, or a v1 link.
pub fn decode_link(text: &str) -> Result<Scenario, LinkError> {
    decode_shared(text).map(|l| l.scenario)
}

/// Decodes everything a link carries.
pub fn decode_shared(text: &str) -> Result<SharedLink, LinkError> {
    let (version, payload) = packing::split(text)?;
    let shared = match version {
        1 => SharedLink {
            scenario: v1::scenario_from_bytes(&packing::inflate(payload)?)?,
            model_version: None,
            record: None,
        },
        LINK_VERSION => v2::from_bytes(&packing::inflate(payload)?)?,
        v if v > LINK_VERSION => return Err(LinkError::FutureVersion(v)),
        v => return Err(LinkError::UnknownVersion(v)),
    };
    validate("link", &shared.scenario).map_err(|e| LinkError::Invalid(e.to_string()))?;
    Ok(shared)
}
