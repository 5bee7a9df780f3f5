//! Snapshots against real runs: when they are taken, what thinning and the plan keep, the
//! landmarks and the positions a seek leaves, and that each replays to the live run's hash.

use super::*;
use faultline_scenario::gallery;

fn tikv_14547() -> Run {
    let g = gallery();
    let e = g
        .iter()
        .find(|e| e.file.starts_with("tikv-14547-leaders-lost"))
        .expect("the tikv#14547 scenario is shipped");
    Run::new(&e.scenario).expect("and runnable")
}

/// Plays `run` to `until` in 1 ms steps, offering every step to `snaps`.
fn play(run: &mut Run, snaps: &mut Snapshots, until: SimTime) {
    while run.now() < until {
        run.run_until(SimTime(run.now().0 + 1_000));
        snaps.maybe_take(run);
    }
}

#[test]
fn a_busy_stretch_gets_snapshots_by_work_done_not_only_by_time() {
    let mut run = tikv_14547();
    let mut snaps = Snapshots::new(&run, 1_000);
    snaps.every_events = 2_000;
    play(&mut run, &mut snaps, SimTime(30_000_000));
    let times: Vec<u64> = snaps.items.iter().map(|r| r.now().0).collect();
    // By time alone there would be 4 (0, 10, 20 and 30 s).
    assert!(times.len() > 4, "snapshots at {times:?}");
    for w in snaps.items.windows(2) {
        let events = w[1].world.kernel.processed() - w[0].world.kernel.processed();
        let gap_us = w[1].now().0 - w[0].now().0;
        assert!(
            gap_us <= MAX_INTERVAL_US + 1_000,
            "gap {gap_us} µs in {times:?}"
        );
        // Taken at the first step boundary past the interval: at most one step's events over.
        assert!(
            events < 2 * 2_000 || gap_us >= MAX_INTERVAL_US,
            "{events} events"
        );
    }
}

/// Every snapshot held replays to `live`'s trace hash at `live`'s time.
fn each_replays_to(snaps: &Snapshots, live: &Run) {
    for s in &snaps.items {
        let mut replay = s.clone();
        replay.run_until(live.now());
        assert_eq!(replay.trace_hash(), live.trace_hash(), "from {:?}", s.now());
    }
}

/// The times of the snapshots held, in whole seconds.
fn secs(snaps: &Snapshots) -> Vec<u64> {
    snaps.items.iter().map(|r| r.now().0 / 1_000_000).collect()
}

#[test]
fn a_long_seek_takes_half_the_room_evenly_and_idle_time_fills_the_gaps() {
    let mut run = tikv_14547();
    let mut snaps = Snapshots::new(&run, 6);
    snaps.every_events = u64::MAX;
    // From 0 to 60 s: five free places, half of them (two) for the seek, one every 30 s.
    // By the usual 10 s interval the seventh snapshot (at 60 s) would thin them.
    snaps.plan(SimTime(60_000_000));
    play(&mut run, &mut snaps, SimTime(60_000_000));
    assert_eq!(secs(&snaps), [0, 30, 60]);
    assert_eq!(snaps.every_us, MAX_INTERVAL_US, "nothing thinned");
    // Idle time halves the widest gap (the earliest of equal ones) while it is wider than
    // twice the usual interval and the budget has room.
    while let Some((from, at)) = snaps.widest_gap() {
        let mut filled = from.clone();
        filled.run_until(at);
        snaps.insert(filled);
    }
    assert_eq!(
        secs(&snaps),
        [0, 15, 30, 45, 60],
        "15 s gaps are narrow enough"
    );
    each_replays_to(&snaps, &run);
    // Past the planned stretch the usual interval applies again; with the budget full,
    // nothing is left to fill, and a new plan thins before it starts.
    play(&mut run, &mut snaps, SimTime(70_000_000));
    assert_eq!(secs(&snaps), [0, 15, 30, 45, 60, 70]);
    assert!(snaps.widest_gap().is_none(), "the budget is full");
    snaps.plan(SimTime(130_000_000));
    assert_eq!(secs(&snaps), [0, 30, 60]);
    snaps.plan(SimTime(71_000_000));
    assert_eq!(snaps.plan, None, "eleven seconds is not a long seek");
}

