//! Validation of the fault script and the expectations: what every step shares (its time,
//! the characters of its target, its undo); each verb checks its own fields (`verbs/`).

use faultline_cdc::knobs as cdc;
use faultline_tikv::knobs as tikv;

use crate::dur::Dur;
use crate::error::Problems;
use crate::fault_action::FaultAction;
use crate::fault_spec::FaultSpec;
use crate::format::{Expectation, Scenario};
use crate::limits::*;
use crate::nodes::node_names;
use crate::text::{check_chars, TextKind};
use crate::validate_field::{check_len, dur_range};
use crate::verbs::check::{has_control, VerbCheck};

pub(crate) fn check_faults(p: &mut Problems, s: &Scenario) {
    if s.faults.len() > MAX_FAULTS {
        p.add(
            "faults",
            format!("{} faults; the limit is {MAX_FAULTS}", s.faults.len()),
        );
        return;
    }
    // Node names are built from the topology; an out-of-range size is already reported, and
    // naming 4 billion stores would exhaust memory (found by the link fuzzer).
    let t = &s.topology;
    if u64::from(t.stores) > tikv::STORES.max
        || u64::from(t.max_stores) > tikv::MAX_STORES.max
        || u64::from(t.captures) > cdc::CAPTURES.max
        || u64::from(t.kafka_brokers) > cdc::KAFKA_BROKERS.max
    {
        return;
    }
    let names = node_names(s);
    for (i, f) in s.faults.iter().enumerate() {
        let field = |name: &str| format!("faults[{i}].{name}");
        if f.at > s.duration {
            p.add(
                field("at"),
                format!("{} is after the end of the run ({})", f.at, s.duration),
            );
        }
        let verb = f.action.verb();
        let mut c = VerbCheck {
            p,
            s,
            f,
            names: &names,
            field: &field,
        };
        // A selector with control characters is reported as such and not resolved further:
        // the resolver's "no node named ..." would echo it.
        if has_control(&f.target) {
            check_chars(c.p, &field("target"), &f.target, TextKind::Name);
        } else {
            verb.check_target(&mut c);
        }
        verb.check_link_fields(&mut c);
        verb.check_leader_fields(&mut c);
        verb.check_split_fields(&mut c);
        verb.check_loss(&mut c);
        verb.check_delay(&mut c);
        check_undo(p, f, &field("duration"));
    }
}

fn check_undo(p: &mut Problems, f: &FaultSpec, field: &str) {
    let Some(d) = f.duration else { return };
    if !f.action.undoable() {
        let names: Vec<&str> = FaultAction::ALL
            .into_iter()
            .filter(|a| a.undoable())
            .map(FaultAction::name)
            .collect();
        let (last, rest) = names.split_last().expect("some verbs are undoable");
        p.add(
            field,
            format!(
                "{} cannot be undone after a duration; only {} and {last} can",
                f.action.name(),
                rest.join(", ")
            ),
        );
    }
    dur_range(p, field, d, Dur(1), Dur::secs(MAX_DURATION_SECS));
}

pub(crate) fn check_expectations(p: &mut Problems, s: &Scenario) {
    if s.expect.len() > MAX_EXPECTATIONS {
        p.add(
            "expect",
            format!(
                "{} expectations; the limit is {MAX_EXPECTATIONS}",
                s.expect.len()
            ),
        );
        return;
    }
    for (i, e) in s.expect.iter().enumerate() {
        let field = |name: &str| format!("expect[{i}].{name}");
        check_expectation_fields(p, s, e, &field);
        // `shrink --property NAME` and the reports pick an expectation by its name.
        if !e.name.is_empty() {
            if let Some(j) = s.expect[..i].iter().position(|o| o.name == e.name) {
                p.add(
                    field("name"),
                    format!(
                        "`{}` is already the name of expect[{j}]; names must be unique",
                        e.name
                    ),
                );
            }
        }
    }
}

/// One expectation's own rules (what it reads, its value, window and name), shared by
/// `[[expect]]` and the claims of `[[guide]]` steps; `field` names a field of it.
pub(crate) fn check_expectation_fields(
    p: &mut Problems,
    s: &Scenario,
    e: &Expectation,
    field: &dyn Fn(&str) -> String,
) {
    match (&e.metric, &e.log) {
        (None, None) => p.add(
            field("metric"),
            "say what to check: `metric = \"...\"` or `log = \"...\"`",
        ),
        (Some(_), Some(_)) => p.add(field("log"), "give either metric or log, not both"),
        _ => {}
    }
    for (name, text) in [("metric", &e.metric), ("log", &e.log)] {
        if let Some(text) = text {
            check_len(p, &field(name), text, MAX_NAME_CHARS);
            check_chars(p, &field(name), text, TextKind::Name);
        }
    }
    if !e.value.is_finite() {
        p.add(field("value"), "must be a finite number");
    }
    check_window(p, s, e.from, e.to, &field);
    check_len(p, &field("name"), &e.name, MAX_TEXT_CHARS);
    check_chars(p, &field("name"), &e.name, TextKind::Name);
}

fn check_window(
    p: &mut Problems,
    s: &Scenario,
    from: Option<Dur>,
    to: Option<Dur>,
    field: &dyn Fn(&str) -> String,
) {
    for (name, t) in [("from", from), ("to", to)] {
        if let Some(t) = t {
            if t > s.duration {
                p.add(
                    field(name),
                    format!("{t} is after the end of the run ({})", s.duration),
                );
            }
        }
    }
    if let (Some(a), Some(b)) = (from, to) {
        if a > b {
            p.add(field("from"), format!("{a} is after `to` ({b})"));
        }
    }
}
