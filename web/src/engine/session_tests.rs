//! The session against whole runs: rewinds, seeks and slices give the same hash, and the
//! seek speed at full scale, measured by hand.

use super::*;
use crate::gallery::small_scenario as small;

#[test]
fn rewind_and_replay_give_the_same_hash() {
    let s = small();
    let mut whole = Run::new(&s).unwrap();
    whole.run_until(SimTime(150_000_000));
    let mut sess = Session::new(&s).unwrap();
    sess.seek(SimTime(150_000_000));
    assert_eq!(sess.run.trace_hash(), whole.trace_hash());
    sess.seek(SimTime(42_000_000));
    assert_eq!(sess.now(), SimTime(42_000_000));
    sess.seek(SimTime(150_000_000));
    assert_eq!(sess.run.trace_hash(), whole.trace_hash());
    assert!(sess.snapshot_count() > 1);
}

/// cdc-capture-loses-pd has many events at 140 s, 148 s and at its end (2m30s), so a
/// slice's event budget ran out in the middle of them; the session used to stop there.
#[test]
fn a_session_reaches_the_runs_world_at_every_target_even_mid_instant() {
    let text = include_str!("../../../scenarios/cdc-capture-loses-pd.toml");
    let s = faultline_scenario::parse_scenario("cdc-capture-loses-pd.toml", text).unwrap();
    for secs in [140, 148, 150] {
        let t = SimTime(secs * 1_000_000);
        let mut whole = Run::new(&s).unwrap();
        whole.run_until(t);
        let mut sess = Session::new(&s).unwrap();
        sess.advance(t, f64::INFINITY, &|| 0.0);
        assert_eq!(sess.run.trace_hash(), whole.trace_hash(), "at {secs} s");
    }
}

/// Plays cdc-capture-loses-pd as the page does, in slices that end after one check of a
/// clock that moves 1 ms per read (so every slice runs 256 events at most and ends
/// wherever that falls), towards targets a seeded stream draws, and then asks the page's
/// own question, "finished?". The run's end instant has hundreds of events; a session that
/// judged "reached" by its clock stopped among them, short of the native trace hash.
#[test]
fn playing_in_slices_that_end_anywhere_finishes_with_the_native_hash() {
    let text = include_str!("../../../scenarios/cdc-capture-loses-pd.toml");
    let s = faultline_scenario::parse_scenario("cdc-capture-loses-pd.toml", text).unwrap();
    let mut whole = Run::new(&s).unwrap();
    whole.run_to_end();
    let wall = std::cell::Cell::new(0.0);
    let clock = || {
        wall.set(wall.get() + 1.0);
        wall.get()
    };
    for seed in 0..3 {
        let mut draws = faultline_sim::rng::SimRng::stream(seed, "slicing");
        let mut sess = Session::new(&s).unwrap();
        let mut slices = 0;
        while !sess.finished() {
            let step = draws.below(4_000_000);
            let target = SimTime(sess.now().as_micros() + step);
            sess.advance(target, 1.0, &clock);
            slices += 1;
            assert!(
                slices < 1_000_000,
                "seed {seed}: the session never finishes"
            );
        }
        assert_eq!(sess.run.trace_hash(), whole.trace_hash(), "seed {seed}");
    }
}

#[test]
fn a_new_session_has_run_the_events_at_zero() {
    let s = small();
    let sess = Session::new(&s).unwrap();
    assert_eq!(sess.now(), SimTime::ZERO);
    assert!(sess.run.world.kernel.processed() > 0);
    assert!(sess
        .run
        .world
        .kernel
        .next_event_time()
        .is_some_and(|t| t > SimTime::ZERO));
}

/// What the playground adds to the bare model while seeking into unplayed time (heatmap
/// recording, snapshots, slicing), at full scale: `cargo test --release -p faultline-web
/// seek_speed -- --ignored --nocapture` (`SEEK_SPEED_S` simulated seconds, default 120).
/// Prints the speeds; asserts only that both runs end in the same state.
#[test]
#[ignore = "a full-scale measurement of a minute or more; run by hand"]
fn seek_speed_at_full_scale_against_the_bare_model() {
    let default = include_str!("../../../scenarios/tikv-14547-full-scale.toml").to_string();
    // `SEEK_SCENARIO=path` measures another scenario (relative to web/).
    let text = std::env::var("SEEK_SCENARIO")
        .map_or(default, |path| std::fs::read_to_string(path).unwrap());
    let s = faultline_scenario::parse_scenario("seek.toml", &text).unwrap();
    let secs: u64 = std::env::var("SEEK_SPEED_S").map_or(120, |v| v.parse().unwrap());
    let target = SimTime(secs * 1_000_000);
    let start = std::time::Instant::now();
    let clock = || start.elapsed().as_secs_f64() * 1e3;
    let mut bare = Run::new(&s).unwrap();
    bare.world.set_check_invariants(false);
    let t0 = clock();
    bare.run_until(target);
    let bare_ms = clock() - t0;
    let mut sess = Session::new(&s).unwrap();
    let t0 = clock();
    // As the engine's seek: restore (nothing to restore here), plan the snapshots, and
    // record the deliveries only before them and the target.
    sess.restore_for(target);
    while !sess.seek_slice(target, target, 12.0, &clock) {}
    let seek_ms = clock() - t0;
    assert_eq!(sess.run.trace_hash(), bare.trace_hash());
    println!(
        "measured: seek 0 -> {secs} s at full scale: bare model {:.2} s, playground \
         session {:.2} s ({} snapshots) = {:.0}% of the bare speed",
        bare_ms / 1e3,
        seek_ms / 1e3,
        sess.snapshot_count(),
        100.0 * bare_ms / seek_ms
    );
}

#[test]
fn stepping_to_a_node_stops_on_its_event() {
    let s = small();
    let mut sess = Session::new(&s).unwrap();
    let node = sess.run.world.kernel.net.find("tikv-2").unwrap();
    assert!(sess.step_to_node(node));
    assert!(sess.now() > SimTime(0) || sess.run.world.kernel.processed() > 0);
}

/// The heatmap's rows are the regions at the start; what it reports as the count at the
/// cursor follows splits (its caption says where the split regions are drawn).
#[test]
fn the_heatmap_knows_how_many_regions_a_split_added() {
    let text = include_str!("../../../scenarios/raft-region-split.toml");
    let s = faultline_scenario::parse_scenario("raft-region-split.toml", text).unwrap();
    let mut sess = Session::new(&s).unwrap();
    sess.seek(SimTime(19_000_000));
    assert_eq!(
        (sess.heatmap().regions, sess.heatmap().regions_now),
        (16, 16)
    );
    sess.seek(SimTime(21_000_000));
    assert_eq!(
        (sess.heatmap().regions, sess.heatmap().regions_now),
        (16, 19)
    );
}
