//! A map keyed by region id, stored densely: the model's region ids are indexes into TiKV's
//! region list (0 up to the regions ever created), so a slot per id costs no more memory
//! than a tree at full scale and a lookup is one load instead of a cache miss per tree level.
//! The KV client looks a region up on every event it receives, 256,000 of them a second at
//! full scale. Iteration is in id order, as a `BTreeMap`'s.

use std::ops::{Index, RangeInclusive};

/// Values by region id, iterated in id order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionMap<V> {
    slots: Vec<Option<V>>,
    len: usize,
}

impl<V> Default for RegionMap<V> {
    fn default() -> Self {
        RegionMap {
            slots: Vec::new(),
            len: 0,
        }
    }
}

impl<V> RegionMap<V> {
    /// The value of `region`, if any.
    pub fn get(&self, region: &u32) -> Option<&V> {
        self.slots.get(*region as usize)?.as_ref()
    }

    /// The value of `region`, mutably.
    pub fn get_mut(&mut self, region: &u32) -> Option<&mut V> {
        self.slots.get_mut(*region as usize)?.as_mut()
    }

    /// True if `region` has a value.
    pub fn contains_key(&self, region: &u32) -> bool {
        self.get(region).is_some()
    }

    /// Sets `region`'s value, returning the one it replaces.
    pub fn insert(&mut self, region: u32, value: V) -> Option<V> {
        let i = region as usize;
        if i >= self.slots.len() {
            self.slots.resize_with(i + 1, || None);
        }
        let old = self.slots[i].replace(value);
        self.len += usize::from(old.is_none());
        old
    }

    /// Removes `region`'s value and returns it.
    pub fn remove(&mut self, region: &u32) -> Option<V> {
        let old = self.slots.get_mut(*region as usize)?.take();
        self.len -= usize::from(old.is_some());
        old
    }

    /// How many regions have a value.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True if no region has a value.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Removes every value.
    pub fn clear(&mut self) {
        self.slots.clear();
        self.len = 0;
    }

    /// Every region with its value, in id order.
    pub fn iter(&self) -> impl Iterator<Item = (u32, &V)> + '_ {
        self.range(0..=u32::MAX)
    }

    /// The regions in `ids` with their values, in id order.
    pub fn range(&self, ids: RangeInclusive<u32>) -> impl Iterator<Item = (u32, &V)> + '_ {
        let end = (*ids.end() as usize)
            .saturating_add(1)
            .min(self.slots.len());
        let start = (*ids.start() as usize).min(end);
        let slots = self.slots[start..end].iter();
        (start as u32..)
            .zip(slots)
            .filter_map(|(id, v)| Some((id, v.as_ref()?)))
    }

    /// Takes every region out, in id order, leaving the map empty.
    pub fn take_keys(&mut self) -> Vec<u32> {
        let keys = self.keys().collect();
        self.clear();
        keys
    }

    /// Every region that has a value, in id order.
    pub fn keys(&self) -> impl Iterator<Item = u32> + '_ {
        self.iter().map(|(id, _)| id)
    }

    /// Every value, in region id order.
    pub fn values(&self) -> impl Iterator<Item = &V> + '_ {
        self.iter().map(|(_, v)| v)
    }
}

impl<V> Index<&u32> for RegionMap<V> {
    type Output = V;

    fn index(&self, region: &u32) -> &V {
        self.get(region).expect("region in the map")
    }
}

/// A set of region ids, one bit each, iterated in id order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RegionSet {
    words: Vec<u64>,
}

impl RegionSet {
    /// Adds `region`.
    pub fn insert(&mut self, region: u32) {
        let (w, bit) = ((region / 64) as usize, region % 64);
        if w >= self.words.len() {
            self.words.resize(w + 1, 0);
        }
        self.words[w] |= 1 << bit;
    }

    /// Adds every region of `regions`.
    pub fn extend(&mut self, regions: impl IntoIterator<Item = u32>) {
        regions.into_iter().for_each(|r| self.insert(r));
    }

    /// Takes every region out, in id order, leaving the set empty.
    pub fn take(&mut self) -> Vec<u32> {
        let mut out = Vec::new();
        for (w, word) in (0u32..).zip(&mut self.words) {
            let mut bits = std::mem::take(word);
            while bits != 0 {
                out.push(w * 64 + bits.trailing_zeros());
                bits &= bits - 1;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use proptest::prelude::*;

    use super::{RegionMap, RegionSet};

    proptest! {
        /// Any sequence of inserts and removes leaves the same entries, in the same order, as
        /// a `BTreeMap` given the same sequence, and answers every lookup and range alike.
        #[test]
        fn behaves_as_a_btree_map(
            ops in prop::collection::vec((any::<bool>(), 0u32..300, any::<u8>()), 0..200),
            (a, b) in (0u32..320, 0u32..320),
        ) {
            let mut dense = RegionMap::default();
            let mut tree = BTreeMap::new();
            for (insert, id, v) in ops {
                if insert {
                    prop_assert_eq!(dense.insert(id, v), tree.insert(id, v));
                } else {
                    prop_assert_eq!(dense.remove(&id), tree.remove(&id));
                }
                prop_assert_eq!(dense.len(), tree.len());
            }
            let all: Vec<(u32, u8)> = dense.iter().map(|(k, v)| (k, *v)).collect();
            let want: Vec<(u32, u8)> = tree.iter().map(|(k, v)| (*k, *v)).collect();
            prop_assert_eq!(all, want);
            let (lo, hi) = (a.min(b), a.max(b));
            let got: Vec<u32> = dense.range(lo..=hi).map(|(k, _)| k).collect();
            let want: Vec<u32> = tree.range(lo..=hi).map(|(k, _)| *k).collect();
            prop_assert_eq!(got, want);
            for id in [a, b] {
                prop_assert_eq!(dense.get(&id), tree.get(&id));
            }
        }
    }

    proptest! {
        /// A set takes out what went in, once each, in id order, and is empty after.
        #[test]
        fn a_set_takes_out_each_region_once_in_order(
            ids in prop::collection::vec(0u32..5_000, 0..100),
        ) {
            let mut set = RegionSet::default();
            set.extend(ids.iter().copied());
            let mut want = ids.clone();
            want.sort_unstable();
            want.dedup();
            prop_assert_eq!(set.take(), want);
            prop_assert!(set.take().is_empty());
        }
    }
}
