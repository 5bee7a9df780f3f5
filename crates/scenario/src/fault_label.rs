//! A fault step in a few words, for the playground's chips and the charts' fault marks.

use crate::fault_action::FaultAction;
use crate::format::FaultSpec;

impl FaultSpec {
    /// The verb and its target (`kill tikv-2`), or for a split or merge, whose target is always
    /// PD, what it cuts or joins: `split region 5 in 4`, `split t1 at row 30`, `merge region 9`.
    pub fn short_label(&self) -> String {
        let table = self.table.as_deref().unwrap_or_default();
        match (self.action, self.region, self.row) {
            (FaultAction::Split, Some(r), _) => {
                format!("split region {r} in {}", self.split_parts())
            }
            (FaultAction::Split, None, Some(row)) => format!("split {table} at row {row}"),
            (FaultAction::Split, None, None) => {
                format!("split {table}'s regions in {}", self.split_parts())
            }
            (FaultAction::Merge, Some(r), _) => format!("merge region {r}"),
            _ => format!("{} {}", self.action.name(), self.target),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Dur, FaultAction, FaultSpec};

    /// A split names the region and the parts, not PD; other steps the verb and target.
    #[test]
    fn a_split_names_its_region_and_parts() {
        let mut split = FaultSpec::new(Dur::secs(20), FaultAction::Split, "pd-1");
        split.region = Some(5);
        assert_eq!(split.short_label(), "split region 5 in 2");
        split.parts = Some(4);
        assert_eq!(split.short_label(), "split region 5 in 4");
        let kill = FaultSpec::new(Dur::secs(50), FaultAction::Kill, "tikv-2");
        assert_eq!(kill.short_label(), "kill tikv-2");
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

    /// A merge names the region that merges, not PD.
    #[test]
    fn a_merge_names_its_region() {
        let mut merge = FaultSpec::new(Dur::secs(20), FaultAction::Merge, "pd-1");
        merge.region = Some(9);
        assert_eq!(merge.short_label(), "merge region 9");
    }
}
