//! Share links: scenario -> canonical compact binary (postcard) -> zlib -> base64url, behind a
//! version prefix: `#v1.<payload>`.
//!
//! zlib (not raw deflate) so the Adler-32 checksum catches a corrupted link. Decoding caps both
//! the link length and the decompressed size, so a hostile link cannot exhaust memory.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

use crate::format::Scenario;
use crate::validate::validate;

/// The version this build writes and reads.
pub const LINK_VERSION: u32 = 1;
/// Longest link payload accepted, in characters.
pub const MAX_LINK_CHARS: usize = 64 * 1024;
/// Largest decompressed scenario, in bytes.
pub const MAX_DECOMPRESSED_BYTES: usize = 256 * 1024;

/// Why a link could not be opened.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LinkError {
    /// No `v<N>.` prefix.
    #[error(
        "this is not a Faultline scenario link (it should contain `#v1.` followed by the scenario)"
    )]
    NotALink,
    /// A newer format.
    #[error("this link was made by a newer Faultline (link format v{0}); this version reads v{LINK_VERSION}. Open it with a newer build.")]
    FutureVersion(u32),
    /// An older, no longer supported format.
    #[error("this link uses link format v{0}, which this version no longer reads (it reads v{LINK_VERSION})")]
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
    /// The scenario decodes but breaks the rules.
    #[error("{0}")]
    Invalid(String),
}

/// Encodes a scenario as `v1.<payload>` (no leading `#`).
pub fn encode_link(s: &Scenario) -> String {
    let bytes = postcard::to_allocvec(s).expect("scenario types always serialise");
    let packed = miniz_oxide::deflate::compress_to_vec_zlib(&bytes, 9);
    format!("v{LINK_VERSION}.{}", URL_SAFE_NO_PAD.encode(packed))
}

/// A full share URL for `base` (e.g. `http://127.0.0.1:8080/`).
pub fn share_url(base: &str, s: &Scenario) -> String {
    let base = base.split('#').next().unwrap_or(base);
    format!("{base}#{}", encode_link(s))
}

/// Decodes a link: accepts a full URL, `#v1.…`, or `v1.…`.
pub fn decode_link(text: &str) -> Result<Scenario, LinkError> {
    let text = text.trim();
    let frag = match text.rfind('#') {
        Some(i) => &text[i + 1..],
        None => text,
    };
    let (version, payload) = split_version(frag)?;
    match version {
        LINK_VERSION => {}
        v if v > LINK_VERSION => return Err(LinkError::FutureVersion(v)),
        v => return Err(LinkError::UnknownVersion(v)),
    }
    if payload.len() > MAX_LINK_CHARS {
        return Err(LinkError::TooLong(payload.len()));
    }
    if let Some((i, ch)) = payload
        .chars()
        .enumerate()
        .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '-' || *c == '_'))
    {
        return Err(LinkError::BadCharacter {
            position: i + 1,
            ch,
        });
    }
    let packed = URL_SAFE_NO_PAD
        .decode(payload)
        .map_err(|e| LinkError::Corrupted(e.to_string()))?;
    let bytes =
        miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(&packed, MAX_DECOMPRESSED_BYTES)
            .map_err(|e| match e.status {
                miniz_oxide::inflate::TINFLStatus::HasMoreOutput => LinkError::TooLarge,
                s => LinkError::Corrupted(format!("{s:?}")),
            })?;
    let (scenario, rest): (Scenario, &[u8]) =
        postcard::take_from_bytes(&bytes).map_err(|e| LinkError::BadScenario(e.to_string()))?;
    if !rest.is_empty() {
        return Err(LinkError::BadScenario(format!(
            "{} unexpected bytes after the scenario",
            rest.len()
        )));
    }
    validate("link", &scenario).map_err(|e| LinkError::Invalid(e.to_string()))?;
    Ok(scenario)
}

fn split_version(frag: &str) -> Result<(u32, &str), LinkError> {
    let rest = frag.strip_prefix('v').ok_or(LinkError::NotALink)?;
    let (num, payload) = rest.split_once('.').ok_or(LinkError::NotALink)?;
    if num.is_empty() || num.len() > 9 || !num.bytes().all(|b| b.is_ascii_digit()) {
        return Err(LinkError::NotALink);
    }
    let v: u32 = num.parse().map_err(|_| LinkError::NotALink)?;
    Ok((v, payload))
}
