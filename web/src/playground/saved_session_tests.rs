use super::*;
use crate::engine::ViewRequest;
use crate::gallery::small_scenario as small;
use crate::playground::local::Local;
use crate::playground::{hash, Action};

fn open(h: &str) -> Playground {
    Playground::from_hash(h, None, false)
}

/// A page that compared, branched, edited and opened a tab, then saved its session.
fn worked_session() -> (Local, String) {
    let s = small();
    let mut l = Local::new(open(&format!("#{}", encode_link(&s))));
    l.apply(Action::Views(ViewRequest {
        tab: ViewTab::Regions,
        ..ViewRequest::default()
    }));
    l.apply(Action::Seek(SimTime(20_000_000)));
    l.settle();
    l.apply(Action::Edit(std::rc::Rc::new(|s| s.seed += 1)));
    l.settle();
    l.apply(Action::BranchHere);
    l.settle();
    l.apply(Action::CompareOn(0));
    l.settle();
    let text = l.pg.saved_session();
    (l, text)
}

#[test]
fn a_reload_keeps_compare_branches_undo_and_the_tab() {
    let (before, text) = worked_session();
    assert_eq!(
        before.pg.history.can(),
        (true, false),
        "branch here kept undo"
    );
    let mut pg = open(&before.pg.url_hash());
    pg.restore_session(&text);
    assert_eq!(pg.compare, Some(0));
    assert_eq!(pg.views.tab, ViewTab::Regions);
    assert_eq!(pg.branches.len(), 2);
    assert_eq!(pg.active, 1);
    assert_eq!(pg.branches[0].scenario, before.pg.branches[0].scenario);
    assert_eq!(pg.history.can(), (true, false));
    assert!(pg.notice.is_none());
    let mut l = Local::new(pg);
    l.settle();
    assert!(l.pg.frame.twin.is_some(), "the compare twin runs again");
    assert_eq!(l.pg.now(), before.pg.now());
    l.apply(Action::Undo);
    assert_eq!(
        l.pg.scenario().seed,
        small().seed,
        "undo reaches the edit before the reload"
    );
}

#[test]
fn a_different_link_in_the_address_wins_over_the_saved_session() {
    let (_, text) = worked_session();
    let mut other = small();
    other.seed += 7;
    let mut pg = open(&hash::format(&encode_link(&other), SimTime(0)));
    pg.restore_session(&text);
    assert_eq!(pg.compare, None);
    assert_eq!(pg.branches.len(), 1);
    assert!(pg.notice.is_none());
}

#[test]
fn corrupt_saved_state_is_ignored_with_a_notice() {
    let (before, text) = worked_session();
    let decode = |t: &str| bincode::deserialize::<SavedSession>(&from_hex(t).unwrap()).unwrap();
    let mut broken_branch = decode(&text);
    broken_branch.branches[0].link = "v2.broken".into();
    let mut newer = decode(&text);
    newer.format = FORMAT + 1;
    let cut = &text[..text.len() / 2];
    let bad = [
        "{not hex".to_string(),
        cut.to_string(),
        to_text(&broken_branch),
        to_text(&newer),
    ];
    for bad in bad {
        let mut pg = open(&before.pg.url_hash());
        pg.restore_session(&bad);
        assert_eq!(pg.branches.len(), 1, "{bad}");
        assert_eq!(pg.compare, None, "{bad}");
        let notice = pg.notice.clone().unwrap_or_default();
        assert!(notice.contains("could not be read"), "{bad}: {notice}");
    }
}
