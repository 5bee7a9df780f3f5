//! Recording the region heatmap while a run plays, at a cost that follows what changes.
//!
//! The recorder keeps every region's last colour and, per bucket, how many regions have each
//! colour. At each column time it re-reads only the regions the model noted as changed since
//! the last column (`faultline_tikv::region::region_changes`: a leader gained or lost, a tick
//! registered or dropped, a peer destroyed, a split or a merge) and the leaderless ones (for
//! the column's list of leaderless regions). An awake region whose leader stays put is not
//! re-read: after a store is killed at full scale about 190,000 regions stay awake, and
//! re-reading them every column cost as much as a third of the model's time. Only buckets
//! whose counts moved get a new colour; the rest copy the previous column. A store crashing,
//! restarting, pausing, joining or leaving can change any region at once, so that costs one
//! full pass.
//!
//! Rows are the key ranges of the regions at the start. A region split off later lies in the
//! range of the region it came from, so it is counted in that row: a split row's colour is
//! its regions' (leaderless first, then the most common).

use faultline_scenario::Run;
use faultline_sim::SimTime;

use crate::view_model::heatmap::{
    bucket_colour, bucket_count, bucket_of, column_us, HeatmapVm, COLOURS,
};
use crate::view_model::region_map::{region_colour, LEADERLESS, LEADERLESS_HIBERNATED};

/// What the recorder reads from a run (a trait so tests can count the reads).
pub trait RegionStates {
    /// Regions in the cluster.
    fn region_count(&self) -> u32;
    /// The region at the start that `region` was split off (itself for those).
    fn base_region(&self, region: u32) -> u32;
    /// The region map's colour index of `region` now.
    fn colour(&self, region: u32) -> u8;
    /// Starts noting changes afresh: what was noted so far is forgotten (the caller is about
    /// to read every region).
    fn restart_changes(&mut self);
    /// Appends every region whose colour may have changed since the last call (or
    /// `restart_changes`), and every leaderless region (repeats allowed). Returns true
    /// instead when any region may have changed: the caller then re-reads them all.
    fn changes(&mut self, out: &mut Vec<u32>) -> bool;
    /// The simulated clock.
    fn now(&self) -> SimTime;
}

impl RegionStates for Run {
    fn region_count(&self) -> u32 {
        self.world.model.tikv.region_count()
    }

    fn base_region(&self, region: u32) -> u32 {
        self.world.model.tikv.base_region(region)
    }

    fn colour(&self, region: u32) -> u8 {
        region_colour(&self.world.model.tikv, region)
    }

    fn restart_changes(&mut self) {
        self.world.model.tikv.track_region_changes(true);
    }

    fn changes(&mut self, out: &mut Vec<u32>) -> bool {
        let tikv = &mut self.world.model.tikv;
        let all = tikv.take_region_changes(out);
        out.extend(tikv.leaderless_regions().map(|(r, _)| r));
        all
    }

    fn now(&self) -> SimTime {
        Run::now(self)
    }
}

/// The heatmap recorded so far, and what it needs to record the next column cheaply.
#[derive(Clone, Debug)]
pub struct HeatmapRecorder {
    /// Regions at the start: one row per region, or per bucket of them.
    regions: u32,
    /// Per region split off since the start (`regions..`), the region whose row it is in.
    split_base: Vec<u32>,
    buckets: u32,
    column_us: u64,
    columns: u32,
    /// Each region's colour at the last column.
    last: Vec<u8>,
    /// Regions per colour, `COLOURS` entries per bucket.
    counts: Vec<u32>,
    /// Buckets whose counts changed since their colour was last computed.
    dirty: Vec<u32>,
    /// Per region: the column number + 1 it was last re-read at (dedupes `changes`).
    seen: Vec<u32>,
    /// Recorded columns, `buckets` cells each.
    cells: Vec<u8>,
    /// Per recorded column: (bucket, lowest leaderless region) for its leaderless cells.
    leaderless: Vec<Vec<(u32, u32)>>,
    /// Region colours read in all (what the tests check the cost by).
    reads: u64,
}

impl HeatmapRecorder {
    /// Reads every region of `run` once, has it note changes from then on, and records the
    /// column at its clock.
    pub fn new(run: &mut impl RegionStates, end: SimTime) -> HeatmapRecorder {
        let regions = run.region_count();
        let buckets = bucket_count(regions);
        let column_us = column_us(end.as_micros());
        let mut r = HeatmapRecorder {
            regions,
            split_base: Vec::new(),
            buckets,
            column_us,
            columns: (end.as_micros() / column_us) as u32 + 1,
            last: vec![0; regions as usize],
            counts: vec![0; buckets as usize * COLOURS],
            dirty: Vec::new(),
            seen: vec![0; regions as usize],
            cells: Vec::new(),
            leaderless: Vec::new(),
            reads: 0,
        };
        r.resync(run);
        r
    }

    /// Simulated time of the next column to record.
    pub fn next_column_time(&self) -> SimTime {
        SimTime(self.recorded() as u64 * self.column_us)
    }

    /// Columns recorded.
    fn recorded(&self) -> u32 {
        (self.cells.len() / self.buckets as usize) as u32
    }

    /// Region colours read so far.
    pub fn reads(&self) -> u64 {
        self.reads
    }

