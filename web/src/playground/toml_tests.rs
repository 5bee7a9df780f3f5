//! TOML import and export through the worker: the page asks, the engine parses or prints,
//! and the page opens or offers the answer.

use faultline_scenario::{encode_link, Scenario};

use super::local::Local;
use super::topology::NodeKind;
use super::{Action, Playground};
use crate::engine::{Command, TomlCmd};

use crate::gallery::small_scenario as small;

/// A playground on `s`, paused at t = 0, wired to an engine through the codec.
fn paused_local(s: &Scenario) -> Local {
    let pg = Playground::from_hash(&format!("#{}&t=0", encode_link(s)), None, false);
    Local::new(pg)
}

#[test]
fn export_toml_is_ready_once_the_worker_answers_and_follows_edits() {
    let s = small();
    let pg = Playground::from_hash(&format!("#{}&t=0", encode_link(&s)), None, false);
    // Before the worker answers, the page has no text (the share bar says loading…).
    assert!(pg.exported.is_none());
    assert!(pg
        .engine
        .outbox
        .iter()
        .any(|m| matches!(&m.cmd, Command::Toml(TomlCmd::Export { link }) if *link == pg.link)));
    let mut l = Local::new(pg);
    let (link, text) = l.pg.exported.clone().expect("answered");
    assert_eq!(link, l.pg.link);
    assert_eq!(text, faultline_scenario::to_toml(&s));
    assert_eq!(
        faultline_scenario::parse_scenario("x.toml", &text).unwrap(),
        s
    );
    // An edit asks again; the answer matches the new link.
    l.apply(Action::AddNode(NodeKind::Tikv));
    let (link, text) = l.pg.exported.clone().expect("answered");
    assert_eq!(link, l.pg.link);
    assert_eq!(
        faultline_scenario::parse_scenario("x.toml", &text)
            .unwrap()
            .topology
            .stores,
        s.topology.stores + 1
    );
}

#[test]
fn import_toml_opens_the_file_the_worker_parsed() {
    let s = small();
    let mut other = s.clone();
    other.name = "imported".into();
    other.topology.stores += 1;
    let mut l = paused_local(&s);
    l.apply(Action::ImportToml(
        "mine.toml".into(),
        faultline_scenario::to_toml(&other),
    ));
    assert!(l.pg.error.is_none(), "{:?}", l.pg.error);
    assert!(l.pg.importing.is_none());
    assert_eq!(*l.pg.scenario(), other);
    assert_eq!(l.pg.file, None);
    assert_eq!(l.pg.link, encode_link(&other));
}

#[test]
fn a_bad_toml_import_shows_the_parsers_error_with_file_and_line() {
    let s = small();
    let mut l = paused_local(&s);
    let text = "name = \"x\"\nduration = \n";
    // While the worker has not answered, the page says it is importing.
    l.pg.apply(Action::ImportToml("bad.toml".into(), text.into()));
    assert_eq!(l.pg.importing.as_deref(), Some("bad.toml"));
    l.flush();
    let expected = format!(
        "Could not import bad.toml:\n{}",
        faultline_scenario::parse_scenario("bad.toml", text).unwrap_err()
    );
    assert_eq!(l.pg.error.as_deref(), Some(expected.as_str()));
    assert!(expected.contains("bad.toml:2:"), "{expected}");
    assert!(l.pg.importing.is_none());
    // The scenario is unchanged.
    assert_eq!(*l.pg.scenario(), s);
    // An unknown field names its line too.
    l.apply(Action::ImportToml(
        "typo.toml".into(),
        "name = \"x\"\nduration = \"1m\"\nbogus = 1\n".into(),
    ));
    let e = l.pg.error.clone().unwrap();
    assert!(
        e.starts_with("Could not import typo.toml:\ntypo.toml:3:1: unknown field `bogus`"),
        "{e}"
    );
}
