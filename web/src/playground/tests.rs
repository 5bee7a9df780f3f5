//! The playground driven with page actions against a real engine (through the codec).

use super::local::Local;
use super::topology::NodeKind;
use super::*;

use faultline_scenario::{FaultAction, Run};

use crate::gallery::small_scenario as small;

pub(super) fn local(s: &Scenario) -> Local {
    Local::new(Playground::from_hash(
        &format!("#{}", encode_link(s)),
        None,
        false,
    ))
}

#[test]
fn a_link_with_a_cursor_opens_there_paused() {
    let s = small();
    let h = hash::format(&encode_link(&s), SimTime(30_000_000));
    let pg = Playground::from_hash(&h, None, false);
    assert!(pg.error.is_none());
    // Before the engine answers, the page already shows where it is going.
    assert_eq!(pg.status(), "seeking");
    assert_eq!(pg.url_hash(), h);
    let mut l = Local::new(pg);
    l.settle();
    assert_eq!(l.pg.now(), SimTime(30_000_000));
    assert_eq!(l.pg.status(), "paused");
    assert_eq!(l.pg.url_hash(), h);
    let mut whole = Run::new(&s).unwrap();
    whole.run_until(SimTime(30_000_000));
    assert_eq!(l.pg.trace_hash(), whole.trace_hash());
}

#[test]
fn a_broken_link_falls_back_and_keeps_the_autosave_on_offer() {
    let pg = Playground::from_hash("#v1.%%%", Some(small()), false);
    assert!(pg.error.as_deref().unwrap().contains("could not be opened"));
    assert_eq!(pg.file, Some(DEFAULT_SCENARIO_FILE));
    assert!(pg.autosaved.is_some());
}

#[test]
fn edit_fault_undo_redo() {
    let s = small();
    let mut l = local(&s);
    l.apply(Action::Seek(SimTime(20_000_000)));
    l.settle();
    let f = l.pg.fault_now(FaultAction::Kill, "tikv-2");
    l.apply(Action::AddFault(f));
    l.settle();
    assert_eq!(l.pg.scenario().faults.len(), s.faults.len() + 1);
    assert_eq!(l.pg.now(), SimTime(20_000_000));
    l.apply(Action::AddNode(NodeKind::Tikv));
    assert_eq!(l.pg.scenario().topology.stores, s.topology.stores + 1);
    l.apply(Action::Undo);
    l.apply(Action::Undo);
    assert_eq!(l.pg.scenario(), &s);
    l.apply(Action::Redo);
    assert_eq!(l.pg.scenario().faults.len(), s.faults.len() + 1);
    // An invalid edit keeps the run and reports the field.
    l.apply(Action::Edit(std::rc::Rc::new(|s| s.topology.stores = 99)));
    assert!(l.pg.problems.iter().any(|p| p.field.contains("stores")));
    assert_eq!(l.pg.scenario().topology.stores, s.topology.stores);
    // The engine runs what the page shows.
    l.settle();
    let mut whole = Run::new(l.pg.scenario()).unwrap();
    whole.run_until(SimTime(20_000_000));
    assert_eq!(l.pg.now(), SimTime(20_000_000));
    assert_eq!(l.pg.trace_hash(), whole.trace_hash());
}

#[test]
fn branch_and_switch_back() {
    let s = small();
    let mut l = local(&s);
    l.apply(Action::Seek(SimTime(10_000_000)));
    l.settle();
    let at_branch = l.pg.trace_hash();
    l.apply(Action::BranchHere);
    let f = l.pg.fault_now(FaultAction::Pause, "tikv-3");
    l.apply(Action::AddFault(f));
    l.settle();
    assert_eq!(l.pg.branches.len(), 2);
    assert_eq!(l.pg.branches[0].hash, at_branch);
    assert_eq!(l.pg.branches[0].cursor, SimTime(10_000_000));
    l.apply(Action::SwitchBranch(0));
    l.settle();
    assert_eq!(l.pg.scenario(), &s);
    assert_eq!(l.pg.now(), SimTime(10_000_000));
    assert_eq!(l.pg.trace_hash(), at_branch);
}

#[test]
fn branch_while_playing_records_where_the_engine_paused() {
    let s = small();
    let mut l = local(&s);
    // Play a little (one frame's worth), then branch without waiting.
    l.apply(Action::SetSpeed(Speed::X100));
    l.pump();
    l.apply(Action::BranchHere);
    l.settle();
    let b = &l.pg.branches[0];
    assert_eq!(b.cursor, l.pg.now());
    assert_eq!(b.hash, l.pg.trace_hash());
    assert_eq!(l.pg.branches[1].hash, l.pg.trace_hash());
}

#[test]
fn compare_runs_the_twin_on_the_same_cursor() {
    let s = small();
    let mut l = local(&s);
    l.apply(Action::CompareOn(0));
    l.apply(Action::Seek(SimTime(40_000_000)));
    l.settle();
    let twin = l.pg.frame.twin.as_ref().expect("twin reported");
    assert_eq!(twin.now_us, l.pg.now().as_micros());
    let mut flipped = s.clone();
    toggles::set_buggy(&mut flipped, 0, !toggles::is_buggy(&s, 0));
    let mut whole = Run::new(&flipped).unwrap();
    whole.run_until(SimTime(40_000_000));
    assert_eq!(twin.trace_hash, whole.trace_hash());
    l.apply(Action::CompareOff);
    l.settle();
    assert!(l.pg.frame.twin.is_none());
}

