//! Growing the WebAssembly heap in one step before a large world is built.
//!
//! Rust's allocator on wasm32 (dlmalloc) takes memory with `memory.grow` only as its heap runs
//! out, 64 KiB pages at a time, so building the 256,000-region world (about 400 MiB) grew the
//! memory thousands of times; V8 hands out a new `ArrayBuffer` for each grow and collects the
//! old ones. A Node.js CPU profile of the wasm benchmark (2 simulated minutes, 6.6 s) put 0.88 s
//! in dlmalloc's system allocation, all under the world build, and 0.47 s in V8's garbage
//! collector. Allocating one block of the world's size first and freeing it at once leaves
//! dlmalloc a heap that size (a freed block at the top of the heap stays with the allocator:
//! wasm memory never shrinks), so the build grows the memory once.

/// Below this a world builds fast enough; no block is reserved.
const MIN_RESERVE: usize = 16 << 20;

/// On wasm32, makes sure the heap can hold `bytes` more without growing the memory again (at
/// most one `memory.grow`); elsewhere, and for less than 16 MiB, nothing. If the memory cannot
/// grow that far the heap is left as it was and allocations grow it as they go.
pub fn reserve(bytes: usize) {
    #[cfg(target_arch = "wasm32")]
    if bytes >= MIN_RESERVE {
        let mut block = Vec::<u8>::new();
        // A failure leaves `block` empty, which is fine: this is only a head start.
        let _ = block.try_reserve_exact(bytes);
        // `black_box` keeps the optimiser from removing the allocation with its free.
        drop(std::hint::black_box(block));
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (bytes, MIN_RESERVE);
}
