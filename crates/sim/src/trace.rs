//! The trace hash: every processed event, every log line and every metrics sample is folded, as
//! a canonical sequence of 64-bit words, into one 64-bit hash. Two runs with equal hashes
//! processed the same events in the same order at the same times with the same payloads, wrote
//! the same log lines and sampled the same series: what a user can see of a run.

/// Anything that can be folded into the trace.
pub trait TraceEncode {
    /// Feeds a canonical encoding of `self` (fixed field order, no addresses) to `h`.
    fn encode(&self, h: &mut TraceHasher);
}

/// A 64-bit streaming hash over words (a multiply-xorshift mix; fixed, documented, portable).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceHasher {
    state: u64,
}

impl Default for TraceHasher {
    fn default() -> Self {
        TraceHasher {
            state: 0x9e37_79b9_7f4a_7c15,
        }
    }
}

impl TraceHasher {
    /// Folds one word.
    #[inline]
    pub fn word(&mut self, w: u64) {
        let mut x = self.state ^ w.wrapping_mul(0xff51_afd7_ed55_8ccd);
        x = x.rotate_left(29).wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        self.state = x ^ (x >> 32);
    }

    /// Folds bytes (length first, so `"ab","c"` differs from `"a","bc"`).
    pub fn bytes(&mut self, b: &[u8]) {
        self.word(b.len() as u64);
        for chunk in b.chunks(8) {
            let mut buf = [0u8; 8];
            buf[..chunk.len()].copy_from_slice(chunk);
            self.word(u64::from_le_bytes(buf));
        }
    }

    /// The hash so far.
    pub fn finish(&self) -> u64 {
        self.state
    }
}

impl TraceEncode for u64 {
    fn encode(&self, h: &mut TraceHasher) {
        h.word(*self)
    }
}

impl TraceEncode for u32 {
    fn encode(&self, h: &mut TraceHasher) {
        h.word(*self as u64)
    }
}

impl TraceEncode for () {
    fn encode(&self, _h: &mut TraceHasher) {}
}

impl<T: TraceEncode> TraceEncode for Vec<T> {
    fn encode(&self, h: &mut TraceHasher) {
        h.word(self.len() as u64);
        for x in self {
            x.encode(h);
        }
    }
}

/// Formats a trace hash the way the CLI and the page show it: 16 lower-case hex digits.
pub fn format_hash(h: u64) -> String {
    format!("{h:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_and_content_matter() {
        let mut a = TraceHasher::default();
        a.word(1);
        a.word(2);
        let mut b = TraceHasher::default();
        b.word(2);
        b.word(1);
        assert_ne!(a.finish(), b.finish());
        let mut c = TraceHasher::default();
        c.bytes(b"ab");
        c.bytes(b"c");
        let mut d = TraceHasher::default();
        d.bytes(b"a");
        d.bytes(b"bc");
        assert_ne!(c.finish(), d.finish());
        assert_eq!(format_hash(0xab), "00000000000000ab");
    }
}
