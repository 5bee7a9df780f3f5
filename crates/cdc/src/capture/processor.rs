//! A processor: one changefeed's tables on one capture, each with its puller (the KV client's
//! regions of that table), a sorter, and a table sink writing to MySQL.

use std::collections::{BTreeMap, BTreeSet};

use crate::capture::kvclient::{KvClient, RegionTrack};
use crate::change::RowChange;
use crate::keyspace::{Key, Keyspace, TableRegions};
use crate::ts::Ts;

/// A table sink with its sorter buffer.
#[derive(Clone, Debug)]
pub struct TableSink {
    /// Everything up to this ts is written downstream.
    pub checkpoint: Ts,
    /// Sorted changes not yet written: (commit ts, key) -> change.
    pub buffer: BTreeMap<(Ts, Key), RowChange>,
    /// A batch written but not yet acknowledged: (batch id, checkpoint once acknowledged,
    /// rows in it).
    pub in_flight: Option<(u64, Ts, u64)>,
    /// The rows of the MySQL batch in flight, kept until it is acknowledged: a write lost
    /// with its connection is written again from here.
    pub in_flight_rows: Vec<RowChange>,
    /// The table's puller frontier as of the last [`Processor::refresh_frontiers`]; `None`
    /// until computed, or once one of its regions changed.
    frontier: Option<Frontier>,
}

impl TableSink {
    /// A sink starting at `checkpoint`.
    pub fn new(checkpoint: Ts) -> Self {
        TableSink {
            checkpoint,
            buffer: BTreeMap::new(),
            in_flight: None,
            in_flight_rows: Vec::new(),
            frontier: None,
        }
    }

    /// MySQL acknowledged `batch`: if it is the batch in flight, the checkpoint moves up to
    /// it and the batch's row count is returned (a stale ack, of a batch written again
    /// since, changes nothing).
    pub fn on_ack(&mut self, batch: u64) -> Option<u64> {
        let (b, up_to, rows) = self.in_flight?;
        if b != batch {
            return None;
        }
        self.checkpoint = self.checkpoint.max(up_to);
        self.in_flight = None;
        self.in_flight_rows.clear();
        Some(rows)
    }

    /// The batch in flight failed with its connection (MySQL died: the driver sees the
    /// reset): its rows go back to the sorter buffer to be written again; the checkpoint
    /// stays where it is. A late acknowledgement of the failed batch no longer counts.
    pub fn fail_in_flight(&mut self) {
        if self.in_flight.take().is_some() {
            for r in std::mem::take(&mut self.in_flight_rows) {
                self.buffer.insert((r.commit_ts, r.key), r);
            }
        }
    }

    /// Takes the sorted rows with commit ts <= `upto`.
    pub fn take_until(&mut self, upto: Ts) -> Vec<RowChange> {
        let rest = self.buffer.split_off(&(Ts(upto.0.saturating_add(1)), 0));
        std::mem::replace(&mut self.buffer, rest)
            .into_values()
            .collect()
    }
}

/// A table's puller frontier: what its regions in the KV client add up to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frontier {
    /// Min resolved ts over the table's tracked regions (zero if none is tracked).
    pub resolved: Ts,
    /// Every region of the table is tracked and has finished its incremental scan.
    pub ready: bool,
}

impl Frontier {
    /// Computed from the KV client's tracking of `regions`: O(regions).
    fn of(kv: &KvClient, regions: &TableRegions) -> Self {
        let mut resolved = None::<Ts>;
        let mut seen = 0usize;
        let mut initialized = true;
        let mut visit = |t: &RegionTrack| {
            seen += 1;
            initialized &= t.initialized;
            resolved = Some(resolved.map_or(t.resolved, |r| r.min(t.resolved)));
        };
        match regions {
            TableRegions::Range(a, b) => kv.regions().range(a..=b).for_each(|(_, t)| visit(t)),
            TableRegions::List(list) => list
                .iter()
                .filter_map(|r| kv.regions().get(r))
                .for_each(&mut visit),
        }
        let all = seen == regions.len();
        Frontier {
            resolved: resolved.unwrap_or(Ts::ZERO),
            ready: all && initialized,
        }
    }
}

