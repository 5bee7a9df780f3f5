//! Every gallery scenario's trace hash, pinned with the model version it belongs to.
//!
//! A refactor that only moves code keeps every pin. A change that alters the model's behaviour
//! changes some hashes: it must bump `MODEL_VERSION` and update `PINNED_MODEL_VERSION` and the
//! pins below in the same commit, saying in the message why the runs changed. A hash that
//! changes while the version stays put fails here, and so does a version bump without new pins.

use faultline_scenario::{gallery, Run, MODEL_VERSION};

/// The model version the pins below were recorded with.
const PINNED_MODEL_VERSION: u32 = 18;

/// (gallery file, trace hash at the end of its run).
const PINS: &[(&str, u64)] = &[
    (
        "tikv-14547-leaders-lost-after-store-failure.toml",
        0x92e96f943bfd812d,
    ),
    (
        "tikv-14547-leaders-lost-after-store-failure-fixed.toml",
        0x92e96f943bfd812d,
    ),
    ("raft-basics-kill-a-store.toml", 0xf85d5b0a63ed0825),
    ("raft-minority-leader-partition.toml", 0x43e2762c375e5653),
    ("raft-quorum-lost-two-stores.toml", 0x99b9376fc3230656),
    ("raft-region-split.toml", 0xdd93348e77643568),
    ("tikv-rolling-restart.toml", 0xd92142b1221598c8),
    (
        "tikv-rolling-restart-without-eviction.toml",
        0x7523ad4fbb4e5b16,
    ),
    (
        "tikv-scale-out-in-during-kafka-replication.toml",
        0x55acacc9095b3546,
    ),
    ("cdc-basic-replication.toml", 0x2020877415df91c6),
    ("cdc-capture-loses-pd.toml", 0x1df3d85a22042e74),
    (
        "cdc-large-transactions-hold-the-checkpoint.toml",
        0x05a0cd05fdafaaa1,
    ),
    ("cdc-client-dies-holding-locks.toml", 0xaaa8abb17fca7628),
    (
        "cdc-region-split-during-replication.toml",
        0xeada4a1d13b437d7,
    ),
    ("cdc-regions-split-by-size.toml", 0xb2978e692799b4c3),
    (
        "cdc-region-merge-during-replication.toml",
        0xa4abc53cbf13ae87,
    ),
    (
        "tiflow-9595-changefeed-stuck-after-tikv-failure.toml",
        0x81f9f50991898f0a,
    ),
    (
        "tiflow-9595-changefeed-stuck-after-tikv-failure-fixed.toml",
        0x6cb433195efae857,
    ),
    (
        "tiflow-9344-double-write-after-cdc-network-loss.toml",
        0x598856d1aca2dc55,
    ),
    (
        "tiflow-9344-double-write-after-cdc-network-loss-fixed.toml",
        0xd2a96380e6f6564c,
    ),
    (
        "tiflow-9344-scale-captures-during-workload.toml",
        0x4c289bf8aa945872,
    ),
    (
        "tiflow-4241-kafka-sink-close-blocks-owner.toml",
        0xf4e0dacef04a7b49,
    ),
    (
        "tiflow-4241-kafka-sink-close-blocks-owner-fixed.toml",
        0x7b019e5aa36b2737,
    ),
];

fn final_hash(file: &str) -> u64 {
    let entry = gallery()
        .into_iter()
        .find(|e| e.file == file)
        .unwrap_or_else(|| panic!("{file} is pinned but not in the gallery"));
    let mut run = Run::new(&entry.scenario).expect("a gallery scenario builds");
    run.run_to_end();
    run.trace_hash()
}

#[test]
fn the_pins_belong_to_this_model_version() {
    assert_eq!(
        MODEL_VERSION, PINNED_MODEL_VERSION,
        "MODEL_VERSION was bumped to {MODEL_VERSION} but the pins are for version \
         {PINNED_MODEL_VERSION}: record the new hashes and update PINNED_MODEL_VERSION"
    );
}

#[test]
fn every_gallery_scenario_is_pinned() {
    let pinned: Vec<&str> = PINS.iter().map(|(f, _)| *f).collect();
    let missing: Vec<String> = gallery()
        .into_iter()
        .filter(|e| !pinned.contains(&e.file))
        .map(|e| format!("(\"{}\", {:#018x}),", e.file, final_hash(e.file)))
        .collect();
    assert!(
        missing.is_empty(),
        "gallery scenarios without a pinned trace hash; add:\n{}",
        missing.join("\n")
    );
}

#[test]
fn every_gallery_trace_hash_matches_its_pin() {
    let changed: Vec<String> = PINS
        .iter()
        .filter_map(|&(file, pinned)| {
            let now = final_hash(file);
            (now != pinned).then(|| format!("{file}: pinned {pinned:#018x}, now {now:#018x}"))
        })
        .collect();
    assert!(
        changed.is_empty(),
        "trace hashes changed under model version {MODEL_VERSION}. If this commit only moves \
         code, it changed behaviour by mistake. If the model changed on purpose, bump \
         MODEL_VERSION, update PINNED_MODEL_VERSION and these pins, and say why in the commit:\n{}",
        changed.join("\n")
    );
}
