//! The split table: the ranges of the regions splits made or cut, kept beside the bootstrap
//! layout's arithmetic so that a keyspace nobody split costs nothing more, at any scale.
//! Every split region lies inside one bootstrap ("base") region, so a key's region is its
//! base region unless that one split, and then the split region starting at or before it.

use std::collections::{BTreeMap, BTreeSet};

use crate::keyspace::span::{Key, RegionSpan};

/// A split region's span and the bootstrap region it lies in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Placed {
    span: RegionSpan,
    base: u32,
}

/// Ranges of split regions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct SplitTable {
    /// Start key of every non-empty region inside a split base region -> region.
    starts: BTreeMap<Key, u32>,
    /// Every region a split made or cut.
    placed: BTreeMap<u32, Placed>,
    /// Bootstrap regions that split.
    bases: BTreeSet<u32>,
}

impl SplitTable {
    /// The region holding `key` if its base region split.
    pub(crate) fn region_in(&self, base: u32, key: Key) -> Option<u32> {
        if !self.bases.contains(&base) {
            return None;
        }
        self.starts.range(..=key).next_back().map(|(_, r)| *r)
    }

    /// The span of a region a split made or cut.
    pub(crate) fn span(&self, region: u32) -> Option<RegionSpan> {
        self.placed.get(&region).map(|p| p.span)
    }

    /// The bootstrap region `region` lies in.
    pub(crate) fn base_of(&self, region: u32) -> u32 {
        self.placed.get(&region).map_or(region, |p| p.base)
    }

    /// True when bootstrap region `base` split.
    pub(crate) fn is_split(&self, base: u32) -> bool {
        self.bases.contains(&base)
    }

    /// True when a bootstrap region in `first..=last` split.
    pub(crate) fn any_split_in(&self, first: u32, last: u32) -> bool {
        self.bases.range(first..=last).next().is_some()
    }

    /// The regions in `spans` now cover `range` (inside bootstrap region `base`), in place of
    /// the one region that covered it.
    pub(crate) fn replace(
        &mut self,
        base: u32,
        (start, end): (Key, Key),
        spans: impl Iterator<Item = (u32, RegionSpan)>,
    ) {
        self.bases.insert(base);
        let stale: Vec<Key> = self.starts.range(start..end).map(|(k, _)| *k).collect();
        for k in stale {
            self.starts.remove(&k);
        }
        for (region, span) in spans {
            if span.start < span.end {
                self.starts.insert(span.start, region);
            }
            self.placed.insert(region, Placed { span, base });
        }
    }
}
