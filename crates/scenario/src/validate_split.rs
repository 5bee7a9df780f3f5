//! Validation of `split`: PD is told (`target = "pd-1"`) to split `region` into `parts`
//! regions; only `split` takes `parts`.

use crate::error::Problems;
use crate::format::{FaultAction, FaultSpec, Scenario};

/// Most regions one split makes (`pd-ctl` takes any count; this keeps scenarios readable).
pub const MAX_SPLIT_PARTS: u32 = 16;

/// Checks `split`'s `target`, `region` and `parts`, and that no other action takes `parts`.
pub(crate) fn check_split(
    p: &mut Problems,
    s: &Scenario,
    f: &FaultSpec,
    field: &dyn Fn(&str) -> String,
) {
    if f.action != FaultAction::Split {
        if f.parts.is_some() {
            let msg = format!("only split takes parts, not {}", f.action.name());
            p.add(field("parts"), msg);
        }
        return;
    }
    if f.target.trim() != "pd-1" {
        p.add(
            field("target"),
            "split is an operator command to PD: target = \"pd-1\"",
        );
    }
    let regions = regions_at(s, f);
    match f.region {
        None => p.add(field("region"), "split needs region, the region to split"),
        Some(r) if r >= regions => p.add(
            field("region"),
            format!(
                "{r} is out of range; at {} regions are numbered 0..={}",
                f.at,
                regions.saturating_sub(1)
            ),
        ),
        Some(_) => {}
    }
    if let Some(n) = f.parts.filter(|n| !(2..=MAX_SPLIT_PARTS).contains(n)) {
        let msg = format!("{n} is out of range; a split makes 2..={MAX_SPLIT_PARTS} regions");
        p.add(field("parts"), msg);
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
