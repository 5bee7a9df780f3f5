//! The page's link check and first difference, through the engine and its codec.

use faultline_scenario::{
    decode_shared, encode_shared, parse_scenario, self_checking_link, Scenario, MODEL_VERSION,
};
use faultline_sim::SimTime;

use super::{check_state, checked_url_hash, current_difference, CheckState};
use crate::playground::local::Local;
use crate::playground::{Action, Playground};

/// A two-minute, eight-region scenario with one expectation (from the link corpus).
fn small() -> Scenario {
    let text =
        include_str!("../../../crates/scenario/tests/link_corpus/v2/self-checking-golden.toml");
    parse_scenario("small.toml", text).expect("valid")
}

fn opened(link: &str) -> Local {
    let mut l = Local::new(Playground::from_hash(&format!("#{link}"), None, false));
    l.settle();
    l
}

fn outcome(l: &Local) -> faultline_scenario::Verification {
    match check_state(&l.pg) {
        Some(CheckState::Done(v)) => v,
        other => panic!("no outcome: {other:?}"),
    }
}

#[test]
fn a_self_checking_link_opens_at_its_cursor_and_reproduces() {
    let s = small();
    let link = self_checking_link(&s, SimTime(90_000_000)).unwrap();
    let l = opened(&link);
    assert_eq!(l.pg.now(), SimTime(90_000_000));
    let v = outcome(&l);
    assert!(v.reproduced(), "{:?}", v.details());
    assert_eq!(
        v.headline(),
        "Reproduced: the same run as when it was shared"
    );
}

#[test]
fn a_tampered_link_says_different_run() {
    let s = small();
    let shared = decode_shared(&self_checking_link(&s, SimTime(90_000_000)).unwrap()).unwrap();
    let mut record = shared.record.unwrap();
    record.trace_hash ^= 1;
    let l = opened(&encode_shared(&s, Some(&record)));
    let v = outcome(&l);
    assert!(!v.reproduced());
    assert_eq!(
        v.headline(),
        format!("Different run: shared with model {MODEL_VERSION}, this is model {MODEL_VERSION}")
    );
}

#[test]
fn a_plain_link_shows_no_banner_and_copy_link_records_the_run() {
    let s = small();
    let plain = faultline_scenario::encode_link(&s);
    let mut l = opened(&format!("{plain}&t=30"));
    assert_eq!(check_state(&l.pg), None);
    l.apply(Action::Pause);
    l.settle();
    let copied = checked_url_hash(&l.pg);
    let record = decode_shared(copied.trim_start_matches('#').split('&').next().unwrap())
        .unwrap()
        .record
        .expect("Copy link records the run");
    assert_eq!(record.cursor, SimTime(30_000_000));
    assert_eq!(record.trace_hash, l.pg.trace_hash());
    assert!(copied.ends_with("&t=30"), "{copied}");
}

#[test]
fn compare_mode_finds_the_first_difference_and_jumps_there() {
    // tiflow#9595 buggy vs fixed part soon after the 1 min kill (tikv#14547's twins run
    // alike in this model).
    let mut s = faultline_scenario::gallery()
        .into_iter()
        .find(|e| e.file == "tiflow-9595-changefeed-stuck-after-tikv-failure.toml")
        .expect("shipped")
        .scenario;
    s.guide.clear();
    let mut l = opened(&format!("{}&t=0", faultline_scenario::encode_link(&s)));
    let toggle = crate::playground::toggles::primary_toggle(&s);
    l.apply(Action::CompareOn(toggle));
    l.settle();
    l.apply(Action::FindFirstDifference);
    l.settle();
    let d = current_difference(&l.pg)
        .expect("an answer for these runs")
        .clone();
    let twin = super::twin_link(&l.pg).unwrap();
    let expected =
        faultline_scenario::first_difference(&s, &faultline_scenario::decode_link(&twin).unwrap())
            .unwrap()
            .expect("buggy and fixed part");
    let at = d
        .at_us
        .unwrap_or_else(|| panic!("the page has a time to jump to: {:?}", d.lines));
    assert_eq!(at, expected.time().as_micros());
    assert_eq!(d.lines, expected.describe());
    l.apply(Action::Seek(SimTime(at)));
    l.settle();
    assert_eq!(l.pg.now(), SimTime(at));
    let twin = l.pg.frame.twin.as_ref().expect("the twin runs beside");
    assert_ne!(
        twin.trace_hash,
        l.pg.trace_hash(),
        "both runs shown just past the parting"
    );
}
