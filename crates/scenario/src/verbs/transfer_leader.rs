//! `transfer_leader` (pd-ctl `operator add transfer-leader`): PD moves a region's leader, or
//! every leader of the `from` store, to the target TiKV store. The target is one TiKV store,
//! and exactly one of `region` (a region index) and `from` (another TiKV store) says which
//! leaders move. A TiKV model action, a timer on `pd-1`.

use faultline_cdc::StackTimer;
use faultline_tikv::TikvAction;

use super::check::{has_control, VerbCheck};
use super::steps::tikv_timer;
use super::verb::{Targets, Verb};
use crate::dur::Dur;
use crate::fault_spec::FaultSpec;
use crate::format::Scenario;
use crate::nodes::{resolve, store_indices};
use crate::text::{check_chars, TextKind};

/// Move leaders to a store.
pub struct TransferLeader;

impl Verb for TransferLeader {
    fn name(&self) -> &'static str {
        "transfer_leader"
    }

    fn targets(&self) -> Targets {
        Targets::Stores
    }

    fn over_when_ordered(&self) -> bool {
        true
    }

    /// The leaders of another store (`tikv-1`, or `tikv-2` when the target is `tikv-1`).
    fn start(&self, f: &mut FaultSpec) {
        let other = if f.target == "tikv-1" {
            "tikv-2"
        } else {
            "tikv-1"
        };
        f.from = Some(other.to_string());
    }

    /// The target is checked with `from` and `region`.
    fn check_target(&self, _c: &mut VerbCheck) {}

    /// The target is one store, and so is `from`, or `region` names one region.
    fn check_leader_fields(&self, c: &mut VerbCheck) {
        let f = c.f;
        // A target with control characters is already reported by the script's check.
        let to = if has_control(&f.target) {
            None
        } else {
            one_store(c, &f.target, "target")
        };
        let regions = c.s.topology.regions;
        match (f.region, &f.from) {
            (Some(_), Some(_)) => c.add("from", "transfer_leader takes region or from, not both"),
            (None, None) => c.add(
                "region",
                "transfer_leader needs region (one region's leader) or from (a store's leaders)",
            ),
            (Some(r), None) if r >= regions => c.add(
                "region",
                format!(
                    "{r} is out of range; regions are numbered 0..={}",
                    regions.saturating_sub(1)
                ),
            ),
            (Some(_), None) => {}
            (None, Some(from)) => {
                let from = one_store(c, from, "from");
                if from.is_some() && from == to {
                    c.add("from", "from and target are the same store");
                }
            }
        }
    }

    fn timers(&self, f: &FaultSpec, s: &Scenario) -> Vec<(Dur, StackTimer)> {
        transfer_action(f, s)
            .map(|a| (f.at, tikv_timer(a)))
            .into_iter()
            .collect()
    }
}

/// The one TiKV store `selector` names, or a problem at the step's field `name`.
fn one_store(c: &mut VerbCheck, selector: &str, name: &str) -> Option<String> {
    if has_control(selector) {
        check_chars(c.p, &(c.field)(name), selector, TextKind::Name);
        return None;
    }
    match resolve(selector, c.names) {
        Ok(hit) if hit.len() == 1 && hit[0].starts_with("tikv-") => Some(hit[0].clone()),
        Ok(_) => {
            c.add(
                name,
                "transfer_leader takes one TiKV store here, e.g. `tikv-2`",
            );
            None
        }
        Err(e) => {
            c.add(name, e);
            None
        }
    }
}

/// The transfer to the target store (validation makes it exactly one, and gives exactly one
/// of `region` and `from`).
fn transfer_action(f: &FaultSpec, s: &Scenario) -> Option<TikvAction> {
    let &to_store = store_indices(&f.target, s).first()?;
    match (f.region, &f.from) {
        (Some(region), _) => Some(TikvAction::TransferLeader { region, to_store }),
        (None, Some(from)) => {
            let &from_store = store_indices(from, s).first()?;
            Some(TikvAction::TransferLeaders {
                from_store,
                to_store,
            })
        }
        (None, None) => None,
    }
}
