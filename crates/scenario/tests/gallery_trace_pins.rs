//! Every gallery scenario's trace hash, pinned with the model version it belongs to.
//!
//! A refactor that only moves code keeps every pin. A change that alters the model's behaviour
//! changes some hashes: it must bump `MODEL_VERSION` and update `PINNED_MODEL_VERSION` and the
//! pins below in the same commit, saying in the message why the runs changed. A hash that
//! changes while the version stays put fails here, and so does a version bump without new pins.

use faultline_scenario::{gallery, Run, MODEL_VERSION};

/// The model version the pins below were recorded with.
const PINNED_MODEL_VERSION: u32 = 20;

/// (gallery file, trace hash at the end of its run).
const PINS: &[(&str, u64)] = &[
    (
        "tikv-14547-leaders-lost-after-store-failure.toml",
        0x81bd98da0a057f6e,
    ),
    (
        "tikv-14547-leaders-lost-after-store-failure-fixed.toml",
        0x96e60534a24229f1,
    ),
    ("raft-basics-kill-a-store.toml", 0xb45d5038945f8c1f),
    ("raft-minority-leader-partition.toml", 0x41687531081e70c2),
    ("raft-quorum-lost-two-stores.toml", 0x0e1ba7fe74c9a731),
    ("raft-region-split.toml", 0x5a9a3f2bc5d409a3),
    ("tikv-rolling-restart.toml", 0x5877e3c82403f359),
    (
        "tikv-rolling-restart-without-eviction.toml",
        0x2f0253e46c2fd21f,
    ),
    (
        "tikv-scale-out-in-during-kafka-replication.toml",
        0x1e9b42d658c5fd44,
    ),
    ("cdc-basic-replication.toml", 0x06cafc8ec54862f9),
    ("cdc-capture-loses-pd.toml", 0x13e16b2405b4b39c),
    (
        "cdc-large-transactions-hold-the-checkpoint.toml",
        0x6b7c07411e6599d9,
    ),
    ("cdc-client-dies-holding-locks.toml", 0x962ff501d70d0057),
    (
        "cdc-region-split-during-replication.toml",
        0x481c8e129eef9430,
    ),
    ("cdc-regions-split-by-size.toml", 0xd1c15592101c96a2),
    (
        "cdc-region-merge-during-replication.toml",
        0x89ca3c4e426fc881,
    ),
    (
        "tiflow-9595-changefeed-stuck-after-tikv-failure.toml",
        0x4c32932d825325da,
    ),
    (
        "tiflow-9595-changefeed-stuck-after-tikv-failure-fixed.toml",
        0x295856784c9801e4,
    ),
    (
        "tiflow-9344-double-write-after-cdc-network-loss.toml",
        0x1665ed144a75f03c,
    ),
    (
        "tiflow-9344-double-write-after-cdc-network-loss-fixed.toml",
        0x22b2f580dc074e84,
    ),
    (
        "tiflow-9344-scale-captures-during-workload.toml",
        0xfbe3d6a42a388423,
    ),
    (
        "tiflow-4241-kafka-sink-close-blocks-owner.toml",
        0x12182805316b5880,
    ),
    (
        "tiflow-4241-kafka-sink-close-blocks-owner-fixed.toml",
        0xb0889e1dc95c5d8c,
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
