//! The message views at a cursor are a function of the cursor: the same deliveries whether
//! the cursor got there by a seek from the start, by playing and seeking back, by a long seek
//! whose planned snapshots were taken with the record off, after idle time filled the gaps,
//! or by a pause that finished a seek at once.

use faultline_scenario::dur::Dur;
use faultline_scenario::Scenario;

use super::protocol::{ViewData, ViewRequest, ViewTab};
use super::tests::{load, msg};
use super::*;
use crate::gallery::small_scenario as small;

/// Pumps with a frozen clock until nothing is left to do (idle fill included).
fn drain(e: &mut Engine) {
    for _ in 0..1_000_000 {
        e.pump(&|| 0.0);
        if !e.pending() {
            return;
        }
    }
    panic!("the engine never settled");
}

/// The message log's rows (delivery time and label) at the cursor.
fn rows(e: &Engine) -> Vec<(u64, String)> {
    match e.views() {
        ViewData::Log { messages, .. } => messages
            .rows
            .iter()
            .map(|r| (r.delivered_us, r.label.clone()))
            .collect(),
        other => panic!("not the log: {other:?}"),
    }
}

/// An engine with `s` loaded at `cursor` (playing or not), the log tab open, settled.
fn opened(s: &Scenario, cursor: u64, play: bool) -> Engine {
    let mut e = Engine::new();
    e.handle(msg(1, load(s, cursor, play)));
    let log = ViewRequest {
        tab: ViewTab::Log,
        ..ViewRequest::default()
    };
    e.handle(msg(2, Command::Views(log)));
    drain(&mut e);
    e
}

#[test]
fn the_message_log_at_a_cursor_does_not_depend_on_how_the_cursor_got_there() {
    let mut s = small();
    s.duration = Dur::secs(600);
    let end = s.duration.to_time().as_micros();
    // Played to the end: every snapshot holds a record from the start.
    let mut played = opened(&s, 0, true);
    // One long seek to the end: its planned snapshots were taken by a quiet replay; then
    // idle time adds more, from copies of those.
    let mut sought = opened(&s, end, false);
    assert!(sought.session.as_ref().unwrap().snapshot_count() > 2);
    for (i, secs) in [15u64, 33, 95, 207, 318, 451].into_iter().enumerate() {
        let t = secs * 1_000_000;
        let direct = opened(&s, t, false);
        let want = rows(&direct);
        assert!(!want.is_empty() && want[0].0 + MESSAGE_LEAD_IN_US > t);
        for (name, e) in [("played", &mut played), ("one long seek", &mut sought)] {
            e.handle(msg(10 + i as u64, Command::Seek(t)));
            drain(e);
            assert_eq!(e.now().as_micros(), t);
            assert_eq!(rows(e), want, "{name}, then back to {secs} s");
        }
        // A pause finishes a seek at once, without slices.
        let mut paused = opened(&s, end, false);
        paused.handle(msg(3, Command::Seek(t)));
        paused.handle(msg(4, Command::Pause));
        assert_eq!(
            rows(&paused),
            want,
            "a seek to {secs} s finished by a pause"
        );
    }
}
