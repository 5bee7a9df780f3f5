//! The split table: the ranges of the regions splits and merges made, cut, grew or emptied,
//! kept beside the bootstrap layout's arithmetic so that a keyspace nobody split or merged
//! costs nothing more, at any scale.
//!
//! Each bootstrap ("base") region's key range is either untouched, and then the bootstrap
//! region of the same id still holds exactly those keys (arithmetic finds it), or touched,
//! and then `starts` alone says which regions hold its keys: a key's region is the one
//! starting at or before it. A merge can join regions of different bases, so a region's
//! range may cross bases; touching a range therefore touches every base it overlaps, which
//! keeps each region's range inside touched bases only or untouched ones only (then it is
//! that base's own bootstrap region).

use std::collections::{BTreeMap, BTreeSet};

use crate::keyspace::span::{Key, RegionSpan};

/// Ranges of the regions splits and merges reached.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct SplitTable {
    /// Start key of every non-empty placed region -> region. Placed regions cover every
    /// touched base, so within one the last start at or before a key is its region's.
    starts: BTreeMap<Key, u32>,
    /// Every region covering a touched base or made by a split; once placed, a region stays
    /// (a merged-away one with an empty span), so its span and version are never lost.
    placed: BTreeMap<u32, RegionSpan>,
    /// Touched bootstrap regions: base `b` is touched exactly when region `b` is placed.
    bases: BTreeSet<u32>,
    /// Regions merged away: gone, as TiKV destroys a merge's source, so never merged again
    /// (an empty span alone would not tell them from a split's empty part).
    merged: BTreeSet<u32>,
}

impl SplitTable {
    /// The region holding `key` if its base region is touched.
    pub(crate) fn region_in(&self, base: u32, key: Key) -> Option<u32> {
        if !self.bases.contains(&base) {
            return None;
        }
        self.starts.range(..=key).next_back().map(|(_, r)| *r)
    }

    /// The span of a placed region.
    pub(crate) fn span(&self, region: u32) -> Option<RegionSpan> {
        self.placed.get(&region).copied()
    }

    /// True when `region` was a merge's source.
    pub(crate) fn is_merged(&self, region: u32) -> bool {
        self.merged.contains(&region)
    }

    /// True when bootstrap region `base` is touched.
    pub(crate) fn is_touched(&self, base: u32) -> bool {
        self.bases.contains(&base)
    }

    /// True when a bootstrap region in `first..=last` is touched.
    pub(crate) fn any_touched_in(&self, first: u32, last: u32) -> bool {
        self.bases.range(first..=last).next().is_some()
    }

    /// Bootstrap region `base`, untouched until now, becomes touched: its own region, which
    /// still holds exactly its range (`span`), is placed there.
    pub(crate) fn touch(&mut self, base: u32, span: RegionSpan) {
        self.bases.insert(base);
        self.place(base, span);
    }

    /// The regions in `spans` now cover `range` (of placed regions), in place of the one
    /// placed region that covered it.
    pub(crate) fn replace(
        &mut self,
        (start, end): (Key, Key),
        spans: impl Iterator<Item = (u32, RegionSpan)>,
    ) {
        let stale: Vec<Key> = self.starts.range(start..end).map(|(k, _)| *k).collect();
        for k in stale {
            self.starts.remove(&k);
        }
        for (region, span) in spans {
            self.place(region, span);
        }
    }

    /// Placed, adjacent `source` and `target` merge: `target` covers both ranges with
    /// version `version`; `source` keeps its version and an empty span at its old start,
    /// so no key finds it but its last epoch stays readable.
    pub(crate) fn merge(&mut self, source: u32, target: u32, version: u64) {
        let (Some(s), Some(t)) = (self.span(source), self.span(target)) else {
            return;
        };
        self.unstart(s.start, source);
        self.unstart(t.start, target);
        let merged = RegionSpan {
            start: s.start.min(t.start),
            end: s.end.max(t.end),
            version,
        };
        self.place(target, merged);
        let emptied = RegionSpan { end: s.start, ..s };
        self.place(source, emptied);
        self.merged.insert(source);
    }

    /// A placed region's version becomes `version`; its range stays.
    pub(crate) fn set_version(&mut self, region: u32, version: u64) {
        if let Some(span) = self.placed.get_mut(&region) {
            span.version = version;
        }
    }

    /// `region` has `span` now (the caller has dropped its old start if it moved).
    fn place(&mut self, region: u32, span: RegionSpan) {
        if span.start < span.end {
            self.starts.insert(span.start, region);
        }
        self.placed.insert(region, span);
    }

    /// Drops `key` from `starts` if `region` starts there (an empty region starts nowhere,
    /// and another region may start at its key).
    fn unstart(&mut self, key: Key, region: u32) {
        if self.starts.get(&key) == Some(&region) {
            self.starts.remove(&key);
        }
    }
}
