//! HTTP content encodings for the release server and the size report: brotli where the
//! browser accepts it (Chromium, Firefox and Safari all send `br`, over plain HTTP to
//! localhost too), zlib-wrapped deflate otherwise. Brotli at its best quality takes about a
//! fifth off the deflated wasm (docs/bench.md, First visit), which on a slow link is about a
//! second of a first visit.

use std::io::Write;

/// A `Content-Encoding` the server can send.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Brotli,
    Deflate,
    Identity,
}

impl Encoding {
    /// The `Content-Encoding` header value; `None` for the identity.
    pub fn header(self) -> Option<&'static str> {
        match self {
            Encoding::Brotli => Some("br"),
            Encoding::Deflate => Some("deflate"),
            Encoding::Identity => None,
        }
    }
}

/// Brotli's best quality, as production servers precompress static files.
const BROTLI_QUALITY: u32 = 11;
/// Brotli's largest standard window (16 MiB): the wasm modules are over 1 MB, and a window
/// that covers the whole module finds the repeats far apart.
const BROTLI_WINDOW_LOG: u32 = 24;

/// `bytes` brotli-compressed at the best quality.
pub fn brotli(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() / 3);
    {
        let mut writer =
            brotli::CompressorWriter::new(&mut out, 64 * 1024, BROTLI_QUALITY, BROTLI_WINDOW_LOG);
        writer
            .write_all(bytes)
            .expect("writing to a Vec does not fail");
    }
    out
}

/// `bytes` as zlib-wrapped deflate (what HTTP calls `deflate`), best level.
pub fn deflate(bytes: &[u8]) -> Vec<u8> {
    miniz_oxide::deflate::compress_to_vec_zlib(bytes, 9)
}

/// The best encoding an `Accept-Encoding` header allows: `br`, then `deflate`, else none.
/// A coding with `q=0` is refused, as RFC 9110 section 12.5.3 says; `*` stands for any coding
/// not named.
pub fn negotiate(accept_encoding: &str) -> Encoding {
    let accepts = |name: &str| {
        let mut star = None;
        for item in accept_encoding.split(',') {
            let mut parts = item.split(';');
            let coding = parts.next().unwrap_or("").trim();
            let refused = parts.any(|p| {
                let p = p.trim();
                p.strip_prefix("q=")
                    .and_then(|q| q.trim().parse::<f32>().ok())
                    .is_some_and(|q| q == 0.0)
            });
            if coding.eq_ignore_ascii_case(name) {
                return !refused;
            }
            if coding == "*" {
                star = Some(!refused);
            }
        }
        star.unwrap_or(false)
    };
    if accepts("br") {
        Encoding::Brotli
    } else if accepts("deflate") {
        Encoding::Deflate
    } else {
        Encoding::Identity
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn brotli_is_preferred_and_q_zero_refuses_a_coding() {
        assert_eq!(negotiate("gzip, deflate, br, zstd"), Encoding::Brotli);
        assert_eq!(negotiate("gzip, deflate"), Encoding::Deflate);
        assert_eq!(negotiate("br;q=0, deflate"), Encoding::Deflate);
        assert_eq!(negotiate("br; q=0.0, deflate;q=0"), Encoding::Identity);
        assert_eq!(negotiate("BR;q=0.5"), Encoding::Brotli);
        assert_eq!(negotiate("*"), Encoding::Brotli);
        assert_eq!(negotiate("*, br;q=0"), Encoding::Deflate);
        assert_eq!(negotiate(""), Encoding::Identity);
        assert_eq!(negotiate("identity"), Encoding::Identity);
    }

    #[test]
    fn brotli_decompresses_back_and_beats_deflate_on_repetitive_text() {
        let text = "<div class=\"region\">tikv-1 leader</div>\n".repeat(2_000);
        let packed = brotli(text.as_bytes());
        let mut back = Vec::new();
        brotli::Decompressor::new(packed.as_slice(), 4096)
            .read_to_end(&mut back)
            .unwrap();
        assert_eq!(back, text.as_bytes());
        assert!(packed.len() < deflate(text.as_bytes()).len());
    }
}
