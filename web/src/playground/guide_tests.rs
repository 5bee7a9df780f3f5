//! A guide step brings its view into sight and shows its caption's checked claims.

use faultline_scenario::{gallery, GuideTab, Scenario};
use faultline_sim::SimTime;

use super::super::tests::local;
use super::super::Action;
use super::GuideStop;

fn shipped(file: &str) -> Scenario {
    gallery()
        .into_iter()
        .find(|e| e.file == file)
        .unwrap_or_else(|| panic!("{file} is not shipped"))
        .scenario
}

#[test]
fn a_step_names_its_tab_chart_and_node_and_its_claims_are_checked_there() {
    let s = shipped("raft-basics-kill-a-store.toml");
    let mut l = local(&s);
    l.apply(Action::GuideTo(GuideStop::Step(1)));
    l.settle();
    assert_eq!(l.pg.now(), SimTime(30_000_000));
    let nav = l.pg.guide_nav().expect("guided");
    assert_eq!(nav.step, Some(1));
    assert_eq!(nav.view.tab, Some(GuideTab::Charts));
    assert_eq!(nav.view.metric, Some("leaderless_regions"));
    assert_eq!(nav.view.node, Some("tikv-1"));
    let claims = &l.pg.frame.expectations.claims;
    let here: Vec<_> = claims.iter().filter(|c| c.step == 1).collect();
    assert_eq!(here.len(), 1);
    assert_eq!(here[0].row.verdict, "pass", "{:?}", here[0].row);
    assert!(here[0].row.observed.unwrap() > 0.0);
    // The last step (4m) is still ahead of the cursor: its claim is pending, not failed.
    let last = claims.iter().find(|c| c.step == s.guide.len() - 1).unwrap();
    assert_eq!(last.row.verdict, "pending");
}

#[test]
fn before_the_first_step_nothing_is_named() {
    let s = shipped("tiflow-9344-scale-captures-during-workload.toml");
    assert!(
        s.guide[0].at.to_time() > SimTime(0),
        "its tour starts at 10s"
    );
    let mut l = local(&s);
    l.apply(Action::GuideTo(GuideStop::Start));
    l.settle();
    let nav = l.pg.guide_nav().expect("guided");
    assert_eq!(nav.step, None);
    assert_eq!(nav.view, super::StepView::default());
    assert_eq!(nav.next, Some(GuideStop::Step(0)));
}

/// Next pressed twice in quick succession goes two steps on. The engine reports a seek's
/// progress in frames on the way (it runs in slices), so a cursor taken from such a frame put
/// the tour back one step, and the second Next went to the step the first
/// had already asked for (a flaky browser test found it).
#[test]
fn next_while_a_seek_is_under_way_aims_past_the_step_asked_for() {
    let s = shipped("tikv-14547-leaders-lost-after-store-failure.toml");
    let mut l = local(&s);
    l.apply(Action::GuideTo(GuideStop::Step(0)));
    l.settle();
    l.apply(Action::GuideTo(GuideStop::Step(1)));
    // Each read of this clock is 1 ms later, so the seek stops on its slice budget and the
    // page gets a progress frame from half way.
    let ms = std::cell::Cell::new(0.0);
    let ticking = || {
        ms.set(ms.get() + 1.0);
        ms.get()
    };
    while l.pg.frame.seek_target_us.is_none() && l.engine.pending() {
        l.pump_with(&ticking);
    }
    assert!(
        l.pg.frame.seek_target_us.is_some(),
        "the engine has not finished the seek yet, or this test no longer tests the race"
    );
    let nav = l.pg.guide_nav().expect("guided");
    assert_eq!(nav.step, Some(1), "the bar shows the step asked for");
    assert_eq!(nav.next, Some(GuideStop::Step(2)));
    l.apply(Action::GuideTo(nav.next.unwrap()));
    l.settle();
    assert_eq!(l.pg.now(), s.guide[2].at.to_time());
    assert_eq!(l.pg.guide_nav().unwrap().step, Some(2));
}
