use super::*;

pub(super) fn layout(tables: u32, rows: u32, regions: u32) -> Keyspace {
    Keyspace::new(tables, rows, regions)
}

/// Every key's region holds it, and the regions' ranges tile the keys in order.
pub(super) fn assert_partition(ks: &Keyspace, regions_in_key_order: &[u32]) {
    let mut next = 0;
    for &r in regions_in_key_order {
        let (a, b) = ks.region_keys(r);
        assert_eq!(a, next, "region {r} of {ks:?}");
        for key in a..b {
            assert_eq!(ks.region_of(key), r, "key {key}");
        }
        next = b;
    }
    assert_eq!(next, ks.keys());
}

#[test]
fn regions_partition_the_keys() {
    for (tables, rows, regions) in [(4, 100, 16), (10, 7, 3), (3, 5, 40)] {
        let ks = layout(tables, rows, regions);
        assert_partition(&ks, &(0..regions).collect::<Vec<_>>());
    }
}

#[test]
fn tables_of_a_region_are_the_tables_whose_ranges_hold_it() {
    for (tables, rows, regions) in [(4, 100, 16), (10, 7, 3), (3, 5, 40), (1000, 2, 256)] {
        let ks = layout(tables, rows, regions);
        assert_tables_of_regions(&ks, 0..regions);
    }
}

pub(super) fn assert_tables_of_regions(ks: &Keyspace, regions: impl Iterator<Item = u32>) {
    for r in regions {
        let holding: Vec<u32> = (0..ks.tables)
            .filter(|t| ks.table_regions(*t).contains(r))
            .collect();
        let want = holding.first().map(|a| (*a, *holding.last().unwrap()));
        assert_eq!(ks.tables_of_region(r), want, "region {r} of {ks:?}");
    }
}

#[test]
fn a_split_cuts_the_parents_range_and_the_parent_keeps_the_last_part() {
    // 4 tables x 100 rows in 16 regions: 25 keys each; region 5 is keys 125..150.
    let mut ks = layout(4, 100, 16);
    ks.split(5, (16, 3, 4), None);
    assert_eq!(ks.region_keys(16), (125, 131));
    assert_eq!(ks.region_keys(17), (131, 137));
    assert_eq!(ks.region_keys(18), (137, 143));
    assert_eq!(
        ks.region_keys(5),
        (143, 150),
        "the parent keeps the last part"
    );
    assert_eq!(ks.span(5).version, 4);
    assert_eq!(ks.span(4).version, RegionEpoch::INIT.version);
    let order: Vec<u32> = (0..5).chain([16, 17, 18, 5]).chain(6..16).collect();
    assert_partition(&ks, &order);
    assert_eq!(ks.regions_in(120, 140), vec![4, 16, 17, 18]);
    assert_eq!(
        ks.table_regions(1),
        TableRegions::List(vec![4, 16, 17, 18, 5, 6, 7]),
        "table 1 is keys 100..200"
    );
    assert_eq!(ks.table_regions(0), TableRegions::Range(0, 3));
    assert_tables_of_regions(&ks, (0..19).filter(|r| *r != 5).chain([5]));
}

#[test]
fn a_split_region_splits_again_and_tiny_regions_leave_empty_parts() {
    let mut ks = layout(4, 100, 16);
    ks.split(5, (16, 1, 2), None); // 16 = 125..137, 5 = 137..150
    ks.split(16, (17, 2, 4), None); // 17 = 125..129, 18 = 129..133, 16 = 133..137
    let order: Vec<u32> = (0..5).chain([17, 18, 16, 5]).chain(6..16).collect();
    assert_partition(&ks, &order);
    assert_eq!(
        ks.span(5).version,
        2,
        "a sibling's later split leaves it alone"
    );
    // Two keys in four parts: two regions are empty and hold no key.
    let mut tiny = layout(1, 8, 4);
    tiny.split(1, (4, 3, 4), None);
    let nonempty: Vec<u32> = [0, 4, 5, 6, 1, 2, 3]
        .into_iter()
        .filter(|r| tiny.region_keys(*r).0 < tiny.region_keys(*r).1)
        .collect();
    assert_eq!(nonempty, vec![0, 5, 1, 2, 3]);
    assert_partition(&tiny, &nonempty);
    assert_eq!(
        tiny.tables_of_region(4),
        None,
        "an empty region holds no table"
    );
}

#[test]
fn the_regions_of_keys_are_each_named_once_in_first_appearance_order() {
    let mut ks = layout(4, 100, 16);
    ks.split(5, (16, 3, 4), None); // 16 = 125..131, 5 = 143..150
                                   // A transaction's keys need not be sorted: region 16 comes back after region 5.
    assert_eq!(ks.regions_of_keys(&[126, 144, 127, 10]), vec![16, 5, 0]);
    assert!(ks.regions_of_keys(&[]).is_empty());
}
