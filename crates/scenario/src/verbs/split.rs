//! `split` (pd-ctl `operator add split-region`, sent to `pd-1`): the region's leader splits
//! `region` into `parts` regions through Raft; or every region of `table`, or `table`'s `row`
//! region at its key, which PD resolves to regions when it runs. Only `split` takes `parts`,
//! `table` and `row`.

use faultline_cdc::table_split::TableSplit;
use faultline_cdc::StackTimer;
use faultline_tikv::TikvAction;

use super::check::VerbCheck;
use super::steps::tikv_timer;
use super::verb::{Targets, Verb};
use crate::dur::Dur;
use crate::fault_action::FaultAction;
use crate::fault_spec::FaultSpec;
use crate::format::Scenario;

/// Most regions one split makes (`pd-ctl` takes any count; this keeps scenarios readable).
pub const MAX_SPLIT_PARTS: u32 = 16;

/// Split regions.
pub struct Split;

impl FaultSpec {
    /// How many regions a `split` makes: `parts`, or 2 when not given, as `pd-ctl operator
    /// add split-region` splits in two.
    pub fn split_parts(&self) -> u32 {
        self.parts.unwrap_or(2)
    }

    /// The table a `split` names (`t1` is 1), if it names one and the name reads as a table.
    pub fn split_table(&self) -> Option<u32> {
        let name = self.table.as_deref()?.trim();
        name.strip_prefix('t')?.parse().ok()
    }
}

impl Verb for Split {
    fn name(&self) -> &'static str {
        "split"
    }

    fn targets(&self) -> Targets {
        Targets::Pd
    }

    fn over_when_ordered(&self) -> bool {
        true
    }

    fn changes_layout(&self) -> bool {
        true
    }

    /// Region 0.
    fn start(&self, f: &mut FaultSpec) {
        f.region = Some(0);
    }

    /// Names PD's work, not PD: `split region 5 in 4`, `split t1 at row 30`.
    fn label(&self, f: &FaultSpec) -> String {
        let table = f.table.as_deref().unwrap_or_default();
        match (f.region, f.row) {
            (Some(r), _) => format!("split region {r} in {}", f.split_parts()),
            (None, Some(row)) => format!("split {table} at row {row}"),
            (None, None) => format!("split {table}'s regions in {}", f.split_parts()),
        }
    }

    /// What it cuts: a region, every region of a table, or a row's region.
    fn report_words(&self, f: &FaultSpec) -> String {
        let table = f.table.as_deref().unwrap_or_default();
        match (f.region, f.row) {
            (None, Some(row)) => {
                format!(", the region of table {table} holding row {row}, cut there into 2 regions")
            }
            (None, None) => format!(
                ", every region of table {table}, each into {} regions",
                f.split_parts()
            ),
            (Some(_), _) => format!(", into {} regions", f.split_parts()),
        }
    }

    /// `region` is checked with the split's other fields; `from` is not split's.
    fn check_leader_fields(&self, c: &mut VerbCheck) {
        c.refuse_from();
    }

    /// The target is PD, one of `region` and `table` is given and exists (and `row` with
    /// `table`), and `parts` is in range.
    fn check_split_fields(&self, c: &mut VerbCheck) {
        let f = c.f;
        check_pd_target(c);
        match (f.region, &f.table) {
            (Some(_), Some(_)) => c.add("table", "split takes region or table, not both"),
            (None, None) => c.add(
                "region",
                "split needs region (the region to split) or table (every region of it)",
            ),
            (Some(r), None) => check_region(c, r),
            (None, Some(_)) => check_table(c),
        }
        if f.row.is_some() && f.table.is_none() {
            c.add("row", "row needs table: the row of that table to cut at");
        }
        if let Some(n) = f.parts.filter(|n| !(2..=MAX_SPLIT_PARTS).contains(n)) {
            let msg = format!("{n} is out of range; a split makes 2..={MAX_SPLIT_PARTS} regions");
            c.add("parts", msg);
        }
    }

    /// A split of a region is TiKV's; one named by table (or by a table's row) is resolved to
    /// regions by PD when it runs: the TiKV layer has no keys, so the stack carries it out
    /// (`faultline_cdc::table_split`).
    fn timers(&self, f: &FaultSpec, _s: &Scenario) -> Vec<(Dur, StackTimer)> {
        let parts = f.split_parts();
        if let Some(region) = f.region {
            let split = TikvAction::Split {
                region,
                parts,
                at: None,
            };
            return vec![(f.at, tikv_timer(split))];
        }
        let Some(table) = f.split_table() else {
            return Vec::new();
        };
        let row = f.row;
        let split = TableSplit { table, row, parts };
        vec![(f.at, StackTimer::SplitTable(split))]
    }
}

