//! Merges (and the splits around them) against hand-worked layouts and a plain model.

use super::tests::{assert_partition, assert_tables_of_regions, layout};
use super::*;

const INIT: u64 = RegionEpoch::INIT.version;

fn span(start: Key, end: Key, version: u64) -> RegionSpan {
    RegionSpan {
        start,
        end,
        version,
    }
}

/// `source` holds no keys and no lookup names it.
fn assert_merged_away(ks: &Keyspace, source: u32) {
    let s = ks.span(source);
    assert_eq!(s.start, s.end, "source {source} keeps keys");
    assert!(!ks.regions_in(0, ks.keys()).contains(&source));
    assert!((0..ks.keys()).all(|k| ks.region_of(k) != source));
    assert!((0..ks.tables).all(|t| !ks.table_regions(t).contains(source)));
    assert_eq!(ks.tables_of_region(source), None);
    assert_eq!(ks.neighbours(source), (None, None));
}

#[test]
fn two_bootstrap_regions_merge_into_the_target() {
    // 4 tables x 100 rows in 16 regions: region r is keys 25r..25r+25.
    let mut ks = layout(4, 100, 16);
    ks.set_version(5, 2); // PrepareMerge
    assert!(ks.merge(5, 6, 3), "source left of target");
    assert_eq!(ks.span(6), span(125, 175, 3));
    assert_eq!(
        ks.span(5),
        span(125, 125, 2),
        "empty at its old start, last version"
    );
    assert_merged_away(&ks, 5);
    let order: Vec<u32> = (0..5).chain(6..16).collect();
    assert_partition(&ks, &order);
    assert_eq!(ks.table_regions(1), TableRegions::List(vec![4, 6, 7]));
    assert_eq!(ks.table_regions(0), TableRegions::Range(0, 3), "untouched");
    assert_eq!(ks.table_regions(2), TableRegions::Range(8, 11), "untouched");
    assert_eq!(ks.tables_of_region(6), Some((1, 1)));
    assert_eq!(ks.neighbours(6), (Some(4), Some(7)));
    assert_eq!(ks.neighbours(4), (Some(3), Some(6)));
    assert_eq!(ks.neighbours(0), (None, Some(1)));
    assert_eq!(ks.neighbours(15), (Some(14), None));
    assert_tables_of_regions(&ks, 0..16);
}

#[test]
fn a_merge_joins_regions_of_different_tables_and_bases() {
    // Region 4 (table 1's first) merges into region 3 (table 0's last): target on the left.
    let mut ks = layout(4, 100, 16);
    assert!(ks.merge(4, 3, 2));
    assert_eq!(ks.span(3), span(75, 125, 2));
    assert_merged_away(&ks, 4);
    assert_eq!(ks.table_regions(0), TableRegions::List(vec![0, 1, 2, 3]));
    assert_eq!(ks.table_regions(1), TableRegions::List(vec![3, 5, 6, 7]));
    assert_eq!(ks.tables_of_region(3), Some((0, 1)));
    // And it grows again, across a third base, from its right neighbour.
    assert_eq!(ks.neighbours(3), (Some(2), Some(5)));
    assert!(ks.merge(5, 3, 3));
    assert_eq!(ks.span(3), span(75, 150, 3));
    assert_merged_away(&ks, 5);
    let order: Vec<u32> = (0..4).chain(6..16).collect();
    assert_partition(&ks, &order);
    assert_tables_of_regions(&ks, 0..16);
}

#[test]
fn a_region_merges_with_its_left_and_with_its_right_neighbour() {
    for (source, target, want) in [(5, 4, (100, 150)), (5, 6, (125, 175))] {
        let mut ks = layout(4, 100, 16);
        assert!(ks.merge(source, target, 9));
        assert_eq!(ks.region_keys(target), want);
        assert_merged_away(&ks, source);
        let order: Vec<u32> = (0..16).filter(|r| *r != source).collect();
        assert_partition(&ks, &order);
    }
}

