//! A fixed-length vector whose clones share storage until written: the per-peer state of a
//! 256,000-region world is about 170 MB, and the playground keeps a snapshot of the world every
//! few simulated seconds so a seek back replays little. A plain `Vec` clone copies all of it
//! (most of a second); a [`CowVec`] clone copies one pointer per chunk, and a chunk is copied
//! only when one of the clones first writes to it. Hibernated regions are never written, so
//! their chunks stay shared by every snapshot.
//!
//! Built whole (`From<Vec<T>>`, `FromIterator`) and grown only at the end (`push`, for the
//! peers of a region that splits off): a push copies the last chunk if it is short, so its
//! cost is one chunk at most.

use std::fmt;
use std::ops::{Index, IndexMut};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Elements `0..len` in chunks of `1 << SHIFT` (the last may be shorter), each behind an `Arc`
/// so clones share it. Reads cost one more pointer hop than a `Vec`; the first write to a
/// shared chunk copies that chunk (`Arc::make_mut`), later writes do not.
///
/// `Arc` rather than `Rc`: a world may be built on one thread and explored on another.
pub struct CowVec<T, const SHIFT: u32 = 4> {
    chunks: Vec<Arc<[T]>>,
    /// One bit per chunk, set once `Arc::make_mut` has made the chunk this vector's own and
    /// cleared by every clone. A write to a chunk whose bit is set skips `make_mut`: that call
    /// costs two atomic read-modify-writes on the chunk's reference count, and the count lives
    /// in the chunk's header, a cache line the write would not touch otherwise. At full scale
    /// every raft message writes a random peer, so that line was one more cache miss per
    /// message (`docs/bench.md`, "CowVec writes"). Atomic only so that `clone(&self)` can clear
    /// the bits; every access is `Relaxed`, a plain load or store.
    owned: Vec<AtomicU64>,
    len: usize,
}

impl<T, const SHIFT: u32> CowVec<T, SHIFT> {
    /// Elements per chunk.
    pub const CHUNK_LEN: usize = 1 << SHIFT;

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True if there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The element at `i`, or `None` past the end.
    pub fn get(&self, i: usize) -> Option<&T> {
        if i >= self.len {
            return None;
        }
        // SAFETY: every chunk but the last holds `CHUNK_LEN` elements and the last the rest
        // (`FromIterator` and `push` keep it so), so `i < len` puts chunk `i >> SHIFT` in
        // `chunks` and offset `i & (CHUNK_LEN - 1)` inside it. Unchecked because every tick
        // and raft message of a full-scale run indexes three of these vectors several times,
        // and the two bounds checks the length check implies were measurable there.
        Some(unsafe {
            self.chunks
                .get_unchecked(i >> SHIFT)
                .get_unchecked(i & (Self::CHUNK_LEN - 1))
        })
    }

    /// Loads one byte of each 64-byte line among the first `bytes` bytes of element `i`, so
    /// those lines come into cache (nothing past the end; see `cache_lines.rs`).
    #[inline]
    pub fn touch(&self, i: usize, bytes: usize) {
        if let Some(element) = self.get(i) {
            crate::cache_lines::load(element, bytes);
        }
    }

    /// All elements in order.
    pub fn iter(&self) -> impl Iterator<Item = &T> + '_ {
        self.chunks.iter().flat_map(|c| c.iter())
    }

    /// Number of chunks.
    pub fn chunk_count(&self) -> usize {
        self.chunks.len()
    }

    /// How many chunks `self` and `other` share (same storage, not merely equal values): what
    /// a snapshot costs in memory is the chunks it does not share with its neighbours.
    pub fn shared_chunks(&self, other: &Self) -> usize {
        self.chunks
            .iter()
            .zip(&other.chunks)
            .filter(|(a, b)| Arc::ptr_eq(a, b))
            .count()
    }

    /// Bytes of element storage one chunk holds (for memory reports).
    pub fn chunk_bytes() -> usize {
        Self::CHUNK_LEN * std::mem::size_of::<T>()
    }
}

