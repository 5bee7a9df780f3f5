//! `add_store`: TiKV scales out: a store of `tikv-(stores+1)..tikv-max_stores` joins and PD
//! moves replicas and leaders onto it. A TiKV model action, a timer on `pd-1` (a joining
//! store registers with PD).

use faultline_cdc::StackTimer;
use faultline_tikv::TikvAction;

use super::check::VerbCheck;
use super::steps::{tikv_timer, timed};
use super::verb::{Targets, Verb};
use crate::dur::Dur;
use crate::fault_spec::FaultSpec;
use crate::format::Scenario;
use crate::nodes::{resolve, store_indices};

/// Scale TiKV out.
pub struct AddStore;

/// One action per store the target names, at the step's time (nothing to undo).
pub(crate) fn per_store(
    f: &FaultSpec,
    s: &Scenario,
    action: fn(u32) -> TikvAction,
) -> Vec<(Dur, StackTimer)> {
    let actions = (store_indices(&f.target, s).into_iter())
        .map(|store| (f.at, action(store)))
        .collect();
    timed(actions, tikv_timer)
}

impl Verb for AddStore {
    fn name(&self) -> &'static str {
        "add_store"
    }

    fn targets(&self) -> Targets {
        Targets::Stores
    }

    fn over_when_ordered(&self) -> bool {
        true
    }

    fn changes_layout(&self) -> bool {
        true
    }

    /// Only stores that wait to join: `tikv-(stores+1)..tikv-max_stores`.
    fn check_target(&self, c: &mut VerbCheck) {
        let (t, target) = (&c.s.topology, &c.f.target);
        let hit = match resolve(target, c.names) {
            Ok(hit) => hit,
            Err(e) => return c.add("target", e),
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
            c.add("target", msg);
        }
    }

    fn timers(&self, f: &FaultSpec, s: &Scenario) -> Vec<(Dur, StackTimer)> {
        per_store(f, s, |store| TikvAction::AddStore { store })
    }
}