/// One changefeed on one capture.
#[derive(Clone, Debug)]
pub struct Processor {
    /// The KV client of this changefeed's tables here.
    pub kv: KvClient,
    /// Table sinks by table id.
    pub tables: BTreeMap<u32, TableSink>,
    /// Next batch id.
    pub next_batch: u64,
    /// The changefeed's resolved ts as last heard from the owner: no table sink writes past
    /// it. 5.x processors cap every table's barrier at the changefeed's resolved ts, which only
    /// the owner advances (v5.4.1 `cdc/processor/processor.go` `pushResolvedTs2Table`), so a
    /// blocked owner stops downstream writes as well as the checkpoint. It arrives with the
    /// owner's heartbeat, as 7.x's `schedulepb.Barrier` does; zero until the first one.
    pub barrier: Ts,
    /// Tables whose cached frontier must be computed at the next refresh. tiflow keeps a
    /// span frontier per table that a region's resolved ts moves in O(log n)
    /// (`cdc/puller/frontier/frontier.go` `spanFrontier.Forward`); here a table's is
    /// recomputed only when one of its regions changed, so a refresh costs what moved, not
    /// tables x regions (at 256,000 regions, 1,000 tables, that scan was most of the run).
    stale: BTreeSet<u32>,
    /// When the KV client's lock resolver looks for stuck regions next
    /// (`crate::capture::lock_resolver`).
    pub next_lock_check: faultline_sim::SimTime,
}

impl Processor {
    /// A processor with no tables.
    pub fn new(kv: KvClient) -> Self {
        Processor {
            kv,
            tables: BTreeMap::new(),
            next_batch: 1,
            barrier: Ts::ZERO,
            stale: BTreeSet::new(),
            next_lock_check: faultline_sim::SimTime(0),
        }
    }

    /// The owner's heartbeat brought the changefeed's resolved ts `resolved`: the barrier
    /// moves up to it (never back: a heartbeat of an older owner term may arrive late).
    pub fn hear_barrier(&mut self, resolved: Ts) {
        self.barrier = self.barrier.max(resolved);
    }

    /// The puller frontier of a table: min resolved ts over its regions, computed now
    /// (O(regions); for readers outside the processor's tick, such as metrics).
    pub fn table_resolved(&self, regions: &TableRegions) -> Ts {
        Frontier::of(&self.kv, regions).resolved
    }

    /// Adds a table sink starting at `checkpoint` (its frontier is computed at the next
    /// refresh).
    pub fn add_table(&mut self, table: u32, checkpoint: Ts) {
        self.tables.insert(table, TableSink::new(checkpoint));
        self.stale.insert(table);
    }

    /// Brings the cached frontiers up to date: the tables of regions the KV client changed
    /// since the last call, and tables added since, are recomputed; the rest keep theirs.
    pub fn refresh_frontiers(&mut self, ks: &Keyspace) {
        for region in self.kv.take_changed() {
            if let Some((a, b)) = ks.tables_of_region(region) {
                self.stale.extend(a..=b);
            }
        }
        for table in std::mem::take(&mut self.stale) {
            if let Some(sink) = self.tables.get_mut(&table) {
                sink.frontier = Some(Frontier::of(&self.kv, &ks.table_regions(table)));
            }
        }
    }

    /// A table's frontier: the cached one, or (for a table never refreshed) computed now.
    ///
    /// # Panics
    /// If the table is not here.
    pub fn frontier(&self, ks: &Keyspace, table: u32) -> Frontier {
        let sink = &self.tables[&table];
        sink.frontier
            .unwrap_or_else(|| Frontier::of(&self.kv, &ks.table_regions(table)))
    }
}

#[cfg(test)]
#[path = "processor_tests.rs"]
mod tests;
