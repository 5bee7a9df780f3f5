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
    /// How many of the regions the cached frontier was computed over sat at its resolved
    /// ts: while one still does, a region moving up from it leaves the minimum where it is
    /// ([`Processor::refresh_frontiers`]).
    at_min: u32,
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
            at_min: 0,
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

    /// Where a frontier whose spans do not cover the table stays: the last one computed, or
    /// the checkpoint before the first.
    fn held_at(&self) -> Ts {
        self.frontier.map_or(self.checkpoint, |f| f.resolved)
    }

    /// Takes the sorted rows with commit ts <= `upto`.
    pub fn take_until(&mut self, upto: Ts) -> Vec<RowChange> {
        let rest = self.buffer.split_off(&(Ts(upto.0.saturating_add(1)), 0));
        std::mem::replace(&mut self.buffer, rest)
            .into_values()
            .collect()
    }
}

/// A table's puller frontier: what the KV client's tracked spans over its keys add up to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frontier {
    /// Min resolved ts over the tracked regions overlapping the table (zero if none is).
    pub resolved: Ts,
    /// The tracked spans cover every key of the table and each finished its incremental scan.
    pub ready: bool,
    /// The tracked spans cover every key of the table. Where they do not, tiflow's span
    /// frontier keeps the uncovered part at its last ts, so the table must not move past
    /// what it had ([`Processor::refresh_frontiers`] holds it).
    pub covered: bool,
}

impl Frontier {
    /// Computed from the KV client's tracking of `table`'s keys. While no split or merge
    /// reached the table its bootstrap regions are the only spans that ever covered its keys,
    /// so those are looked up by id (O(regions), no allocation, at any scale); after, every
    /// tracked span overlapping the table counts, including one a region was tracked with
    /// before it split or merged away (`cdc/puller/frontier/frontier.go`: a sub-span nobody
    /// forwards keeps its ts). Simplified: tiflow's range lock (`cdc/kv/regionlock`) would
    /// keep the region now holding those keys from subscribing until the old one lets go;
    /// here it subscribes, and the old span holds the frontier instead, which stalls the
    /// table the same way.
    fn of(kv: &KvClient, ks: &Keyspace, table: u32) -> Self {
        Self::counted(kv, ks, table).0
    }

    /// [`Frontier::of`], with how many of the regions it is made of sit at its resolved ts.
    fn counted(kv: &KvClient, ks: &Keyspace, table: u32) -> (Self, u32) {
        let mut resolved = None::<Ts>;
        let mut at_min = 0;
        let mut initialized = true;
        let covered = visit_table_tracks(kv, ks, table, |_, t| {
            initialized &= t.initialized;
            match resolved {
                Some(r) if r < t.resolved => {}
                Some(r) if r == t.resolved => at_min += 1,
                _ => (resolved, at_min) = (Some(t.resolved), 1),
            }
        });
        let f = Frontier {
            resolved: resolved.unwrap_or(Ts::ZERO),
            ready: covered && initialized,
            covered,
        };
        (f, at_min)
    }
}

