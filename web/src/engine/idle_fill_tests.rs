//! The engine's idle work: snapshots added in the gaps a long seek left, while the cursor
//! rests.

use faultline_scenario::dur::Dur;

use super::tests::{load, msg};
use super::*;
use crate::gallery::small_scenario as small;

/// Pumps until the seek has landed (not further); the frame that says so.
fn until_landed(e: &mut Engine) -> Frame {
    for _ in 0..100_000 {
        let frame = e.pump(&|| 0.0);
        if !e.busy() {
            if let Some(f) = frame {
                return f;
            }
        }
    }
    panic!("the seek never landed");
}

#[test]
fn idle_time_fills_the_snapshot_gaps_a_long_seek_left_without_moving_the_cursor() {
    // 20 minutes of a small cluster: a seek to the end spaces its snapshots about a minute
    // apart, gaps idle time then halves down to 20 s (twice the usual 10 s interval).
    let mut s = small();
    s.duration = Dur::secs(1_200);
    let mut e = Engine::new();
    e.handle(msg(1, load(&s, 0, false)));
    until_landed(&mut e);
    e.handle(msg(2, Command::Seek(s.duration.to_time().as_micros())));
    let landed = until_landed(&mut e);
    assert!(e.pending(), "gaps are left to fill");
    let mut counts = vec![landed.snapshots];
    while e.pending() {
        if let Some(f) = e.pump(&|| 0.0) {
            assert_eq!((f.now_us, f.trace_hash), (landed.now_us, landed.trace_hash));
            counts.push(f.snapshots);
        }
    }
    assert!(
        counts.len() > 2 && counts.windows(2).all(|w| w[1] == w[0] + 1),
        "one snapshot a frame, the status line's count following: {counts:?}"
    );
    let after = e
        .handle(msg(3, Command::Pause))
        .expect("a pause answers with a frame");
    assert!(
        after.snapshots > landed.snapshots,
        "{} snapshots, {} before",
        after.snapshots,
        landed.snapshots
    );
    assert_eq!(after.now_us, landed.now_us, "the cursor did not move");
    assert_eq!(after.trace_hash, landed.trace_hash);
    // A seek back lands on the same world as before the filling.
    e.handle(msg(4, Command::Seek(400_000_000)));
    let back = until_landed(&mut e);
    let mut fresh = faultline_scenario::Run::new(&s).unwrap();
    fresh.run_until(faultline_sim::SimTime(400_000_000));
    assert_eq!(back.trace_hash, fresh.trace_hash());
}
