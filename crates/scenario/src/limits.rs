//! Hard limits on every size a scenario can state, so no file or link can make the simulator
//! (or a browser tab) run out of memory. Error messages quote these numbers.

/// Largest scenario file, in bytes.
pub const MAX_SOURCE_BYTES: usize = 1 << 20;
/// Most TiKV stores.
pub const MAX_STORES: u32 = 16;
/// Most regions (the seed-002 cluster has 256,000).
pub const MAX_REGIONS: u32 = 300_000;
/// Most replicas per region.
pub const MAX_REPLICAS: u32 = 7;
/// Longest run.
pub const MAX_DURATION_SECS: u64 = 24 * 3600;
/// Most faults in a script.
pub const MAX_FAULTS: usize = 256;
/// Most expectations.
pub const MAX_EXPECTATIONS: usize = 64;
/// Most guide steps.
pub const MAX_GUIDE_STEPS: usize = 64;
/// Longest name, in characters.
pub const MAX_NAME_CHARS: usize = 200;
/// Longest description or caption, in characters.
pub const MAX_TEXT_CHARS: usize = 4_000;
/// Highest write rate, per simulated second.
pub const MAX_WRITES_PER_SEC: u32 = 100_000;
/// Longest network delay.
pub const MAX_DELAY_SECS: u64 = 60;
/// Shortest and longest raft base tick, in milliseconds.
pub const RAFT_TICK_MS: (u64, u64) = (10, 10_000);
/// Most ticks for heartbeat and election timeouts.
pub const MAX_TICKS: u32 = 1_000;
/// Most TiCDC captures.
pub const MAX_CAPTURES: u32 = 16;
/// Most changefeeds.
pub const MAX_CHANGEFEEDS: usize = 16;
/// Most Kafka brokers.
pub const MAX_KAFKA_BROKERS: u32 = 16;
/// Most partitions per Kafka topic.
pub const MAX_KAFKA_PARTITIONS: u32 = 64;
/// Most tables.
pub const MAX_TABLES: u32 = 1_000;
/// Most rows over all tables (the ground truth and downstream copies live in memory).
pub const MAX_TOTAL_ROWS: u64 = 1_000_000;
/// Most transactions per simulated second.
pub const MAX_TXNS_PER_SEC: u32 = 10_000;