/// Calls `visit` with every tracked region a table's frontier is made of ([`Frontier::of`]),
/// and returns whether their spans cover all of the table's keys.
pub fn visit_table_tracks<'k>(
    kv: &'k KvClient,
    ks: &Keyspace,
    table: u32,
    mut visit: impl FnMut(u32, &'k RegionTrack),
) -> bool {
    match ks.table_regions(table) {
        TableRegions::Range(a, b) => {
            let mut seen = 0;
            for (region, t) in kv.regions().range(a..=b) {
                seen += 1;
                visit(region, t);
            }
            seen == b - a + 1
        }
        TableRegions::List(_) => {
            let (a, b) = (ks.key(table, 0), ks.key(table + 1, 0));
            let mut covered_to = a;
            let mut gap = false;
            for (start, end, region) in kv.spans().overlapping(a, b) {
                gap |= start > covered_to;
                covered_to = covered_to.max(end);
                visit(region, &kv.regions()[&region]);
            }
            !gap && covered_to >= b
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

    /// The puller frontier of a table computed now, as the next refresh will find it (for
    /// readers outside the processor's tick, such as metrics).
    pub fn table_resolved(&self, ks: &Keyspace, table: u32) -> Ts {
        let f = Frontier::of(&self.kv, ks, table);
        match self.tables.get(&table) {
            Some(sink) if !f.covered => f.resolved.min(sink.held_at()),
            _ => f.resolved,
        }
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
        // Changed regions come in id order, so neighbours mostly name the same tables: a
        // range already marked is not inserted again (at full scale 128,000 regions a
        // second, from 500 tables).
        let mut last = 0..0;
        for region in self.kv.take_changed() {
            // A released span's keys come with the moved spans below.
            let tables = tables_counting(ks, region, self.kv.regions().get(&region));
            if tables != last {
                self.stale.extend(tables.clone());
                last = tables;
            }
        }
        for (start, end) in self.kv.take_moved_spans() {
            self.stale.extend(tables_of_keys(ks, start, end));
        }
        self.forward_advanced(ks);
        for table in std::mem::take(&mut self.stale) {
            if let Some(sink) = self.tables.get_mut(&table) {
                let (mut f, at_min) = Frontier::counted(&self.kv, ks, table);
                if !f.covered {
                    f.resolved = f.resolved.min(sink.held_at());
                }
                sink.frontier = Some(f);
                sink.at_min = at_min;
            }
        }
    }

    /// Regions whose resolved ts only moved up since the last refresh: a table whose cached
    /// frontier still has another region at its minimum keeps it (the minimum cannot have
    /// moved), so only the tables whose last region at the minimum moved are recomputed. At
    /// full scale each store's resolved ts moves a quarter of every table's regions, and a
    /// table's minimum moves only once the last store's batch has come; tiflow's span
    /// frontier gets the same from its heap (`cdc/puller/frontier/frontier.go`).
    fn forward_advanced(&mut self, ks: &Keyspace) {
        for (region, from) in self.kv.take_advanced() {
            let Some(t) = self.kv.regions().get(&region) else {
                continue; // no longer tracked: in the changed set, its tables are stale
            };
            for table in tables_counting(ks, region, Some(t)) {
                if self.stale.contains(&table) {
                    continue;
                }
                let Some(sink) = self.tables.get_mut(&table) else {
                    continue;
                };
                match sink.frontier {
                    Some(f) if f.covered && from > f.resolved => {}
                    Some(f) if f.covered && from == f.resolved && sink.at_min > 1 => {
                        sink.at_min -= 1;
                    }
                    _ => {
                        self.stale.insert(table);
                    }
                }
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
            .unwrap_or_else(|| Frontier::of(&self.kv, ks, table))
    }
}

/// The tables whose frontier `region` counts for: a tracked region, the tables its tracked
/// keys belong to (a region in an untouched table's range has its bootstrap keys); one
/// without keys, or no longer tracked (`track` is `None`), the tables whose range names it.
fn tables_counting(
    ks: &Keyspace,
    region: u32,
    track: Option<&RegionTrack>,
) -> std::ops::Range<u32> {
    match track {
        Some(t) if t.span.start < t.span.end => tables_of_keys(ks, t.span.start, t.span.end),
        _ => ks.tables_of_region(region).map_or(0..0, |(a, b)| a..b + 1),
    }
}

/// The tables holding keys in `[start, end)` (none for an empty span).
fn tables_of_keys(ks: &Keyspace, start: Key, end: Key) -> std::ops::Range<u32> {
    if start >= end {
        return 0..0;
    }
    ks.table_of(start)..ks.table_of(end - 1).min(ks.tables.saturating_sub(1)) + 1
}

#[cfg(test)]
#[path = "processor_tests.rs"]
mod tests;
