//! Bringing a value's cache lines in ahead of the work on it. A tight loop of such loads over a
//! block of values has the CPU wait for all their cache misses at once, where the work on each
//! value would wait for them one by one. Plain loads, so it works on wasm32, which has no
//! prefetch instruction.

use std::mem::MaybeUninit;

/// Loads one byte of each 64-byte line among the first `bytes` bytes of `value` (nothing past
/// its end).
#[inline]
pub(crate) fn load<T>(value: &T, bytes: usize) {
    let first = (value as *const T).cast::<MaybeUninit<u8>>();
    for line in 0..bytes.min(std::mem::size_of::<T>()).div_ceil(64) {
        // SAFETY: the address stays inside `value`, a live value, and the byte is read as
        // `MaybeUninit`, so padding is fine. Volatile, so the load is not optimised away
        // though nothing uses its value.
        std::hint::black_box(unsafe { std::ptr::read_volatile(first.add(line * 64)) });
    }
}
