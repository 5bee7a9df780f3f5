//! PD carries out a model-level action when its timer fires (see [`crate::action`]).

use faultline_sim::Kernel;

use crate::action::TikvAction;
use crate::cluster::Cluster;
use crate::host::TikvHost;
use crate::msg::Msg;

impl Cluster {
    /// PD carries out `action` (its timer fired on the PD node).
    pub(crate) fn run_action<H: TikvHost>(&mut self, k: &mut Kernel<H>, action: TikvAction) {
        match action {
            TikvAction::Write { region } if region < self.region_count() => {
                let region = self.merge.live_region(region);
                let write = Msg::Propose {
                    region,
                    op: 0,
                    version: 0,
                };
                self.route(k, write, region);
            }
            TikvAction::Write { .. } => {}
            TikvAction::Split { region, parts, at } => {
                self.pd_split_region(k, region, parts, at);
            }
            TikvAction::Merge { source, target } => self.pd_merge_region(k, source, target),
            TikvAction::TransferLeader { region, to_store } => {
                self.pd_admin_transfer(k, region, to_store as usize);
            }
            TikvAction::TransferLeaders {
                from_store,
                to_store,
            } => {
                self.pd_admin_transfer_store(k, from_store as usize, to_store as usize);
            }
            TikvAction::AddStore { store } => self.add_store(k, store as usize),
            TikvAction::RemoveStore { store } => self.remove_store(k, store as usize),
            TikvAction::EvictLeader { store } => self.pd_set_evict(k, store as usize, true),
            TikvAction::RemoveEvictLeader { store } => {
                self.pd_set_evict(k, store as usize, false);
            }
        }
    }
}
