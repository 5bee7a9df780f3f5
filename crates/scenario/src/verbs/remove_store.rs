//! `remove_store` (pd-ctl `store delete`): TiKV scales in: the store goes Offline, PD moves
//! its replicas off, then it is Tombstone. A TiKV model action, a timer on `pd-1`.

use faultline_cdc::StackTimer;
use faultline_tikv::TikvAction;

use super::add_store::per_store;
use super::verb::{Targets, Verb};
use crate::dur::Dur;
use crate::fault_spec::FaultSpec;
use crate::format::Scenario;

/// Scale TiKV in.
pub struct RemoveStore;

impl Verb for RemoveStore {
    fn name(&self) -> &'static str {
        "remove_store"
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

    fn timers(&self, f: &FaultSpec, s: &Scenario) -> Vec<(Dur, StackTimer)> {
        per_store(f, s, |store| TikvAction::RemoveStore { store })
    }
}