#[test]
fn landmarks_are_taken_at_their_very_time_and_outlive_thinning() {
    let mut run = tikv_14547();
    let at = |secs: &[u64]| {
        secs.iter()
            .map(|&s| SimTime(s * 1_000_000))
            .collect::<Vec<_>>()
    };
    // Unordered, repeated, at the start and past the end: kept once, in order, within.
    let snaps = Snapshots::new(&run, 8).with_landmarks(at(&[61, 60, 70, 60, 0, 99_999]));
    assert_eq!(snaps.landmarks, at(&[60, 61, 70]));
    let capped = Snapshots::new(&run, 4).with_landmarks(at(&[70, 61, 60]));
    assert_eq!(
        capped.landmarks,
        at(&[60, 61]),
        "half the budget, earliest first"
    );
    let mut snaps = Snapshots::new(&run, 6).with_landmarks(at(&[60, 61, 70]));
    play(&mut run, &mut snaps, SimTime(200_000_000));
    let held: Vec<SimTime> = snaps.items.iter().map(Run::now).collect();
    assert!(snaps.every_us > MAX_INTERVAL_US, "thinned: {held:?}");
    assert!(held.len() <= 6, "{held:?}");
    for t in at(&[60, 61, 70]) {
        assert!(held.contains(&t), "no snapshot at {t:?}: {held:?}");
    }
    each_replays_to(&snaps, &run);
}

#[test]
fn a_seeks_planned_snapshots_split_the_widest_stretches_between_landmarks() {
    let mut run = tikv_14547();
    let mut snaps = Snapshots::new(&run, 9).with_landmarks([SimTime(25_000_000)]);
    snaps.every_events = u64::MAX;
    // Half the eight free places, less the landmark's: three, one of them the target's. The
    // two others go to the widest stretches: 25-60 s first (35 s), then 0-25 s (25 s against
    // 17.5 s left on the other side).
    snaps.plan(SimTime(60_000_000));
    play(&mut run, &mut snaps, SimTime(60_000_000));
    assert_eq!(secs(&snaps), [0, 12, 25, 42, 60]);
}

/// A session stops its run at each landmark on the way (whatever its slices), so a seek
/// back to a tour step restores that step's snapshot and replays nothing.
#[test]
fn a_seek_back_to_a_tour_step_lands_without_a_replay() {
    let g = gallery();
    let e = g
        .iter()
        .find(|e| e.file.starts_with("tikv-14547-leaders-lost"))
        .expect("shipped");
    let mut sess = super::super::session::Session::new(&e.scenario).expect("builds");
    sess.seek(SimTime(150_000_000));
    let steps: Vec<SimTime> = e.scenario.guide.iter().map(|g| g.at.to_time()).collect();
    assert!(steps.len() > 2);
    for &t in steps.iter().rev() {
        sess.restore_for(t);
        assert_eq!(sess.now(), t, "restored at the step itself");
        let events = sess.run.world.kernel.processed();
        assert!(
            sess.seek_slice(t, t, f64::INFINITY, &|| 0.0),
            "landed at once"
        );
        assert_eq!(
            sess.run.world.kernel.processed(),
            events,
            "nothing replayed"
        );
        let mut fresh = Run::new(&e.scenario).expect("builds");
        fresh.run_until(t);
        assert_eq!(sess.run.trace_hash(), fresh.trace_hash(), "at {t:?}");
    }
}

/// A seek that restores a snapshot keeps the run it leaves, so a seek back to where the
/// user was replays nothing.
#[test]
fn a_seek_back_to_the_cursor_a_seek_left_replays_nothing() {
    let mut s = crate::gallery::small_scenario();
    s.duration = faultline_scenario::dur::Dur::secs(600);
    let mut sess = super::super::session::Session::new(&s).expect("builds");
    sess.seek(SimTime(600_000_000));
    while sess.fill_idle(f64::INFINITY, &|| 0.0) {}
    let here = SimTime(333_333_000);
    sess.seek(here);
    let hash = sess.run.trace_hash();
    sess.seek(SimTime(100_000_000));
    sess.restore_for(here);
    assert_eq!(sess.now(), here, "restored where the cursor was");
    assert_eq!(sess.run.trace_hash(), hash);
    let events = sess.run.world.kernel.processed();
    assert!(sess.seek_slice(here, here, f64::INFINITY, &|| 0.0));
    assert_eq!(
        sess.run.world.kernel.processed(),
        events,
        "nothing replayed"
    );
}

/// With the budget full, a kept position takes the place of the snapshot whose removal
/// leaves the narrowest gap; the first and the landmarks stay.
#[test]
fn a_kept_position_evicts_the_snapshot_that_leaves_the_narrowest_gap() {
    let run = tikv_14547();
    let mut snaps = Snapshots::new(&run, 5).with_landmarks([SimTime(12_000_000)]);
    for secs in [10, 12, 13, 40] {
        let mut r = snaps.items[0].clone();
        r.run_until(SimTime(secs * 1_000_000));
        snaps.keep_position(r);
    }
    assert_eq!(secs(&snaps), [0, 10, 12, 13, 40]);
    let mut r = snaps.items[0].clone();
    r.run_until(SimTime(30_000_000));
    snaps.keep_position(r.clone());
    // Dropping 10 s leaves a 12 s gap (0-12 s), dropping 13 s an 18 s one (12-30 s); 12 s is
    // a landmark, 30 s the kept position, 0 s the first, and 40 s has no later neighbour.
    assert_eq!(secs(&snaps), [0, 12, 13, 30, 40]);
    snaps.keep_position(r);
    assert_eq!(secs(&snaps), [0, 12, 13, 30, 40], "once");
}

