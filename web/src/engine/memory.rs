//! How much memory the engine holds, so snapshots stay inside what a tab can have.
//!
//! A wasm32 instance addresses at most 4 GiB, and running out there is no panic: the
//! allocator's failure traps the worker, and the page is left saying "seeking". The
//! snapshot budget is a count ([`crate::engine::snapshots::Snapshots::budget_for`]) sized for
//! TiKV's full-scale scenario, about 140 MB a snapshot; with a changefeed over the same
//! cluster a snapshot holds the TiCDC state too (the KV clients', the endpoints' and the
//! versions kept for scans), about 400 MB, and sixteen of them need 6.4 GB. So the live
//! bytes are counted here, on every allocation, and the snapshots give way above
//! [`CEILING_BYTES`]: snapshots are caches, so which ones are held changes only how long a
//! seek takes, never what it shows.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Live heap bytes above which no snapshot is taken without dropping others first: 2.5 GiB
/// leaves a wasm32 instance room for one more full-scale copy being made (about 400 MB with
/// a changefeed) and the allocator's own overhead below its 4 GiB.
pub const CEILING_BYTES: usize = 5 << 29;

/// The system allocator, counting the bytes it holds.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call goes to the system allocator with the same arguments; the counter only
// observes sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as is.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as is.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded as is.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded as is.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            LIVE.fetch_add(new_size, Ordering::Relaxed);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Heap bytes allocated and not yet freed, in the whole process (the worker, in the browser).
pub fn live_bytes() -> usize {
    LIVE.load(Ordering::Relaxed)
}
