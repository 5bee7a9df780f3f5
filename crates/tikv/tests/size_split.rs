//! Regions grow with their writes and split by size: a leader's split check (every 10 s,
//! once a region grew by a sixteenth of `region-split-size`) splits a region past 1.5 times
//! `region-split-size` into parts of at most that size.

mod common;

use common::*;
use faultline_sim::World;
use faultline_tikv::{Cluster, TikvConfig, WriteLoad};

const MIB: u64 = 1024 * 1024;

/// 4 regions of 1 MiB that split past 1.5 MiB, under `writes` writes/s of 1,000 bytes.
fn growing_world(seed: u64, writes: u32) -> World<Cluster> {
    let cfg = TikvConfig {
        stores: 3,
        regions: 4,
        region_size_mib: 1,
        region_split_size_mib: 1,
        write_bytes: 1000,
        load: WriteLoad::per_sec(writes),
        ..Default::default()
    };
    world(&cfg, seed)
}

fn total_bytes(w: &World<Cluster>) -> u64 {
    (0..w.model.region_count())
        .map(|r| w.model.region_bytes(r))
        .sum()
}

#[test]
fn regions_split_once_their_writes_pass_the_max_size() {
    let seed = 2;
    let mut w = growing_world(seed, 400);
    run_to(&mut w, 5, seed);
    assert_eq!(w.model.region_count(), 4, "no region is past 1.5 MiB yet");
    run_to(&mut w, 60, seed);
    let splits = w.kernel.log.count_containing("split region by size");
    assert!(splits >= 4, "{splits} size splits");
    assert!(w.model.region_count() > 4);
    assert_eq!(last(&w, "regions"), w.model.region_count() as f64);
    // Writes go on into the new regions; none is far past the max size for long.
    for r in 0..w.model.region_count() {
        let bytes = w.model.region_bytes(r);
        assert!(bytes < 3 * MIB, "region {r} holds {bytes} bytes");
    }
}

#[test]
fn a_split_shares_the_size_and_loses_none_of_it() {
    let seed = 3;
    let mut w = growing_world(seed, 400);
    run_to(&mut w, 60, seed);
    // Proposals include the splits' own admin entries, which write no data.
    let splits = w.kernel.log.count_containing("split region by size");
    let written = (last(&w, "writes_proposed") as u64 - splits) * 1000;
    let total = total_bytes(&w);
    // Each split may round down by less than a byte per part.
    let parts = w.model.region_count() as u64;
    assert!(
        total <= 4 * MIB + written && total + parts >= 4 * MIB + written,
        "{total} bytes in regions, {written} written"
    );
}

#[test]
fn without_writes_no_region_splits() {
    let seed = 4;
    let mut w = growing_world(seed, 0);
    run_to(&mut w, 60, seed);
    assert_eq!(w.model.region_count(), 4);
    assert_eq!(w.kernel.log.count_containing("split region by size"), 0);
}
