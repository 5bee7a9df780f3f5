//! `--shard K/N`: the K-th of N disjoint, contiguous slices of a seed range, so N machines
//! (a CI matrix, a Kubernetes Indexed Job) explore one range between them and
//! [`merge_reports`](crate::merge_reports) puts their reports back together.

use std::fmt;

/// Slice `index` (1-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which slice, `1..=count`.
    pub index: u64,
    /// How many slices.
    pub count: u64,
}

impl Shard {
    /// The whole range as one slice.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Parses `K/N` with `1 <= K <= N`.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("`{text}`: a shard is K/N with whole numbers 1 <= K <= N, e.g. 2/8");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let index: u64 = k.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// This shard's `(first_seed, seeds)` of the range `first_seed..first_seed + seeds`: slices
    /// differ in length by at most one seed, cover the range and never overlap.
    pub fn slice(self, first_seed: u64, seeds: u64) -> Result<(u64, u64), String> {
        if seeds < self.count {
            return Err(format!(
                "{seeds} seeds cannot be split into {} shards; give at least as many seeds as shards",
                self.count
            ));
        }
        let at = |k: u64| (u128::from(seeds) * u128::from(k) / u128::from(self.count)) as u64;
        let (start, end) = (at(self.index - 1), at(self.index));
        Ok((first_seed + start, end - start))
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_cover_the_range_without_overlap() {
        for (seeds, count) in [(10, 3), (7, 7), (100_000, 16), (5, 1)] {
            let mut next = 40;
            for index in 1..=count {
                let (first, n) = Shard { index, count }.slice(40, seeds).unwrap();
                assert_eq!(first, next, "{index}/{count} of {seeds}");
                assert!(n >= seeds / count && n <= seeds / count + 1);
                next = first + n;
            }
            assert_eq!(next, 40 + seeds);
        }
    }

    #[test]
    fn bad_shards_say_what_is_allowed() {
        assert_eq!(Shard::parse("2/8"), Ok(Shard { index: 2, count: 8 }));
        for bad in ["0/3", "4/3", "3", "a/b", "1/0", "-1/2"] {
            assert!(
                Shard::parse(bad).unwrap_err().contains("1 <= K <= N"),
                "{bad}"
            );
        }
        assert!(Shard { index: 1, count: 5 }
            .slice(0, 3)
            .unwrap_err()
            .contains("at least as many seeds"));
    }
}
