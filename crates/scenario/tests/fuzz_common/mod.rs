//! Seeds, mutations and a slow-input report shared by the fuzz tests (tests/fuzz_*.rs).

#![allow(dead_code, unused_imports)] // each fuzz test file uses a different part

pub mod harness;

pub use harness::{assert_round_trips, check_link, check_scenario_text, link_from_input};

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use faultline_scenario::{encode_link, parse_scenario, Scenario};
use proptest::test_runner::{Config, RngSeed};

/// An input slower than this is reported on stderr. Not a failure: a test that fails when the
/// machine is busy blocks honest work, and a real hang never finishes anyway.
pub const SLOW_INPUT: Duration = Duration::from_secs(5);

/// Runs `f` and names the input on stderr when it took longer than [`SLOW_INPUT`]: a decoder
/// that "finishes" in a minute on a 64 KiB link hangs a browser tab, so such a report is a bug
/// to look at (docs/fuzzing.md).
pub fn report_slow<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    let took = start.elapsed();
    if took >= SLOW_INPUT {
        eprintln!("slow input: {what} took {took:?}");
    }
    out
}

/// proptest settings: `cases` cases from a fixed seed, so `cargo test` is deterministic like
/// everything else here. `PROPTEST_CASES` and `PROPTEST_RNG_SEED` override both for long or
/// varied runs (docs/fuzzing.md).
pub fn config(cases: u32) -> Config {
    let mut c = Config::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        c.cases = cases;
    }
    if std::env::var_os("PROPTEST_RNG_SEED").is_none() {
        c.rng_seed = RngSeed::Fixed(0x0fa0_171e);
    }
    c
}

/// A scenario that uses every part of the format, so mutations reach every field.
pub const RICH: &str = r#"
name = "every field"
description = "Uses every part of the format.\nSecond line."
issue = "tikv/tikv#14547"
seed = 42
duration = "10m"

[topology]
stores = 4
regions = 32
replicas = 3
captures = 2

[raft]
base_tick = "1s"
heartbeat_ticks = 2
election_ticks = 10
prevote = true
check_quorum = false
leader_lease = "9s"

[hibernate]
enabled = true
peer_stale_state_check_interval = "5m"
abnormal_leader_missing_duration = "10m"
max_leader_missing_duration = "2h"
unreachable_backoff = "10s"

[pd]
store_heartbeat = "10s"
region_heartbeat = "1m"
max_peer_down_duration = "10m"
leader_balance = false

[network]
delay_min = "500us"
delay_max = "2ms"

[toggles]
"tikv.unreachable_broadcast" = "repeat_if_new_messages"
"cdc.kv_client_evict" = "after_join"

[workload]
writes_per_sec = 100
kind = "oltp_write_only"
txns_per_sec = 50
tables = 8
rows_per_table = 1000
stop_at = "8m"

[cdc]
min_ts_interval = "1s"
owner_tick = "50ms"
redo_flush_interval = "2s"
mysql_write_latency = "5ms"

[[changefeeds]]
id = "cf-1"
sink = "mysql"
redo = true
tables = 4

[[changefeeds]]
id = "cf-2"

[[faults]]
at = "30s"
action = "kill"
target = "tikv-1"
duration = "90s"

[[faults]]
at = "1m"
action = "partition"
target = "tikv-2"
peers = "tikv-3,pd-1"
one_way = true
duration = "20s"

[[faults]]
at = "2m"
action = "loss"
target = "tikv-*"
loss_percent = 30
duration = "10s"

[[faults]]
at = "3m"
action = "delay"
target = "pd-1"
delay = "200ms"

[[faults]]
at = "4m"
action = "heal"
target = "*"

[[faults]]
at = "5m"
action = "pause"
target = "tikv-4"

[[faults]]
at = "5m"
action = "kill"
target = "cdc-2"
duration = "30s"

[[faults]]
at = "5m"
action = "partition"
target = "mysql-1"
peers = "cdc-*"
duration = "5s"

[[faults]]
at = "6m"
action = "resume"
target = "tikv-4"

[[faults]]
at = "7m"
action = "restart"
target = "tikv-1"

[[expect]]
name = "max"
metric = "store_heartbeats"
agg = "max"
from = "1m"
to = "5m"
op = ">="
value = 1

[[expect]]
metric = "store_heartbeats"
agg = "all"
op = "<"
value = 1e9

[[expect]]
log = "fault injected"
agg = "any"
op = "=="
value = 8

