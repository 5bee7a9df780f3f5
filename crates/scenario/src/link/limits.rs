//! The link format's numbers: the version this build writes, and the caps on a link's length
//! and on what it unpacks to.

/// The link format this build writes. It also reads every older one.
pub const LINK_VERSION: u32 = 2;
/// Longest link payload accepted, in characters.
pub const MAX_LINK_CHARS: usize = 64 * 1024;
/// Largest decompressed scenario, in bytes.
pub const MAX_DECOMPRESSED_BYTES: usize = 256 * 1024;