#[test]
fn a_pasted_link_keeps_numbering_commands() {
    let s = small();
    let mut l = local(&s);
    l.settle();
    let mut other = s.clone();
    other.seed += 1;
    let h = hash::format(&encode_link(&other), SimTime(5_000_000));
    l.apply(Action::LoadHash(h));
    // Before the engine answers, the old frame must not pass for the new run.
    assert_eq!(l.pg.status(), "seeking");
    l.settle();
    assert_eq!(l.pg.status(), "paused");
    assert_eq!(l.pg.now(), SimTime(5_000_000));
    let mut whole = Run::new(&other).unwrap();
    whole.run_until(SimTime(5_000_000));
    assert_eq!(l.pg.trace_hash(), whole.trace_hash());
}

#[test]
fn a_worker_that_never_reports_in_is_named_and_a_late_one_clears_the_message() {
    let s = small();
    let mut pg = Playground::from_hash(&format!("#{}", encode_link(&s)), None, false);
    assert_eq!(pg.status(), "seeking");
    // The watchdog fires with no word from the worker: the page says why nothing runs.
    assert!(pg.apply(Action::EngineSilent));
    assert_eq!(pg.status(), "no worker");
    assert_eq!(pg.error.as_deref(), Some(WORKER_MISSING));
    // The worker arrives after all (a slow network): the message goes, the load proceeds.
    pg.apply(Action::EngineReady);
    assert!(pg.error.is_none());
    assert_eq!(pg.status(), "seeking");
    let mut l = Local::new(pg);
    l.settle();
    assert_eq!(l.pg.status(), "paused");
    assert_eq!(
        l.pg.frame.ack, l.pg.engine.seq,
        "the engine answered every command"
    );
}

/// A link pasted into the address bar before the start watchdog fired: the worker that
/// already reported in is not called missing when the watchdog fires for the new link.
#[test]
fn a_pasted_link_keeps_the_worker_that_reported_in() {
    let s = small();
    let mut l = local(&s);
    l.settle();
    let mut other = s.clone();
    other.seed += 1;
    l.apply(Action::LoadHash(hash::format(
        &encode_link(&other),
        SimTime(0),
    )));
    assert!(!l.pg.apply(Action::EngineSilent));
    assert!(l.pg.error.is_none());
    l.settle();
    assert_eq!(l.pg.status(), "paused");
}

#[test]
fn the_watchdog_stays_quiet_once_the_worker_reported_in() {
    let mut l = local(&small());
    assert!(l.pg.engine_ready);
    assert!(!l.pg.apply(Action::EngineSilent));
    assert!(l.pg.error.is_none());
    assert_ne!(l.pg.status(), "no worker");
}

#[test]
fn a_scenario_opens_paused_at_zero_and_only_the_embed_plays() {
    let s = small();
    let mut l = local(&s);
    l.settle();
    assert_eq!(l.pg.status(), "paused");
    assert_eq!(l.pg.now(), SimTime(0));
    // Opening from the gallery is paused at 0 too.
    l.apply(Action::Seek(SimTime(30_000_000)));
    l.apply(Action::Open {
        scenario: Box::new(s.clone()),
        file: None,
    });
    l.settle();
    assert_eq!((l.pg.status(), l.pg.now()), ("paused", SimTime(0)));
    let mut embed = Local::new(Playground::from_hash(
        &format!("#{}", encode_link(&s)),
        None,
        true,
    ));
    embed.settle();
    assert_eq!(embed.pg.status(), "finished");
}

/// `small()` with a one-step tour at 20 s (like tiflow#9595-fixed's at 2m).
fn one_step_tour() -> Scenario {
    let mut s = small();
    s.guide = vec![faultline_scenario::GuideStep::new(
        Dur(20_000_000),
        "tikv-2 is down",
    )];
    s
}

#[test]
fn a_one_step_tour_reaches_its_step_and_goes_back_with_prev() {
    let s = one_step_tour();
    let mut l = local(&s);
    l.apply(Action::Open {
        scenario: Box::new(s.clone()),
        file: None,
    });
    l.settle();
    // Before the step: no caption yet, Next goes to step 1.
    let nav = l.pg.guide_nav().expect("guided");
    assert_eq!((nav.step, nav.caption, nav.prev), (None, None, None));
    assert_eq!(nav.next, Some(GuideStop::Step(0)));
    l.apply(Action::GuideTo(GuideStop::Step(0)));
    l.settle();
    assert_eq!((l.pg.status(), l.pg.now()), ("paused", SimTime(20_000_000)));
    let nav = l.pg.guide_nav().expect("guided");
    assert_eq!(nav.step, Some(0));
    assert_eq!(nav.caption, Some("tikv-2 is down"));
    assert_eq!((nav.prev, nav.next), (Some(GuideStop::Start), None));
    l.apply(Action::GuideTo(GuideStop::Start));
    l.settle();
    assert_eq!((l.pg.status(), l.pg.now()), ("paused", SimTime(0)));
    assert_eq!(l.pg.guide_nav().expect("still guided").step, None);
}

#[test]
fn each_tour_step_pauses_at_its_own_time() {
    let gallery_tour = faultline_scenario::gallery()
        .into_iter()
        .find(|e| e.scenario.guide.len() >= 3 && e.scenario.topology.regions <= 1_000)
        .expect("a gallery scenario with a tour")
        .scenario;
    let mut l = local(&gallery_tour);
    l.apply(Action::GuideTo(GuideStop::Step(0)));
    for (i, step) in gallery_tour.guide.iter().enumerate() {
        l.settle();
        assert_eq!(l.pg.status(), "paused", "step {i}");
        assert_eq!(l.pg.now(), step.at.to_time(), "step {i}");
        let nav = l.pg.guide_nav().expect("guided");
        assert_eq!(nav.step, Some(i));
        if let Some(next) = nav.next {
            l.apply(Action::GuideTo(next));
        }
    }
    assert_eq!(l.pg.guide_nav().and_then(|n| n.next), None);
}