/// Splits and merges are operator commands to PD.
pub(super) fn check_pd_target(c: &mut VerbCheck) {
    if c.f.target.trim() != "pd-1" {
        let msg = format!(
            "{} is an operator command to PD: target = \"pd-1\"",
            c.f.action.name()
        );
        c.add("target", msg);
    }
}

/// `region` exists when the split or merge runs.
pub(super) fn check_region(c: &mut VerbCheck, r: u32) {
    let regions = regions_at(c.s, c.f);
    if r >= regions {
        let msg = format!(
            "{r} is out of range; at {} regions are numbered 0..={}",
            c.f.at,
            regions.saturating_sub(1)
        );
        c.add("region", msg);
    }
}

/// `table` names a table of the TiCDC workload, and `row` a row of it (with two parts).
fn check_table(c: &mut VerbCheck) {
    let (s, f) = (c.s, c.f);
    let tables = s.workload.tables;
    if s.topology.captures == 0 {
        let msg = "split by table needs the TiCDC workload's tables: set topology.captures";
        c.add("table", msg);
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
            c.add("table", msg);
        }
    }
    let Some(row) = f.row else { return };
    let rows = s.workload.rows_per_table;
    if row >= rows {
        let msg = format!(
            "{row} is out of range; a table has rows 0..={}",
            rows.saturating_sub(1)
        );
        c.add("row", msg);
    }
    if f.parts.is_some_and(|n| n != 2) {
        c.add(
            "parts",
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

#[cfg(test)]
mod tests {
    use crate::{Dur, FaultAction, FaultSpec};

    /// A split names the region and the parts, not PD.
    #[test]
    fn a_split_names_its_region_and_parts() {
        let mut split = FaultSpec::new(Dur::secs(20), FaultAction::Split, "pd-1");
        split.region = Some(5);
        assert_eq!(split.short_label(), "split region 5 in 2");
        split.parts = Some(4);
        assert_eq!(split.short_label(), "split region 5 in 4");
    }

    /// A split by table names the table, and one at a row the row.
    #[test]
    fn a_split_by_table_names_the_table_or_the_row() {
        let mut split = FaultSpec::new(Dur::secs(20), FaultAction::Split, "pd-1");
        split.region = None;
        split.table = Some("t1".into());
        split.parts = Some(3);
        assert_eq!(split.short_label(), "split t1's regions in 3");
        split.row = Some(30);
        assert_eq!(split.short_label(), "split t1 at row 30");
    }

    /// A bug report's words for a split by table name the table, and at a row the row.
    #[test]
    fn a_report_says_which_table_or_row_splits() {
        let mut f = FaultSpec::new(Dur::secs(5), FaultAction::Split, "pd-1");
        f.region = None;
        f.table = Some("t1".into());
        let words = |f: &FaultSpec| f.action.verb().report_words(f);
        assert_eq!(words(&f), ", every region of table t1, each into 2 regions");
        f.row = Some(50);
        assert_eq!(
            words(&f),
            ", the region of table t1 holding row 50, cut there into 2 regions"
        );
    }
}
