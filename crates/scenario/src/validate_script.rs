//! Validation of the fault script and the expectations.

use faultline_cdc::knobs as cdc;
use faultline_tikv::knobs as tikv;

use crate::dur::Dur;
use crate::error::Problems;
use crate::format::{Expectation, FaultAction, FaultSpec, Scenario};
use crate::limits::*;
use crate::nodes::{node_names, resolve};
use crate::text::{check_chars, TextKind};
use crate::validate_field::{check_len, dur_range};

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
        // A selector with control characters is reported as such and not resolved further:
        // the resolver's "no node named ..." would echo it.
        if has_control(&f.target) {
            check_chars(p, &field("target"), &f.target, TextKind::Name);
        } else {
            check_target(p, s, f, &names, &field("target"));
        }
        check_link_fields(p, f, &names, &field);
        crate::validate_transfer::check_transfer(p, s, f, &names, &field);
        crate::validate_split::check_split(p, s, f, &field);
        check_action_values(p, f, &field);
        check_undo(p, f, &field("duration"));
    }
}

fn has_control(text: &str) -> bool {
    text.chars().any(char::is_control)
}

fn check_target(p: &mut Problems, s: &Scenario, f: &FaultSpec, names: &[String], field: &str) {
    match f.action {
        FaultAction::PauseChangefeed | FaultAction::ResumeChangefeed => {
            if !s.changefeeds.iter().any(|c| c.id == f.target.trim()) {
                let ids: Vec<&str> = s.changefeeds.iter().map(|c| c.id.as_str()).collect();
                p.add(
                    field,
                    format!(
                        "{} needs a changefeed id as target; changefeeds are [{}]",
                        f.action.name(),
                        ids.join(", ")
                    ),
                );
            }
        }
        FaultAction::RemoveCapture | FaultAction::AddCapture => match resolve(&f.target, names) {
            Ok(hit) if hit.iter().all(|n| n.starts_with("cdc-")) => {}
            Ok(_) => p.add(
                field,
                format!("{} takes captures only, e.g. `cdc-2`", f.action.name()),
            ),
            Err(e) => p.add(field, e),
        },
        // Its target, `from` and `region` are checked together in `validate_transfer`, and
        // split's and merge's in `validate_split`.
        FaultAction::TransferLeader | FaultAction::Split | FaultAction::Merge => {}
        FaultAction::AddStore => check_joining(p, s, &f.target, names, field),
        FaultAction::EvictLeader | FaultAction::RemoveStore => match resolve(&f.target, names) {
            Ok(hit) if hit.iter().all(|n| n.starts_with("tikv-")) => {}
            Ok(_) => p.add(
                field,
                format!("{} takes TiKV stores only, e.g. `tikv-1`", f.action.name()),
            ),
            Err(e) => p.add(field, e),
        },
        _ => {
            if let Err(e) = resolve(&f.target, names) {
                p.add(field, e);
            }
        }
    }
}

/// `add_store` takes only stores that wait to join: `tikv-(stores+1)..tikv-max_stores`.
fn check_joining(p: &mut Problems, s: &Scenario, target: &str, names: &[String], field: &str) {
    let t = &s.topology;
    let hit = match resolve(target, names) {
        Ok(hit) => hit,
        Err(e) => return p.add(field, e),
    };
    let joining = |n: &String| {
        n.strip_prefix("tikv-")
            .and_then(|i| i.parse::<u32>().ok())
            .is_some_and(|i| i > t.stores)
    };
    if !hit.iter().all(joining) {
        let msg = if t.max_stores <= t.stores {
            format!(
                "add_store needs a store that can join: set topology.max_stores above topology.stores ({}), then target tikv-{}",
                t.stores,
                t.stores + 1
            )
        } else {
            format!(
                "add_store takes the stores that wait to join, tikv-{}..tikv-{}",
                t.stores + 1,
                t.max_stores
            )
        };
        p.add(field, msg);
    }
}

fn is_link_fault(a: FaultAction) -> bool {
    matches!(
        a,
        FaultAction::Partition | FaultAction::Heal | FaultAction::Loss | FaultAction::Delay
    )
}

fn check_link_fields(
    p: &mut Problems,
    f: &FaultSpec,
    names: &[String],
    field: &dyn Fn(&str) -> String,
) {
    let link_fault = is_link_fault(f.action);
    match (&f.peers, link_fault) {
        (Some(peers), true) if has_control(peers) => {
            check_chars(p, &field("peers"), peers, TextKind::Name)
        }
        (Some(peers), true) => {
            if let Err(e) = resolve(peers, names) {
                p.add(field("peers"), e);
            }
        }
        (Some(_), false) => p.add(
            field("peers"),
            format!(
                "only partition, heal, loss and delay take peers, not {}",
                f.action.name()
            ),
        ),
        _ => {}
    }
    if f.one_way && !link_fault {
        p.add(
            field("one_way"),
            format!(
                "only partition, heal, loss and delay can be one-way, not {}",
                f.action.name()
            ),
        );
    }
}

fn check_action_values(p: &mut Problems, f: &FaultSpec, field: &dyn Fn(&str) -> String) {
    match (f.action, f.loss_percent) {
        (FaultAction::Loss, None) => p.add(
            field("loss_percent"),
            "a loss fault needs loss_percent, 1..=100",
        ),
        (FaultAction::Loss, Some(v)) if !(1..=100).contains(&v) => p.add(
            field("loss_percent"),
            format!("{v} is out of range; allowed 1..=100"),
        ),
        (FaultAction::Loss, _) => {}
        (a, Some(_)) => p.add(
            field("loss_percent"),
            format!("only loss takes loss_percent, not {}", a.name()),
        ),
        _ => {}
    }
    match (f.action, f.delay) {
        (FaultAction::Delay, None) => {
            p.add(field("delay"), "a delay fault needs delay, e.g. \"200ms\"")
        }
        (FaultAction::Delay, Some(d)) => {
            dur_range(p, &field("delay"), d, Dur(1), Dur::secs(MAX_DELAY_SECS))
        }
        (a, Some(_)) => p.add(
            field("delay"),
            format!("only delay takes delay, not {}", a.name()),
        ),
        _ => {}
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