impl<T: Clone, const SHIFT: u32> CowVec<T, SHIFT> {
    /// The element at `i` for writing, or `None` past the end. Copies its chunk first if a
    /// clone shares it.
    pub fn get_mut(&mut self, i: usize) -> Option<&mut T> {
        if i >= self.len {
            return None;
        }
        let (chunk, at) = (i >> SHIFT, i & (Self::CHUNK_LEN - 1));
        // SAFETY: as in `get`, `i < len` puts `chunk` in `chunks`, and `owned` has a bit for
        // every chunk (`unowned` and `push` size it so).
        let (word, c) = unsafe {
            (
                self.owned.get_unchecked(chunk / 64),
                self.chunks.get_unchecked_mut(chunk),
            )
        };
        let bit = 1u64 << (chunk % 64);
        if word.load(Ordering::Relaxed) & bit != 0 {
            let first = Arc::as_ptr(c) as *mut T;
            // SAFETY: the bit is set only after `Arc::make_mut` below left this `Arc` the sole
            // owner of its chunk, and only a clone of `self` can share the chunk again (the
            // `Arc`s never leave this type); `Clone::clone` clears every bit first. So the
            // chunk is still unshared, `at` is inside it (`i < len`), and `&mut self` rules
            // out any other borrow of it.
            return Some(unsafe { &mut *first.add(at) });
        }
        let slot = &mut Arc::make_mut(c)[at];
        word.fetch_or(bit, Ordering::Relaxed);
        Some(slot)
    }
}

impl<T: Clone, const SHIFT: u32> CowVec<T, SHIFT> {
    /// Appends `value`: into a new chunk if the last one is full, else into a copy of the
    /// last chunk (clones may share it, and an `Arc<[T]>` cannot grow in place).
    pub fn push(&mut self, value: T) {
        let last = self.chunks.len().checked_sub(1);
        match last.filter(|l| self.chunks[*l].len() < Self::CHUNK_LEN) {
            Some(l) => {
                let mut grown: Vec<T> = self.chunks[l].to_vec();
                grown.push(value);
                self.chunks[l] = grown.into();
                // A fresh `Arc`: not yet marked as this vector's own, `get_mut` will check.
                self.owned[l / 64].fetch_and(!(1u64 << (l % 64)), Ordering::Relaxed);
            }
            None => {
                self.chunks.push(Arc::from(vec![value]));
                if self.owned.len() * 64 < self.chunks.len() {
                    self.owned.push(AtomicU64::new(0));
                }
            }
        }
        self.len += 1;
    }
}

impl<T, const SHIFT: u32> Index<usize> for CowVec<T, SHIFT> {
    type Output = T;

    fn index(&self, i: usize) -> &T {
        match self.get(i) {
            Some(v) => v,
            None => panic!("index {i} out of range for a CowVec of length {}", self.len),
        }
    }
}

impl<T: Clone, const SHIFT: u32> IndexMut<usize> for CowVec<T, SHIFT> {
    fn index_mut(&mut self, i: usize) -> &mut T {
        let len = self.len;
        match self.get_mut(i) {
            Some(v) => v,
            None => panic!("index {i} out of range for a CowVec of length {len}"),
        }
    }
}

impl<T, const SHIFT: u32> Clone for CowVec<T, SHIFT> {
    /// O(chunks): every chunk is shared, none copied.
    fn clone(&self) -> Self {
        for word in &self.owned {
            word.store(0, Ordering::Relaxed);
        }
        CowVec {
            chunks: self.chunks.clone(),
            owned: unowned(self.chunks.len()),
            len: self.len,
        }
    }
}

impl<T, const SHIFT: u32> Default for CowVec<T, SHIFT> {
    fn default() -> Self {
        CowVec {
            chunks: Vec::new(),
            owned: Vec::new(),
            len: 0,
        }
    }
}

impl<T, const SHIFT: u32> From<Vec<T>> for CowVec<T, SHIFT> {
    fn from(v: Vec<T>) -> Self {
        v.into_iter().collect()
    }
}

impl<T, const SHIFT: u32> FromIterator<T> for CowVec<T, SHIFT> {
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Self {
        let mut chunks = Vec::new();
        let mut len = 0;
        let mut items = items.into_iter().peekable();
        while items.peek().is_some() {
            let chunk: Arc<[T]> = items.by_ref().take(Self::CHUNK_LEN).collect();
            len += chunk.len();
            chunks.push(chunk);
        }
        let owned = unowned(chunks.len());
        CowVec { chunks, owned, len }
    }
}

/// A cleared ownership bit for each of `chunks` chunks.
fn unowned(chunks: usize) -> Vec<AtomicU64> {
    (0..chunks.div_ceil(64))
        .map(|_| AtomicU64::new(0))
        .collect()
}

impl<T: fmt::Debug, const SHIFT: u32> fmt::Debug for CowVec<T, SHIFT> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: PartialEq, const SHIFT: u32> PartialEq for CowVec<T, SHIFT> {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.iter().eq(other.iter())
    }
}

impl<T: Eq, const SHIFT: u32> Eq for CowVec<T, SHIFT> {}

#[cfg(test)]
#[path = "cow_vec_tests.rs"]
mod tests;