#[test]
fn an_inserted_snapshot_goes_in_its_place_once_and_only_with_room() {
    let mut run = tikv_14547();
    let mut snaps = Snapshots::new(&run, 3);
    run.run_until(SimTime(20_000_000));
    snaps.maybe_take(&run);
    let mut mid = snaps.items[0].clone();
    mid.run_until(SimTime(10_000_000));
    snaps.insert(mid.clone());
    snaps.insert(mid.clone());
    assert_eq!(secs(&snaps), [0, 10, 20], "in order, and once");
    let mut late = mid;
    late.run_until(SimTime(15_000_000));
    snaps.insert(late);
    assert_eq!(secs(&snaps), [0, 10, 20], "the budget is full");
}

#[test]
fn snapshots_are_taken_between_instants_and_replay_to_the_same_hash() {
    let mut run = tikv_14547();
    let mut snaps = Snapshots::new(&run, 4);
    snaps.every_events = 1_000;
    play(&mut run, &mut snaps, SimTime(60_000_000));
    assert!(snaps.len() <= 4);
    assert!(snaps.every_events > 1_000, "thinning doubles the interval");
    for (i, s) in snaps.items.iter().enumerate() {
        // The first is the caller's (here built, its events at 0 not yet run).
        let mid_instant = s
            .world
            .kernel
            .next_event_time()
            .is_some_and(|t| t <= s.now());
        assert!(
            i == 0 || !mid_instant,
            "taken halfway through {:?}",
            s.now()
        );
    }
    each_replays_to(&snaps, &run);
}

#[test]
fn a_snapshot_shares_the_peer_state_of_regions_nobody_touched() {
    let mut run = tikv_14547();
    run.run_until(SimTime(5_000_000));
    let snap = run.clone();
    let peers = |r: &Run| r.world.model.tikv.peers().clone();
    assert_eq!(
        peers(&run).shared_chunks(&peers(&snap)),
        peers(&run).chunk_count()
    );
    run.run_until(SimTime(6_000_000));
    let (live, old) = (peers(&run), peers(&snap));
    let shared = live.shared_chunks(&old);
    // Writes in that second copied some chunks; hibernated regions' chunks stay shared.
    assert!(
        shared < live.chunk_count(),
        "nothing was written in a second of load"
    );
    assert!(shared > 0, "every chunk was copied");
}

#[test]
fn spread_points_narrow_the_widest_stretch_first() {
    let t = |secs: &[u64]| {
        secs.iter()
            .map(|&s| SimTime(s * 1_000_000))
            .collect::<Vec<_>>()
    };
    // The full-scale seek from 30 s to 6 min past the kill's landmarks: both points go to the
    // long stretch after 90 s.
    let (times, widest) = super::spread(&t(&[30, 60, 61, 90, 360]), 2);
    assert_eq!(times, t(&[180, 270]));
    assert_eq!(widest, 90_000_000);
    assert_eq!(super::spread(&t(&[0, 60]), 0), (vec![], 60_000_000));
    assert_eq!(
        super::spread(&t(&[0]), 3),
        (vec![], 0),
        "no stretch, no points"
    );
}

/// Over the memory ceiling no copy is added (by time, by plan, at a landmark or in idle
/// time) and a kept position drops the others to fit; under it, the same play keeps them.
/// Every snapshot held still replays to the live run.
#[test]
fn over_the_memory_ceiling_snapshots_give_way() {
    let mut run = tikv_14547();
    let landmark = SimTime(12_000_000);
    let mut full = Snapshots::new(&run, 1_000).with_landmarks([landmark]);
    let mut roomy = full.clone().with_ceiling(usize::MAX);
    full = full.with_ceiling(0);
    let mut twin = run.clone();
    play(&mut run, &mut full, SimTime(30_000_000));
    play(&mut twin, &mut roomy, SimTime(30_000_000));
    assert_eq!(secs(&full), [0], "nothing added over the ceiling");
    assert!(secs(&roomy).len() > 3 && secs(&roomy).contains(&12));
    assert!(full.widest_gap().is_none(), "idle time adds none");
    roomy.ceiling = 0;
    roomy.keep_position(run.clone());
    assert_eq!(
        secs(&roomy),
        [0, 30],
        "the others dropped for the kept position"
    );
    each_replays_to(&full, &run);
    each_replays_to(&roomy, &run);
}
