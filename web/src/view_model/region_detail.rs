//! One region in full, for the panel beside the region map.

use faultline_scenario::Run;
use serde::{Deserialize, Serialize};

/// One peer of the selected region.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PeerRow {
    /// Store name, e.g. `tikv-2`.
    pub store: String,
    /// `leader`, `follower`, `candidate` or `precandidate`.
    pub role: String,
    /// Raft term.
    pub term: u64,
    /// Hibernate `GroupState`: `Ordered`, `Chaos`, `PreChaos` or `Idle`.
    pub group_state: String,
    /// Last log index.
    pub last_index: u64,
    /// Commit index.
    pub commit: u64,
    /// Whether its raft tick is registered (not hibernated).
    pub ticking: bool,
    /// False when its store is down (the values are what it persisted).
    pub store_live: bool,
}

/// Where a region lies in the key space.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RegionPlace {
    /// Rows `[start, end)` of tables `first..=last` (none for a region with no keys).
    Keys {
        /// First key.
        start: u32,
        /// One past the last key.
        end: u32,
        /// The tables its keys belong to.
        tables: Option<(u32, u32)>,
    },
    /// The tikv#14547 report's layout.
    Report {
        /// Table.
        table: u32,
        /// Index of the region (of the one it was split off) within its table.
        part: u32,
    },
}

impl RegionPlace {
    /// In words, for the detail's first line.
    pub fn describe(&self) -> String {
        match self {
            RegionPlace::Keys {
                start,
                end,
                tables: None,
            } => format!("keys {start}..{end}, no rows"),
            RegionPlace::Keys {
                start,
                end,
                tables: Some((a, b)),
            } if a == b => format!("keys {start}..{end} of table t{a}"),
            RegionPlace::Keys {
                start,
                end,
                tables: Some((a, b)),
            } => format!("keys {start}..{end} of tables t{a}..t{b}"),
            RegionPlace::Report { table, part } => format!("table {table}, part {part}"),
        }
    }
}

/// The selected region.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegionDetailVm {
    /// Region id.
    pub id: u32,
    /// Where the region lies: its keys and tables in a run with TiCDC, whose rows have a key
    /// layout; else its table and part in the tikv#14547 report's layout (256 regions per
    /// table), which TiKV-only runs borrow.
    pub place: RegionPlace,
    /// Store of its live leader, if it has one.
    pub leader_store: Option<String>,
    /// Every live peer hibernates.
    pub hibernated: bool,
    /// Seconds without a leader, if leaderless.
    pub leaderless_secs: Option<u64>,
    /// The region it split from, for a region a split made.
    pub split_from: Option<u32>,
    /// The region it merged into, for a region merged away (it has no peers any more).
    #[serde(default)]
    pub merged_into: Option<u32>,
    /// Its epoch as TiKV writes it: `conf_ver` (membership changes) and `version` (splits).
    pub epoch: (u64, u64),
    /// Peers in slot order.
    pub peers: Vec<PeerRow>,
}

/// The detail of region `region`; `None` when out of range.
pub fn region_detail(run: &Run, region: u32) -> Option<RegionDetailVm> {
    let tikv = &run.world.model.tikv;
    let d = tikv.region_detail(region)?;
    let store_name = |s: u32| store_name(run, s);
    Some(RegionDetailVm {
        id: d.id,
        place: region_place(run, &d),
        leader_store: tikv.region_leader_store(region).map(store_name),
        hibernated: tikv.region_hibernated(region),
        leaderless_secs: d.leaderless_secs,
        split_from: d.split_from,
        merged_into: tikv.region_merged_into(region),
        epoch: (d.epoch.conf_ver, d.epoch.version),
        peers: d
            .peers
            .iter()
            .map(|p| PeerRow {
                store: store_name(p.store),
                role: p.role.to_string(),
                term: p.term,
                group_state: p.group_state.to_string(),
                last_index: p.last_index,
                commit: p.commit,
                ticking: p.ticking,
                store_live: p.store_live,
            })
            .collect(),
    })
}

/// The node name of store index `s` (0-based), or `store-N` if the network has no such node.
pub fn store_name(run: &Run, s: u32) -> String {
    run.world
        .model
        .tikv
        .store_nodes()
        .get(s as usize)
        .and_then(|id| run.world.kernel.net.nodes().get(id.0 as usize))
        .map(|n| n.name.clone())
        .unwrap_or_else(|| format!("store-{}", s + 1))
}

/// Where `d` lies: by the key layout when TiCDC runs (its rows have one), else by the report's.
fn region_place(run: &Run, d: &faultline_tikv::RegionDetail) -> RegionPlace {
    let cdc = &run.world.model.cdc;
    if !cdc.enabled() {
        return RegionPlace::Report {
            table: d.table,
            part: d.part,
        };
    }
    let (start, end) = cdc.ks.region_keys(d.id);
    RegionPlace::Keys {
        start,
        end,
        tables: cdc.ks.tables_of_region(d.id),
    }
}

#[cfg(test)]
#[path = "region_detail_tests.rs"]
mod tests;