#[test]
fn regions_a_split_made_merge_back() {
    let mut ks = layout(4, 100, 16);
    ks.split(5, (16, 1, 2), None); // 16 = 125..137, 5 = 137..150
    assert!(ks.merge(16, 4, 3));
    assert_eq!(ks.span(4), span(100, 137, 3));
    assert!(ks.merge(5, 6, 3));
    assert_eq!(ks.span(6), span(137, 175, 3));
    assert_merged_away(&ks, 16);
    assert_merged_away(&ks, 5);
    assert_eq!(ks.regions_in(100, 200), vec![4, 6, 7]);
    assert_eq!(ks.table_regions(1), TableRegions::List(vec![4, 6, 7]));
    assert_tables_of_regions(&ks, 0..17);
}

#[test]
fn a_merged_region_splits_across_the_old_base_boundary() {
    let mut ks = layout(4, 100, 16);
    assert!(ks.merge(3, 4, 2)); // 4 = 75..125
    ks.split(4, (16, 1, 3), Some(110)); // 16 = 75..110, 4 = 110..125
    assert_eq!(ks.span(16), span(75, 110, 3));
    assert_eq!(ks.span(4), span(110, 125, 3));
    assert_eq!(ks.table_regions(0), TableRegions::List(vec![0, 1, 2, 16]));
    assert_eq!(
        ks.table_regions(1),
        TableRegions::List(vec![16, 4, 5, 6, 7])
    );
    assert_eq!(ks.tables_of_region(16), Some((0, 1)));
    assert_eq!(ks.tables_of_region(3), None);
    let order: Vec<u32> = (0..3).chain([16]).chain(4..16).collect();
    assert_partition(&ks, &order);
    assert_tables_of_regions(&ks, 0..17);
}

#[test]
fn regions_that_do_not_touch_do_not_merge() {
    let mut ks = layout(4, 100, 16);
    let fresh = ks.clone();
    assert!(!ks.merge(3, 5, 2));
    assert!(!ks.merge(5, 5, 2));
    assert_eq!(ks, fresh, "a refused merge changes nothing");
    assert!(ks.merge(4, 5, 2)); // 5 = 100..150
                                // 4 is gone: its empty span sits where 3 ends, but a merged-away region merges no more.
    assert!(!ks.merge(3, 4, 3));
    assert!(!ks.merge(4, 3, 3));
    assert!(!ks.merge(6, 3, 3));
    assert_eq!(ks.span(3), span(75, 100, INIT));
}

#[test]
fn set_version_places_an_untouched_region_and_keeps_its_range() {
    let mut ks = layout(4, 100, 16);
    ks.set_version(5, 7);
    assert_eq!(ks.span(5), span(125, 150, 7));
    assert_eq!(ks.region_of(130), 5);
    assert_eq!(ks.table_regions(1), TableRegions::List(vec![4, 5, 6, 7]));
    assert_eq!(ks.tables_of_region(5), Some((1, 1)));
    ks.set_version(5, 8); // RollbackMerge
    assert_eq!(ks.span(5), span(125, 150, 8));
    assert_partition(&ks, &(0..16).collect::<Vec<_>>());
    // More regions than keys: bootstrap region 1 is empty, inside table 0's range.
    let mut tiny = layout(3, 5, 40);
    assert_eq!(tiny.tables_of_region(1), Some((0, 0)));
    tiny.set_version(2, 3);
    assert_tables_of_regions(&tiny, 0..40);
    tiny.set_version(1, 3);
    assert_eq!(tiny.span(1), span(1, 1, 3));
    assert_tables_of_regions(&tiny, 0..40);
}

/// A plain model of the layout: every region's span, by id.
struct Model {
    spans: Vec<RegionSpan>,
    /// Regions merged away.
    gone: Vec<u32>,
    keys: Key,
}

impl Model {
    /// Regions holding keys, in key order.
    fn live(&self) -> Vec<u32> {
        let mut live: Vec<u32> = (0..self.spans.len() as u32)
            .filter(|r| self.spans[*r as usize].start < self.spans[*r as usize].end)
            .collect();
        live.sort_by_key(|r| self.spans[*r as usize].start);
        live
    }

    fn split(&mut self, parent: u32, added: u32, version: u64, at: Option<Key>) {
        let RegionSpan { start, end, .. } = self.spans[parent as usize];
        let parts = added as u64 + 1;
        let at = at.filter(|k| added == 1 && (start..end).contains(k));
        let cut = |i: u64| match (i, at) {
            (1, Some(key)) => key,
            _ => start + ((end - start) as u64 * i / parts) as u32,
        };
        let first = self.spans.len() as u32;
        self.spans
            .resize(first as usize + added as usize, span(0, 0, 0));
        let ids = (first..first + added).chain([parent]);
        for (i, r) in ids.enumerate() {
            self.spans[r as usize] = span(cut(i as u64), cut(i as u64 + 1), version);
        }
    }