[[expect]]
metric = "store_heartbeats"
agg = "min"
op = "<="
value = -1.5

[[guide]]
at = "0s"
caption = "start"

[[guide]]
at = "10m"
caption = "end"
"#;

/// Seed scenario texts: [`RICH`] and every file in `scenarios/` (read once).
pub fn seed_texts() -> &'static [String] {
    static TEXTS: OnceLock<Vec<String>> = OnceLock::new();
    TEXTS.get_or_init(read_seed_texts)
}

fn read_seed_texts() -> Vec<String> {
    let mut out = vec![RICH.to_string()];
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("scenarios/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    out.extend(
        files
            .iter()
            .map(|p| std::fs::read_to_string(p).expect("readable")),
    );
    out
}

/// The seed texts that parse, parsed once. (Whether every shipped file parses is the gallery
/// tests' business; a file mid-edit must not break fuzzing.)
pub fn seed_scenarios() -> &'static [Scenario] {
    static PARSED: OnceLock<Vec<Scenario>> = OnceLock::new();
    PARSED.get_or_init(|| {
        let parsed: Vec<Scenario> = seed_texts()
            .iter()
            .filter_map(|t| parse_scenario("seed.toml", t).ok())
            .collect();
        assert!(!parsed.is_empty(), "RICH parses");
        parsed
    })
}

/// The share link of each seed scenario, encoded once.
pub fn seed_links() -> &'static [String] {
    static LINKS: OnceLock<Vec<String>> = OnceLock::new();
    LINKS.get_or_init(|| seed_scenarios().iter().map(encode_link).collect())
}

/// One byte-level edit: `(kind, position, byte)`, positions taken modulo the length.
pub type Edit = (u8, usize, u8);

/// Applies byte edits: flip, delete, insert, truncate, duplicate a run.
pub fn mutate(bytes: &[u8], edits: &[Edit]) -> Vec<u8> {
    let mut b = bytes.to_vec();
    for &(kind, pos, byte) in edits {
        let len = b.len();
        let at = if len == 0 { 0 } else { pos % len };
        match kind % 5 {
            0 if len > 0 => b[at] ^= byte.max(1),
            1 if len > 0 => {
                b.remove(at);
            }
            2 => b.insert(at.min(len), byte),
            3 => b.truncate(at),
            4 if len > 0 => {
                let end = (at + byte as usize).min(len);
                let run: Vec<u8> = b[at..end].to_vec();
                let to = (pos / 7) % (len + 1);
                b.splice(to..to, run);
            }
            _ => b.push(byte),
        }
    }
    b
}

/// Values that probe limits, types and units when put on the right of `key = ...`.
pub const NASTY_VALUES: &[&str] = &[
    "0",
    "-1",
    "1",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "99999999999999999999999",
    "-9223372036854775808",
    "1e309",
    "-0.0",
    "nan",
    "inf",
    "true",
    "\"\"",
    "\"0s\"",
    "\"1us\"",
    "\"-1s\"",
    "\"1.5s\"",
    "\"1e30s\"",
    "\"18446744073709551615us\"",
    "\"18446744073709551615h\"",
    "\"99999999999999999999s\"",
    "\"24h\"",
    "\"25h\"",
    "\"tikv-*\"",
    "\"*\"",
    "\",\"",
    "\"tikv-0\"",
    "\"pd-1,pd-1,pd-1\"",
    "[]",
    "{}",
    "[[]]",
    "\"kill\"",
    "\">\"",
    "\"last\"",
    "\"\\u0000\"",
    "'''\nmulti\n'''",
];

/// Line-level edits of a TOML text: `(kind, line, pick)`.
pub type LineEdit = (u8, usize, usize);

/// Deletes, duplicates or swaps lines, or replaces a value with one of [`NASTY_VALUES`].
pub fn mutate_lines(text: &str, edits: &[LineEdit]) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for &(kind, line, pick) in edits {
        if lines.is_empty() {
            break;
        }
        let (n, i) = (lines.len(), line % lines.len());
        match kind % 4 {
            0 => {
                lines.remove(i);
            }
            1 => {
                let l = lines[i].clone();
                lines.insert(pick % n, l);
            }
            2 => lines.swap(i, pick % n),
            _ => {
                if let Some((key, _)) = lines[i].split_once('=') {
                    let v = NASTY_VALUES[pick % NASTY_VALUES.len()];
                    lines[i] = format!("{key}= {v}");
                }
            }
        }
    }
    lines.join("\n")
}
