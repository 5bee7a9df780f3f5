//! The KV client's tracked spans in key order: what a table's puller frontier is made of.
//!
//! tiflow keeps one span frontier per table (`cdc/puller/frontier/frontier.go`): the table's
//! key range starts at the checkpoint, each region's resolved-ts event forwards the sub-span
//! the region was subscribed with, and a sub-span nobody forwards keeps its last ts. So a
//! region the client still holds under an old range (it split or merged and the client has
//! not heard yet, or its registration was never answered) holds the table back, and so does
//! a part of the range no subscription covers. The model reads the frontier off the tracked
//! spans: this index finds the ones overlapping a table's keys without walking every region.

use std::collections::BTreeMap;

use crate::keyspace::{Key, RegionSpan};

/// Tracked regions by the first key of the span they were subscribed with.
#[derive(Clone, Debug, Default)]
pub struct TrackedSpans {
    /// (start, region) -> end.
    by_start: BTreeMap<(Key, u32), Key>,
    /// The longest span ever tracked: a span overlapping `[a, b)` starts at or after
    /// `a - longest` (it never shrinks, so the bound stays safe as spans come and go).
    longest: Key,
    /// Key ranges of spans tracked or released since the last [`TrackedSpans::take_moved`]:
    /// the tables they overlap must recompute their frontiers.
    moved: Vec<(Key, Key)>,
}

impl TrackedSpans {
    /// `region` is tracked with `span`.
    pub fn insert(&mut self, region: u32, span: RegionSpan) {
        self.by_start.insert((span.start, region), span.end);
        self.longest = self.longest.max(span.end.saturating_sub(span.start));
        self.moved.push((span.start, span.end));
    }

    /// `region`'s tracking with `span` ended.
    pub fn remove(&mut self, region: u32, span: RegionSpan) {
        self.by_start.remove(&(span.start, region));
        self.moved.push((span.start, span.end));
    }

    /// Every span released (the client was reset).
    pub fn clear(&mut self) {
        let spans = std::mem::take(&mut self.by_start);
        self.moved
            .extend(spans.into_iter().map(|((start, _), end)| (start, end)));
    }

    /// The key ranges tracked or released since the last call.
    pub fn take_moved(&mut self) -> Vec<(Key, Key)> {
        std::mem::take(&mut self.moved)
    }

    /// The non-empty tracked spans overlapping `[a, b)`, by start key: `(start, end, region)`.
    pub fn overlapping(&self, a: Key, b: Key) -> impl Iterator<Item = (Key, Key, u32)> + '_ {
        let from = (a.saturating_sub(self.longest), 0);
        self.by_start
            .range(from..(b, 0))
            .map(|(&(start, region), &end)| (start, end, region))
            .filter(move |&(start, end, _)| start < end && end > a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(start: Key, end: Key) -> RegionSpan {
        RegionSpan {
            start,
            end,
            version: 1,
        }
    }

    #[test]
    fn a_long_stale_span_before_the_range_still_overlaps_it() {
        let mut s = TrackedSpans::default();
        s.insert(7, span(0, 300));
        s.insert(8, span(50, 80));
        s.insert(9, span(300, 400));
        let hits: Vec<u32> = s.overlapping(100, 200).map(|(_, _, r)| r).collect();
        assert_eq!(
            hits,
            vec![7],
            "the short span ending at 80 does not reach 100"
        );
        s.remove(7, span(0, 300));
        assert_eq!(s.overlapping(100, 200).count(), 0);
        assert_eq!(s.take_moved().len(), 4);
        assert!(s.take_moved().is_empty());
    }
}