    fn merge(&mut self, source: u32, target: u32, version: u64) -> bool {
        let (s, t) = (self.spans[source as usize], self.spans[target as usize]);
        let gone = self.gone.contains(&source) || self.gone.contains(&target);
        if gone || source == target || (s.end != t.start && t.end != s.start) {
            return false;
        }
        self.gone.push(source);
        let merged = span(s.start.min(t.start), s.end.max(t.end), version);
        self.spans[target as usize] = merged;
        self.spans[source as usize] = span(s.start, s.start, s.version);
        true
    }
}

/// The layout agrees with the model, and its lookups agree with each other.
fn assert_agrees(ks: &Keyspace, model: &Model) {
    let ids = 0..model.spans.len() as u32;
    for r in ids.clone() {
        assert_eq!(ks.span(r), model.spans[r as usize], "region {r}");
    }
    let live = model.live();
    assert_eq!(ks.regions_in(0, ks.keys()), live);
    assert_partition(ks, &live);
    for (i, r) in live.iter().enumerate() {
        let left = i.checked_sub(1).map(|j| live[j]);
        assert_eq!(ks.neighbours(*r), (left, live.get(i + 1).copied()));
    }
    let nonempty = |r: &u32| model.spans[*r as usize].start < model.spans[*r as usize].end;
    for t in 0..ks.tables {
        let mut got = ks.table_regions(t).to_vec();
        got.retain(nonempty); // a Range may name empty bootstrap regions
        assert_eq!(
            got,
            ks.regions_in(ks.key(t, 0), ks.key(t + 1, 0)),
            "table {t}"
        );
    }
    assert_tables_of_regions(ks, ids);
}

/// A small deterministic generator (an LCG).
fn next(seed: &mut u64) -> u32 {
    *seed = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (*seed >> 33) as u32
}

fn coin(seed: &mut u64) -> bool {
    next(seed) & 1 == 0
}

/// One random change, to the layout and the model alike: a split of a region holding keys,
/// a merge of it with a neighbour, a merge with any region (most are refused), or a version
/// bump.
fn random_step(ks: &mut Keyspace, model: &mut Model, seed: &mut u64, version: u64) {
    let live = model.live();
    let r = live[next(seed) as usize % live.len()];
    let any = next(seed) % model.spans.len() as u32;
    match next(seed) % 5 {
        0 => {
            let added = 1 + next(seed) % 3;
            let first = model.spans.len() as u32;
            let at = coin(seed).then(|| next(seed) % model.keys.max(1));
            ks.split(r, (first, added, version), at);
            model.split(r, added, version, at);
        }
        1 | 2 => {
            let (left, right) = ks.neighbours(r);
            let side = if coin(seed) { left } else { right };
            let Some(other) = side.or(left).or(right) else {
                return;
            };
            let (s, t) = if coin(seed) { (r, other) } else { (other, r) };
            assert!(ks.merge(s, t, version), "neighbours {s} and {t}");
            assert!(model.merge(s, t, version));
        }
        3 => assert_eq!(ks.merge(any, r, version), model.merge(any, r, version)),
        _ => {
            ks.set_version(any, version);
            model.spans[any as usize].version = version;
        }
    }
}

#[test]
fn random_splits_and_merges_keep_every_lookup_consistent() {
    let layouts = [
        (4, 100, 16),
        (10, 7, 3),
        (7, 13, 20),
        (3, 5, 40),
        (50, 4, 32),
    ];
    for (tables, rows, regions) in layouts {
        for mut seed in 1..6u64 {
            let mut ks = layout(tables, rows, regions);
            let spans = (0..regions).map(|r| ks.span(r)).collect();
            let mut model = Model {
                spans,
                gone: Vec::new(),
                keys: ks.keys(),
            };
            for version in 2..120u64 {
                random_step(&mut ks, &mut model, &mut seed, version);
                assert_agrees(&ks, &model);
            }
        }
    }
}
