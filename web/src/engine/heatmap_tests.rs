//! The recorder against a hand-driven cluster: changes land in the right bucket and column,
//! and a region that changes nothing is never read again; and against real runs, where
//! reading only the regions the model noted gives the heatmap a full re-read would.

use std::cell::Cell;

use faultline_sim::SimTime;

use super::*;
use crate::view_model::region_map::STORE_BASE;

/// Store 0 leads, hibernated.
const CALM: u8 = STORE_BASE + 1;
/// Store 1 leads, awake.
const AWAKE_1: u8 = STORE_BASE + 2;

/// A cluster whose regions the test sets by hand, counting every colour read.
struct Fake {
    colours: Vec<u8>,
    /// The row of each region split off (region `4 + i` for `bases[i]` in a 4-region run).
    bases: Vec<u32>,
    /// Regions noted as changed since the recorder last asked.
    changed: Vec<u32>,
    /// Any region may have changed (a store killed).
    all: bool,
    now: SimTime,
    reads: Cell<u64>,
}

impl Fake {
    fn new(regions: u32) -> Fake {
        Fake {
            colours: vec![CALM; regions as usize],
            bases: Vec::new(),
            changed: Vec::new(),
            all: false,
            now: SimTime(0),
            reads: Cell::new(0),
        }
    }

    /// Moves the clock to column `c` (one second per column in a 60 s run).
    fn at_column(&mut self, c: u64) {
        self.now = SimTime(c * 1_000_000);
    }
}

impl RegionStates for Fake {
    fn region_count(&self) -> u32 {
        self.colours.len() as u32
    }
    fn base_region(&self, region: u32) -> u32 {
        let first_split = (self.colours.len() - self.bases.len()) as u32;
        match region.checked_sub(first_split) {
            Some(i) => self.bases[i as usize],
            None => region,
        }
    }
    fn colour(&self, region: u32) -> u8 {
        self.reads.set(self.reads.get() + 1);
        self.colours[region as usize]
    }
    fn restart_changes(&mut self) {
        self.changed.clear();
        self.all = false;
    }
    fn changes(&mut self, out: &mut Vec<u32>) -> bool {
        let leaderless = (0..self.region_count())
            .filter(|&r| matches!(self.colours[r as usize], LEADERLESS | LEADERLESS_HIBERNATED));
        out.append(&mut self.changed);
        out.extend(leaderless);
        std::mem::take(&mut self.all)
    }
    fn now(&self) -> SimTime {
        self.now
    }
}

const END: SimTime = SimTime(60_000_000);

#[test]
fn a_change_lands_in_its_bucket_at_its_column() {
    // 1,000 regions in 256 buckets: regions 0..=3 are bucket 0, 996..=999 bucket 255.
    let mut f = Fake::new(1_000);
    let mut rec = HeatmapRecorder::new(&mut f, END);
    f.colours[998] = LEADERLESS;
    f.at_column(1);
    rec.record_due(&mut f);
    f.colours[998] = AWAKE_1;
    f.changed.push(998);
    f.at_column(2);
    rec.record_due(&mut f);
    let vm = rec.vm(f.now, vec![]);
    assert_eq!((vm.buckets, vm.recorded, vm.columns), (256, 3, 61));
    assert_eq!(vm.cell(0, 255), CALM);
    assert_eq!(
        vm.cell(1, 255),
        LEADERLESS,
        "the leaderless region's bucket"
    );
    assert_eq!(vm.cell(1, 254), CALM, "its neighbour is untouched");
    assert_eq!(vm.cell(2, 255), CALM, "3 of its 4 regions are still calm");
    assert_eq!(vm.leaderless, vec![(256 + 255, 998)]);
    assert_eq!(vm.region_at(1, 255), Some(998));
    assert_eq!(
        rec.vm(SimTime(1_500_000), vec![]).recorded,
        2,
        "nothing after the cursor"
    );
}

