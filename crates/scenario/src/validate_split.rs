//! Validation of `split` and `merge`: PD is told (`target = "pd-1"`) to split `region` into
//! `parts` regions, or every region of `table`, or `table`'s `row` region at its key; or to
//! merge `region` into its neighbour. Only `split` takes `parts`, `table` and `row`.

use crate::error::Problems;
use crate::format::{FaultAction, FaultSpec, Scenario};

/// Most regions one split makes (`pd-ctl` takes any count; this keeps scenarios readable).
pub const MAX_SPLIT_PARTS: u32 = 16;

/// Checks `split`'s `target`, `region` or `table` and `row`, and `parts`, and that no other
/// action takes them.
pub(crate) fn check_split(
    p: &mut Problems,
    s: &Scenario,
    f: &FaultSpec,
    field: &dyn Fn(&str) -> String,
) {
    if f.action != FaultAction::Split {
        for (name, given) in [
            ("parts", f.parts.is_some()),
            ("table", f.table.is_some()),
            ("row", f.row.is_some()),
        ] {
            if given {
                let msg = format!("only split takes {name}, not {}", f.action.name());
                p.add(field(name), msg);
            }
        }
        if f.action == FaultAction::Merge {
            check_merge(p, s, f, field);
        }
        return;
    }
    check_pd_target(p, f, field);
    match (f.region, &f.table) {
        (Some(_), Some(_)) => p.add(field("table"), "split takes region or table, not both"),
        (None, None) => p.add(
            field("region"),
            "split needs region (the region to split) or table (every region of it)",
        ),
        (Some(r), None) => check_region(p, s, f, r, field),
        (None, Some(_)) => check_table(p, s, f, field),
    }
    if f.row.is_some() && f.table.is_none() {
        p.add(
            field("row"),
            "row needs table: the row of that table to cut at",
        );
    }
    if let Some(n) = f.parts.filter(|n| !(2..=MAX_SPLIT_PARTS).contains(n)) {
        let msg = format!("{n} is out of range; a split makes 2..={MAX_SPLIT_PARTS} regions");
        p.add(field("parts"), msg);
    }
}

/// `merge`'s target is PD and its `region` exists when it runs.
fn check_merge(p: &mut Problems, s: &Scenario, f: &FaultSpec, field: &dyn Fn(&str) -> String) {
    check_pd_target(p, f, field);
    match f.region {
        Some(r) => check_region(p, s, f, r, field),
        None => p.add(
            field("region"),
            "merge needs region: the region that merges into its neighbour",
        ),
    }
}

/// Splits and merges are operator commands to PD.
fn check_pd_target(p: &mut Problems, f: &FaultSpec, field: &dyn Fn(&str) -> String) {
    if f.target.trim() != "pd-1" {
        let msg = format!(
            "{} is an operator command to PD: target = \"pd-1\"",
            f.action.name()
        );
        p.add(field("target"), msg);
    }
}

/// `region` exists when the split or merge runs.
fn check_region(
    p: &mut Problems,
    s: &Scenario,
    f: &FaultSpec,
    r: u32,
    field: &dyn Fn(&str) -> String,
) {
    let regions = regions_at(s, f);
    if r >= regions {
        let msg = format!(
            "{r} is out of range; at {} regions are numbered 0..={}",
            f.at,
            regions.saturating_sub(1)
        );
        p.add(field("region"), msg);
    }
}

/// `table` names a table of the TiCDC workload, and `row` a row of it (with two parts).
fn check_table(p: &mut Problems, s: &Scenario, f: &FaultSpec, field: &dyn Fn(&str) -> String) {
    let tables = s.workload.tables;
    if s.topology.captures == 0 {
        let msg = "split by table needs the TiCDC workload's tables: set topology.captures";
        p.add(field("table"), msg);
        return;
    }
    match f.split_table() {
        Some(t) if t < tables => {}
        _ => {
            let given = f.table.as_deref().unwrap_or_default();
            let msg = format!(
                "{:?} is not a table; the workload has t0..=t{}",
                given,
                tables.saturating_sub(1)
            );
            p.add(field("table"), msg);
        }
    }
    let Some(row) = f.row else { return };
    let rows = s.workload.rows_per_table;
    if row >= rows {
        let msg = format!(
            "{row} is out of range; a table has rows 0..={}",
            rows.saturating_sub(1)
        );
        p.add(field("row"), msg);
    }
    if f.parts.is_some_and(|n| n != 2) {
        p.add(
            field("parts"),
            "a split at a row makes two regions: leave parts out",
        );
    }
}

/// Regions that exist when `f` runs: the topology's, plus those the splits scheduled earlier
/// add (a split's new regions are numbered after every existing one).
fn regions_at(s: &Scenario, f: &FaultSpec) -> u32 {
    let added: u32 = (s.faults.iter())
        .filter(|g| g.action == FaultAction::Split && g.at < f.at)
        .map(|g| g.split_parts().clamp(2, MAX_SPLIT_PARTS) - 1)
        .sum();
    s.topology.regions.saturating_add(added)
}
