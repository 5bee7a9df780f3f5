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
        0x4285c6a2dde4b41c,
    ),
    (
        "tikv-14547-leaders-lost-after-store-failure-fixed.toml",
        0x4285c6a2dde4b41c,
    ),
    ("raft-basics-kill-a-store.toml", 0xbbaddbd31761d6c3),
    ("raft-minority-leader-partition.toml", 0xa06e3472b2812230),
    ("raft-quorum-lost-two-stores.toml", 0xaf649d7230c4d886),
    ("raft-region-split.toml", 0xdcc12f8748efc869),
    ("tikv-rolling-restart.toml", 0x7ef3a3493c4c22ce),
    (
        "tikv-rolling-restart-without-eviction.toml",
        0xf2d66bbfed9d97f9,
    ),
    (
        "tikv-scale-out-in-during-kafka-replication.toml",
        0x52f7a3039ec99543,
    ),
    ("cdc-basic-replication.toml", 0x70ea98a8d7ad5d36),
    ("cdc-capture-loses-pd.toml", 0xf5c799563ea043e1),
    (
        "cdc-large-transactions-hold-the-checkpoint.toml",
        0x8854a3017d0a5566,
    ),
    ("cdc-client-dies-holding-locks.toml", 0x9f7703c4f691f8fa),
    (
        "cdc-region-split-during-replication.toml",
        0x0bddbe7c616de4de,
    ),
    ("cdc-regions-split-by-size.toml", 0x95b30760b7a34416),
    (
        "cdc-region-merge-during-replication.toml",
        0x4c7fc0289b75653c,
    ),
    (
        "tiflow-9595-changefeed-stuck-after-tikv-failure.toml",
        0x2af4ea5d08bb89dc,
    ),
    (
        "tiflow-9595-changefeed-stuck-after-tikv-failure-fixed.toml",
        0xb6e788ee4b4cd655,
    ),
    (
        "tiflow-9344-double-write-after-cdc-network-loss.toml",
        0xc802c2b91d229957,
    ),
    (
        "tiflow-9344-double-write-after-cdc-network-loss-fixed.toml",
        0xcdd50f33701f0b5f,
    ),
    (
        "tiflow-9344-scale-captures-during-workload.toml",
        0xb16cfe48f63c8cca,
    ),
    (
        "tiflow-4241-kafka-sink-close-blocks-owner.toml",
        0x7854220e3ddbcad1,
    ),
    (
        "tiflow-4241-kafka-sink-close-blocks-owner-fixed.toml",
        0xb6f218dbd11aba60,
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