#[test]
fn a_region_that_changes_nothing_costs_nothing() {
    let mut f = Fake::new(10_000);
    let mut rec = HeatmapRecorder::new(&mut f, END);
    assert_eq!(
        f.reads.get(),
        10_000,
        "the first column reads every region once"
    );
    // Ten quiet columns: nothing noted, nothing leaderless, nothing read.
    for c in 1..=10 {
        f.at_column(c);
        rec.record_due(&mut f);
    }
    assert_eq!(f.reads.get(), 10_000);
    // One region wakes, stays awake for two columns, then sleeps: read when it woke (noted
    // three times, read once) and when it slept, not while it ticked.
    f.changed.extend([42, 42, 42]);
    f.at_column(11);
    rec.record_due(&mut f);
    f.at_column(12);
    rec.record_due(&mut f);
    f.changed.push(42);
    for c in 13..=20 {
        f.at_column(c);
        rec.record_due(&mut f);
    }
    assert_eq!(f.reads.get(), 10_000 + 2);
    assert_eq!(rec.reads(), f.reads.get());
    // A store killed can change any region: every region is read again, once.
    f.all = true;
    f.at_column(21);
    rec.record_due(&mut f);
    assert_eq!(f.reads.get(), 20_002);
}

#[test]
fn a_rewind_keeps_the_columns_before_it_and_records_the_same_again() {
    let mut f = Fake::new(100);
    let mut rec = HeatmapRecorder::new(&mut f, END);
    f.colours[7] = LEADERLESS_HIBERNATED;
    for c in 1..=5 {
        f.at_column(c);
        rec.record_due(&mut f);
    }
    let played = rec.vm(f.now, vec![]);
    assert_eq!(played.cell(5, 7), LEADERLESS_HIBERNATED);
    // Back to column 2 with the region already leaderless there, then forward again.
    f.at_column(2);
    rec.resync(&mut f);
    assert_eq!(rec.next_column_time(), SimTime(3_000_000));
    for c in 3..=5 {
        f.at_column(c);
        rec.record_due(&mut f);
    }
    assert_eq!(rec.vm(f.now, vec![]), played);
}

#[test]
fn a_slice_that_skips_columns_records_each_of_them() {
    let mut f = Fake::new(10);
    let mut rec = HeatmapRecorder::new(&mut f, END);
    f.at_column(4);
    rec.record_due(&mut f);
    assert_eq!(rec.next_column_time(), SimTime(5_000_000));
    f.now = END;
    rec.record_due(&mut f);
    assert_eq!(rec.vm(END, vec![]).recorded, 61);
}

/// A session over the gallery's quorum-loss scenario: tikv-1 and tikv-2 die at 30 s, tikv-2
/// returns at 2m30s; regions with two replicas there have no quorum until then.
fn quorum_lost() -> super::super::session::Session {
    let entry = faultline_scenario::gallery()
        .into_iter()
        .find(|e| e.file == "raft-quorum-lost-two-stores.toml")
        .expect("shipped in the gallery");
    super::super::session::Session::new(&entry.scenario).expect("builds")
}

/// The heatmap's last recorded column at `at`: how many buckets are leaderless there, and how
/// many leaderless cells the whole map has. Every cell the recorder coloured leaderless names a
/// region the region map calls leaderless at that time (checked against the model directly).
fn leaderless_at(at: SimTime) -> (usize, usize) {
    let mut s = quorum_lost();
    s.seek(at);
    let vm = s.heatmap();
    let last = vm.recorded - 1;
    let stripe = (0..vm.buckets)
        .filter(|&b| matches!(vm.cell(last, b), LEADERLESS | LEADERLESS_HIBERNATED))
        .count();
    let map = crate::view_model::region_map(&s.run);
    for b in 0..vm.buckets {
        let leaderless = matches!(vm.cell(last, b), LEADERLESS | LEADERLESS_HIBERNATED);
        let region = vm.region_at(last, b).expect("recorded");
        assert_eq!(leaderless, map.leaderless.contains(&region), "bucket {b}");
    }
    (stripe, vm.leaderless_cells())
}

