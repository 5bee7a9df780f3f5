//! The event queue: pending events ordered by (time, sequence number). The sequence number is
//! assigned at insertion, so events at the same instant run in the order they were scheduled,
//! on every platform.
//!
//! Two tiers: the events of the current time bucket (about 131 ms) are ready to pop, later
//! ones wait unsorted in one vector per bucket until their bucket comes. The order is exactly
//! one heap's (every current event is earlier than every waiting one); what changes is the
//! cost. A changefeed over the 256,000-region cluster schedules each store's incremental scans
//! up to 30 s ahead, about 240,000 timers: in one heap every pop walked 18 levels of cache
//! misses (`BinaryHeap::pop` was 16% of that run).
//!
//! The current bucket is itself two parts: the events that waited for it, sorted once when it
//! comes (a sort walks memory in order; popping the same keys off a heap cost 11% of the
//! changefeed's first 40 s, about 6,500 keys a bucket), and a small heap of the events
//! scheduled into it since. A pop takes the earlier of the two heads.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BinaryHeap};

use crate::time::SimTime;

/// A bucket is 2^17 µs (about 131 ms) of simulated time.
const BUCKET_SHIFT: u32 = 17;

/// The bucket of a time.
fn bucket(at: SimTime) -> u64 {
    at.as_micros() >> BUCKET_SHIFT
}

/// What the tiers order: an event's time, its sequence number and where it waits in the
/// slab. The events themselves stay put: an event of the full TiDB model is 80 bytes (its
/// rare large messages are boxed), and a heap of events moved each one about log2(n) times
/// on every push and pop (the heap's pop was 4% of the wasm build's time at full scale,
/// against 1% natively).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Key {
    at: SimTime,
    seq: u64,
    slot: u32,
}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Key {
    fn cmp(&self, other: &Self) -> Ordering {
        // Reversed: BinaryHeap is a max-heap, we want the earliest first. Sequence numbers
        // are unique, so the slot never decides.
        (other.at, other.seq).cmp(&(self.at, self.seq))
    }
}

/// Pending events, earliest first.
#[derive(Clone)]
pub struct EventQueue<E> {
    /// The events that waited for the current bucket, latest first (popped from the end).
    sorted: Vec<Key>,
    /// The events of buckets up to `horizon` scheduled since it came. With `sorted`, never
    /// both empty while `later` holds any.
    heap: BinaryHeap<Key>,
    /// The events of buckets after `horizon`, unsorted, by bucket.
    later: BTreeMap<u64, Vec<Key>>,
    /// The last bucket whose events go straight to the heap.
    horizon: u64,
    /// The events, by slot; `None` for a free slot.
    slab: Vec<Option<E>>,
    /// Free slots, reused before the slab grows.
    free: Vec<u32>,
    next_seq: u64,
    /// Free slots at and above which, once they are most of the slab, it is compacted.
    compact_min: usize,
}

/// Sorted events whose slots are loaded together ([`EventQueue::warm_next`]).
const WARM_BLOCK: usize = 8;

/// Free slots that make compacting the slab worth it (see [`EventQueue::next_bucket`]).
const COMPACT_MIN_FREE: usize = 4_096;

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue {
            sorted: Vec::new(),
            heap: BinaryHeap::new(),
            later: BTreeMap::new(),
            horizon: 0,
            slab: Vec::new(),
            free: Vec::new(),
            next_seq: 0,
            compact_min: COMPACT_MIN_FREE,
        }
    }
}

impl<E> EventQueue<E> {
    /// Schedules `event` at `at`; returns its sequence number.
    pub fn push(&mut self, at: SimTime, event: E) -> u64 {
        let seq = self.next_seq;
        self.next_seq += 1;
        let slot = match self.free.pop() {
            Some(slot) => {
                self.slab[slot as usize] = Some(event);
                slot
            }
            None => {
                self.slab.push(Some(event));
                (self.slab.len() - 1) as u32
            }
        };
        let key = Key { at, seq, slot };
        let b = bucket(at);
        if self.current_is_empty() && b > self.horizon {
            // Nothing pending (an empty current bucket means an empty `later`): it moves on.
            self.horizon = b;
        }
        if b <= self.horizon {
            self.heap.push(key);
        } else {
            self.later.entry(b).or_default().push(key);
        }
        seq
    }

    fn current_is_empty(&self) -> bool {
        self.sorted.is_empty() && self.heap.is_empty()
    }

    /// The earliest key of the current bucket, and whether it is the sorted part's.
    fn head(&self) -> Option<(Key, bool)> {
        match (self.sorted.last(), self.heap.peek()) {
            // `Key`'s order is reversed: the greater key is the earlier event.
            (Some(&s), Some(&h)) => Some(if s > h { (s, true) } else { (h, false) }),
            (Some(&s), None) => Some((s, true)),
            (None, h) => h.map(|&h| (h, false)),
        }
    }

    /// Time of the earliest pending event.
    pub fn peek_time(&self) -> Option<SimTime> {
        self.head().map(|(k, _)| k.at)
    }

    /// Removes the earliest event with its time and sequence number.
    pub fn pop(&mut self) -> Option<(SimTime, u64, E)> {
        let (key, from_sorted) = self.head()?;
        if from_sorted {
            self.sorted.pop();
            if self.sorted.len().is_multiple_of(WARM_BLOCK) {
                self.warm_next();
            }
        } else {
            self.heap.pop();
        }
        let event = self.slab[key.slot as usize]
            .take()
            .expect("a queued key's slot holds its event");
        self.free.push(key.slot);
        if self.current_is_empty() {
            self.next_bucket();
        }
        Some((key.at, key.seq, event))
    }

