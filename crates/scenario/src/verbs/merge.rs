//! `merge` (pd-ctl `operator add merge-region`, sent to `pd-1`): `region` merges into the
//! region after it in key order (or before it, for the last), through PrepareMerge and
//! CommitMerge.

use faultline_cdc::StackTimer;

use super::check::VerbCheck;
use super::split::{check_pd_target, check_region};
use super::verb::{Targets, Verb};
use crate::dur::Dur;
use crate::fault_spec::FaultSpec;
use crate::format::Scenario;

/// Merge a region into its neighbour.
pub struct Merge;

impl Verb for Merge {
    fn name(&self) -> &'static str {
        "merge"
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

    /// Names the region that merges, not PD.
    fn label(&self, f: &FaultSpec) -> String {
        match f.region {
            Some(r) => format!("merge region {r}"),
            None => format!("{} {}", self.name(), f.target),
        }
    }

    /// Where it goes.
    fn report_words(&self, _f: &FaultSpec) -> String {
        ", into its neighbour".to_string()
    }

    /// `region` is checked with `merge`'s target; `from` is not merge's.
    fn check_leader_fields(&self, c: &mut VerbCheck) {
        c.refuse_from();
    }

    /// `split`'s fields are refused; the target is PD and `region` exists when it runs.
    fn check_split_fields(&self, c: &mut VerbCheck) {
        c.refuse_split_fields();
        check_pd_target(c);
        match c.f.region {
            Some(r) => check_region(c, r),
            None => c.add(
                "region",
                "merge needs region: the region that merges into its neighbour",
            ),
        }
    }

    fn timers(&self, f: &FaultSpec, _s: &Scenario) -> Vec<(Dur, StackTimer)> {
        let merge = f.region.map(|region| StackTimer::MergeRegion { region });
        merge.map(|t| (f.at, t)).into_iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use crate::{Dur, FaultAction, FaultSpec};

    /// A merge names the region that merges, not PD.
    #[test]
    fn a_merge_names_its_region() {
        let mut merge = FaultSpec::new(Dur::secs(20), FaultAction::Merge, "pd-1");
        merge.region = Some(9);
        assert_eq!(merge.short_label(), "merge region 9");
    }
}