#[test]
fn regions_without_quorum_are_a_stripe_until_the_store_returns() {
    let (during, cells_during) = leaderless_at(SimTime(120_000_000));
    let (after, cells_after) = leaderless_at(SimTime(240_000_000));
    assert!(during > 0, "leaderless regions while tikv-2 is down");
    assert_eq!(after, 0, "every region led again after tikv-2 returns");
    assert!(
        cells_after > cells_during,
        "the stripe stays on the map after it ends: {cells_during} then {cells_after}"
    );
}

#[test]
fn a_split_region_is_drawn_in_the_row_it_came_from() {
    let mut run = Fake::new(4);
    run.at_column(0);
    let mut rec = HeatmapRecorder::new(&mut run, END);
    // Column 1: region 1 splits; the new region 4 has no leader yet.
    run.at_column(1);
    run.colours.push(LEADERLESS);
    run.bases.push(1);
    rec.record_due(&mut run);
    let vm = rec.vm(run.now, vec![]);
    assert_eq!((vm.regions, vm.regions_now), (4, 5));
    assert_eq!(vm.cell(1, 1), LEADERLESS, "row 1 holds region 4");
    assert_eq!(vm.cell(1, 0), CALM);
    // Column 2: it elects a leader; the row is calm again, and region 4 is watched no more.
    run.at_column(2);
    run.colours[4] = CALM;
    run.changed.push(4);
    rec.record_due(&mut run);
    assert_eq!(rec.vm(run.now, vec![]).cell(2, 1), CALM);
    // A snapshot from before the split: the recorder forgets region 4.
    run.at_column(0);
    run.colours.pop();
    run.bases.pop();
    rec.resync(&mut run);
    assert_eq!(rec.vm(run.now, vec![]).regions_now, 4);
}

/// A run seen by a recorder that trusts no change list: every region is re-read at every
/// column, the reference the change-driven recorder must match.
struct ReadEverything<'a>(&'a mut faultline_scenario::Run);

impl RegionStates for ReadEverything<'_> {
    fn region_count(&self) -> u32 {
        self.0.region_count()
    }
    fn base_region(&self, region: u32) -> u32 {
        self.0.base_region(region)
    }
    fn colour(&self, region: u32) -> u8 {
        self.0.colour(region)
    }
    /// Leaves the run's notes alone: they are the other recorder's.
    fn restart_changes(&mut self) {}
    fn changes(&mut self, _out: &mut Vec<u32>) -> bool {
        true
    }
    fn now(&self) -> SimTime {
        RegionStates::now(&*self.0)
    }
}

/// Every gallery scenario of up to 1,000 regions (stores killed, paused, restarted, added and
/// removed; splits, merges, learners), played to its end column by column: the heatmap from the
/// model's change notes is the one a full re-read at every column gives. A change the model
/// forgets to note (a new place that makes a peer leader or puts it to sleep) fails here.
#[test]
fn reading_the_noted_changes_draws_what_reading_everything_draws() {
    let mut checked = 0;
    for entry in faultline_scenario::gallery() {
        if entry.scenario.topology.regions > 1_000 {
            continue;
        }
        let mut run = faultline_scenario::Run::new(&entry.scenario).expect("builds");
        run.run_until(SimTime::ZERO);
        let end = run.end();
        let mut noted = HeatmapRecorder::new(&mut run, end);
        let mut full = HeatmapRecorder::new(&mut ReadEverything(&mut run), end);
        while !run.finished() {
            run.run_until(noted.next_column_time().min(end));
            noted.record_due(&mut run);
            full.record_due(&mut ReadEverything(&mut run));
            if run.now() >= end {
                break;
            }
        }
        let (a, b) = (noted.vm(end, vec![]), full.vm(end, vec![]));
        assert_eq!(a.recorded, b.recorded, "{}", entry.file);
        for c in 0..a.recorded {
            for k in 0..a.buckets {
                assert_eq!(
                    a.cell(c, k),
                    b.cell(c, k),
                    "{} column {c} row {k}",
                    entry.file
                );
            }
        }
        assert_eq!(a.leaderless, b.leaderless, "{}", entry.file);
        assert!(noted.reads() < full.reads(), "{}", entry.file);
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} scenarios checked");
}
