//! `evict_leader` (pd-ctl): PD's evict-leader scheduler moves every leader off the TiKV store
//! and lets none back, as a rolling restart does before restarting it; a `duration` removes
//! the scheduler. A TiKV model action, a timer on `pd-1` (pd-ctl adds the scheduler to PD).

use faultline_cdc::StackTimer;
use faultline_tikv::TikvAction;

use super::steps::{at_and_undo, tikv_timer, timed};
use super::verb::{Targets, Verb};
use crate::dur::Dur;
use crate::fault_spec::FaultSpec;
use crate::format::Scenario;
use crate::nodes::store_indices;

/// Evict every leader from a store.
pub struct EvictLeader;

impl Verb for EvictLeader {
    fn name(&self) -> &'static str {
        "evict_leader"
    }

    fn targets(&self) -> Targets {
        Targets::Stores
    }

    fn undoable(&self) -> bool {
        true
    }

    fn timers(&self, f: &FaultSpec, s: &Scenario) -> Vec<(Dur, StackTimer)> {
        let stores = store_indices(&f.target, s);
        let now = (stores.iter())
            .map(|&store| TikvAction::EvictLeader { store })
            .collect();
        let undo = (stores.iter())
            .map(|&store| TikvAction::RemoveEvictLeader { store })
            .collect();
        timed(at_and_undo(f, now, undo), tikv_timer)
    }
}
