//! Validation of `transfer_leader`'s fields: the target is one TiKV store, and exactly one of
//! `region` (a region index) and `from` (another TiKV store) says which leaders move.

use crate::error::Problems;
use crate::format::{FaultAction, FaultSpec, Scenario};
use crate::nodes::resolve;
use crate::text::{check_chars, TextKind};

/// Checks `target`, `from` and `region` of one script step.
pub(crate) fn check_transfer(
    p: &mut Problems,
    s: &Scenario,
    f: &FaultSpec,
    names: &[String],
    field: &dyn Fn(&str) -> String,
) {
    if matches!(f.action, FaultAction::Split | FaultAction::Merge) {
        // `region` is split's and merge's too (`validate_split`); `from` is not.
        if f.from.is_some() {
            let msg = format!("only transfer_leader takes from, not {}", f.action.name());
            p.add(field("from"), msg);
        }
        return;
    }
    if f.action != FaultAction::TransferLeader {
        not_for(p, f, field);
        return;
    }
    // A target with control characters is already reported by the script's check.
    let to = if f.target.chars().any(char::is_control) {
        None
    } else {
        one_store(p, &f.target, names, &field("target"))
    };
    match (f.region, &f.from) {
        (Some(_), Some(_)) => p.add(
            field("from"),
            "transfer_leader takes region or from, not both",
        ),
        (None, None) => p.add(
            field("region"),
            "transfer_leader needs region (one region's leader) or from (a store's leaders)",
        ),
        (Some(r), None) if r >= s.topology.regions => p.add(
            field("region"),
            format!(
                "{r} is out of range; regions are numbered 0..={}",
                s.topology.regions.saturating_sub(1)
            ),
        ),
        (Some(_), None) => {}
        (None, Some(from)) => {
            let from = one_store(p, from, names, &field("from"));
            if from.is_some() && from == to {
                p.add(field("from"), "from and target are the same store");
            }
        }
    }
}

/// `from` and `region` belong to `transfer_leader` alone.
fn not_for(p: &mut Problems, f: &FaultSpec, field: &dyn Fn(&str) -> String) {
    for (name, given) in [("from", f.from.is_some()), ("region", f.region.is_some())] {
        if given {
            p.add(
                field(name),
                match name {
                    "region" => format!(
                        "only transfer_leader and split take region, not {}",
                        f.action.name()
                    ),
                    _ => format!("only transfer_leader takes {name}, not {}", f.action.name()),
                },
            );
        }
    }
}

/// The one TiKV store `selector` names, or a problem at `field`.
fn one_store(p: &mut Problems, selector: &str, names: &[String], field: &str) -> Option<String> {
    if selector.chars().any(char::is_control) {
        check_chars(p, field, selector, TextKind::Name);
        return None;
    }
    match resolve(selector, names) {
        Ok(hit) if hit.len() == 1 && hit[0].starts_with("tikv-") => Some(hit[0].clone()),
        Ok(_) => {
            p.add(
                field,
                "transfer_leader takes one TiKV store here, e.g. `tikv-2`",
            );
            None
        }
        Err(e) => {
            p.add(field, e);
            None
        }
    }
}