    /// Loads the cache lines of the next [`WARM_BLOCK`] sorted events' slots
    /// (`cache_lines.rs`), so their cache misses overlap instead of coming one pop at a
    /// time: the sorted events were written up to a bucket earlier and are rarely still in
    /// cache.
    #[inline]
    fn warm_next(&self) {
        for k in self.sorted.iter().rev().take(WARM_BLOCK) {
            crate::cache_lines::load(&self.slab[k.slot as usize], usize::MAX);
        }
    }

    /// The current bucket ran dry: the earliest waiting one comes, sorted. Then, if most of the
    /// slab is free, it is compacted: the slab keeps its high-water mark otherwise, and a
    /// playground snapshot copies every slot (the changefeed's start at full scale queues
    /// 537,000 events, of which 250,000 are left a few seconds later).
    fn next_bucket(&mut self) {
        if let Some((b, mut keys)) = self.later.pop_first() {
            self.horizon = b;
            // Ascending by `Key`'s reversed order: latest first. Sequence numbers are unique,
            // so an unstable sort gives one order on every platform.
            keys.sort_unstable();
            self.sorted = keys;
            self.warm_next();
        }
        if self.free.len() >= self.compact_min && 2 * self.free.len() > self.slab.len() {
            self.compact();
        }
    }

    /// Moves the events to the front of a new slab, in slot order, and points their keys at
    /// the new slots. Keys keep their time and sequence number, so the order is unchanged.
    fn compact(&mut self) {
        let mut moved = vec![u32::MAX; self.slab.len()];
        let mut slab = Vec::with_capacity(self.slab.len() - self.free.len());
        for (old, event) in self.slab.drain(..).enumerate() {
            if let Some(e) = event {
                moved[old] = slab.len() as u32;
                slab.push(Some(e));
            }
        }
        let fix = |k: Key| Key {
            slot: moved[k.slot as usize],
            ..k
        };
        let heap: Vec<Key> = std::mem::take(&mut self.heap).into_vec();
        self.heap = heap.into_iter().map(fix).collect();
        self.sorted.iter_mut().for_each(|k| *k = fix(*k));
        for keys in self.later.values_mut() {
            keys.iter_mut().for_each(|k| *k = fix(*k));
        }
        self.slab = slab;
        self.free.clear();
    }

    /// Number of pending events.
    pub fn len(&self) -> usize {
        let later: usize = self.later.values().map(Vec::len).sum();
        self.sorted.len() + self.heap.len() + later
    }

    /// True when nothing is pending.
    pub fn is_empty(&self) -> bool {
        self.current_is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn orders_by_time_then_insertion() {
        let mut q = EventQueue::default();
        q.push(SimTime(5), "late");
        q.push(SimTime(1), "first");
        q.push(SimTime(1), "second");
        let order: Vec<&str> = std::iter::from_fn(|| q.pop().map(|e| e.2)).collect();
        assert_eq!(order, ["first", "second", "late"]);
    }

    /// Slots freed by pops are reused, and a reused slot does not change the order: it is
    /// still by time, then by insertion.
    #[test]
    fn reused_slots_keep_the_order_by_time_then_insertion() {
        let mut q = EventQueue::default();
        for (at, name) in [(3, "c"), (1, "a"), (2, "b")] {
            q.push(SimTime(at), name);
        }
        assert_eq!(q.pop().map(|e| e.2), Some("a"));
        q.push(SimTime(2), "b2");
        q.push(SimTime(0), "zero");
        assert_eq!(q.slab.len(), 4, "one freed slot reused, one new");
        let order: Vec<&str> = std::iter::from_fn(|| q.pop().map(|e| e.2)).collect();
        assert_eq!(order, ["zero", "b", "b2", "c"]);
        assert!(q.is_empty());
    }

    /// An operation on the queue: push at a time offset from the last popped time (possibly
    /// far ahead, possibly before it), or pop.
    #[derive(Clone, Debug)]
    enum Op {
        Push(i64),
        Pop,
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            3 => (-300_000i64..2_000_000).prop_map(Op::Push),
            1 => (0i64..60_000_000).prop_map(Op::Push),
            3 => Just(Op::Pop),
        ]
    }

    proptest! {
        /// The two tiers pop exactly what one sorted list of (time, sequence) would, in the
        /// same order, whatever the mix of near, far and past pushes and pops.
        #[test]
        fn pops_in_time_then_insertion_order(ops in proptest::collection::vec(op(), 0..400)) {
            // Compacting whenever most of the slab is free.
            let mut q = EventQueue {
                compact_min: 2,
                ..EventQueue::default()
            };
            let mut reference: Vec<(u64, u64, usize)> = Vec::new();
            let mut last = 0u64;
            for (i, o) in ops.into_iter().enumerate() {
                match o {
                    Op::Push(d) => {
                        let at = last.saturating_add_signed(d);
                        let seq = q.push(SimTime(at), i);
                        reference.push((at, seq, i));
                    }
                    Op::Pop => {
                        reference.sort();
                        let want = (!reference.is_empty()).then(|| reference.remove(0));
                        let got = q.pop().map(|(at, seq, e)| (at.as_micros(), seq, e));
                        prop_assert_eq!(got, want);
                        if let Some((at, _, _)) = got {
                            last = at;
                        }
                    }
                }
                prop_assert_eq!(q.len(), reference.len());
                reference.sort();
                prop_assert_eq!(q.peek_time().map(|t| t.as_micros()), reference.first().map(|r| r.0));
            }
        }
    }
}
