//! The layers every link format shares: `v<N>.` + base64url(zlib(bytes)).
//!
//! zlib (not raw deflate) so the Adler-32 checksum catches a corrupted link. Unpacking caps both
//! the link length and the decompressed size, so a hostile link cannot exhaust memory.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

use super::error::LinkError;
use super::limits::{MAX_DECOMPRESSED_BYTES, MAX_LINK_CHARS};

/// `v<version>.<base64url(zlib(bytes))>`.
pub(crate) fn pack(version: u32, bytes: &[u8]) -> String {
    let packed = miniz_oxide::deflate::compress_to_vec_zlib(bytes, 10);
    format!("v{version}.{}", URL_SAFE_NO_PAD.encode(packed))
}

/// Splits a full URL, `#v2.…` or `v2.…` into its format version and payload text.
pub(crate) fn split(text: &str) -> Result<(u32, &str), LinkError> {
    let text = text.trim();
    let frag = match text.rfind('#') {
        Some(i) => &text[i + 1..],
        None => text,
    };
    // The page's URLs carry the cursor after the link (`#v2.…&t=40`); `&` cannot occur in
    // base64url, so everything from it on is not the link.
    let frag = frag.split('&').next().unwrap_or(frag);
    split_version(frag)
}

/// Unpacks a payload (base64url of zlib) into bytes, within the caps.
pub(crate) fn inflate(payload: &str) -> Result<Vec<u8>, LinkError> {
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
        .map_err(|e| LinkError::Corrupted(decode_failure(&e).to_string()))?;
    miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(&packed, MAX_DECOMPRESSED_BYTES)
        .map_err(|e| match e.status {
            miniz_oxide::inflate::TINFLStatus::HasMoreOutput => LinkError::TooLarge,
            s => LinkError::Corrupted(inflate_failure(s).to_string()),
        })
}

/// Why the link's characters do not decode, in words: the base64 decoder's own message
/// ("Invalid last symbol 79, offset 61.") names bytes and offsets a reader cannot act on.
/// Bad characters are caught before decoding, so what is left is a link cut or edited at its end.
fn decode_failure(e: &base64::DecodeError) -> &'static str {
    match e {
        base64::DecodeError::InvalidLength(_) | base64::DecodeError::InvalidLastSymbol(..) => {
            "it ends in the middle of a character group: the end of the link is missing or was edited"
        }
        _ => "its characters do not decode: the link was edited",
    }
}

/// Why the compressed scenario did not unpack, in words (never the decoder's enum name).
fn inflate_failure(status: miniz_oxide::inflate::TINFLStatus) -> &'static str {
    use miniz_oxide::inflate::TINFLStatus;
    match status {
        TINFLStatus::FailedCannotMakeProgress | TINFLStatus::NeedsMoreInput => {
            "it ends too early: part of the link is missing"
        }
        TINFLStatus::Adler32Mismatch => "its checksum does not match: the link was edited",
        _ => "the compressed data is damaged",
    }
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