    /// Forgets the columns after `run`'s clock and re-reads every region: for a run restored
    /// from a snapshot (its regions are not the ones the recorder last saw). Columns up to
    /// the clock stay: the run is deterministic, replaying would record them again the same.
    pub fn resync(&mut self, run: &mut impl RegionStates) {
        let keep = run.now().as_micros().div_ceil(self.column_us) as usize;
        self.cells
            .truncate(keep.min(self.recorded() as usize) * self.buckets as usize);
        self.leaderless.truncate(keep);
        self.counts.fill(0);
        // Column numbers after the clock will be used again.
        self.seen.fill(0);
        // Every region is read below: what was noted before is stale.
        run.restart_changes();
        // A snapshot from before a split has fewer regions than the recorder last saw.
        let now = run.region_count().max(self.regions);
        self.split_base.truncate((now - self.regions) as usize);
        self.last.truncate(now as usize);
        self.seen.truncate(now as usize);
        for r in 0..self.last.len() as u32 {
            let c = run.colour(r);
            self.last[r as usize] = c;
            let b = self.bucket(r);
            self.counts[b * COLOURS + c as usize] += 1;
        }
        self.reads += self.last.len() as u64;
        self.add_split_regions(run);
        self.dirty = (0..self.buckets).collect();
        self.record_due(run);
    }

    /// Records every column whose time `run`'s clock has reached. The engine stops its
    /// slices at [`HeatmapRecorder::next_column_time`], so each column is the state at its
    /// own time; a single step past several columns records them all with the current state.
    pub fn record_due(&mut self, run: &mut impl RegionStates) {
        while run.now() >= self.next_column_time() && self.recorded() < self.columns {
            self.record_column(run);
        }
    }

    fn bucket(&self, region: u32) -> usize {
        let row = match region.checked_sub(self.regions) {
            Some(i) => self.split_base[i as usize],
            None => region,
        };
        bucket_of(row, self.regions, self.buckets) as usize
    }

    /// Counts the regions split off since the last look in the rows they came from.
    fn add_split_regions(&mut self, run: &impl RegionStates) {
        for r in self.last.len() as u32..run.region_count() {
            self.split_base.push(run.base_region(r));
            let c = run.colour(r);
            self.reads += 1;
            self.last.push(c);
            self.seen.push(0);
            let b = self.bucket(r);
            self.counts[b * COLOURS + c as usize] += 1;
            self.dirty.push(b as u32);
        }
    }

    /// Sets a region's colour, moving its bucket's counts when it changed.
    fn update(&mut self, region: u32, colour: u8) {
        let old = std::mem::replace(&mut self.last[region as usize], colour);
        if old != colour {
            let b = self.bucket(region);
            self.counts[b * COLOURS + old as usize] -= 1;
            self.counts[b * COLOURS + colour as usize] += 1;
            self.dirty.push(b as u32);
        }
    }

    fn record_column(&mut self, run: &mut impl RegionStates) {
        let column = self.recorded();
        self.add_split_regions(run);
        let mut candidates = Vec::new();
        if run.changes(&mut candidates) {
            candidates.extend(0..self.last.len() as u32);
        }
        let mut lowest: Vec<(u32, u32)> = Vec::new();
        for r in candidates {
            if r as usize >= self.last.len() || self.seen[r as usize] == column + 1 {
                continue;
            }
            self.seen[r as usize] = column + 1;
            let c = run.colour(r);
            self.reads += 1;
            self.update(r, c);
            if c == LEADERLESS || c == LEADERLESS_HIBERNATED {
                lowest.push((self.bucket(r) as u32, r));
            }
        }
        self.push_cells(column);
        lowest.sort_unstable();
        lowest.dedup_by_key(|(b, _)| *b);
        self.leaderless.push(lowest);
    }

    /// Appends the column's cells: the previous column's, recomputed for dirty buckets.
    fn push_cells(&mut self, column: u32) {
        let b = self.buckets as usize;
        let start = self.cells.len();
        if column == 0 {
            self.cells.resize(start + b, 0);
        } else {
            self.cells.extend_from_within(start - b..start);
        }
        let mut dirty = std::mem::take(&mut self.dirty);
        dirty.sort_unstable();
        dirty.dedup();
        for &k in &dirty {
            let k = k as usize;
            self.cells[start + k] = bucket_colour(&self.counts[k * COLOURS..(k + 1) * COLOURS]);
        }
        dirty.clear();
        self.dirty = dirty;
    }

    /// The heatmap up to `now` for the page, with the legend's `stores`.
    pub fn vm(&self, now: SimTime, stores: Vec<String>) -> HeatmapVm {
        let shown = (now.as_micros() / self.column_us + 1).min(self.recorded() as u64) as u32;
        let b = self.buckets;
        let leaderless = self
            .leaderless
            .iter()
            .take(shown as usize)
            .enumerate()
            .flat_map(|(c, cells)| cells.iter().map(move |&(k, r)| (c as u32 * b + k, r)))
            .collect();
        HeatmapVm {
            regions: self.regions,
            regions_now: self.last.len() as u32,
            buckets: b,
            column_us: self.column_us,
            columns: self.columns,
            recorded: shown,
            cells: self.cells[..(shown * b) as usize].to_vec(),
            leaderless,
            stores,
        }
    }
}

#[cfg(test)]
#[path = "heatmap_tests.rs"]
mod tests;
