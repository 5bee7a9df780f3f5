//! PD carries out a model-level action when its timer fires (see [`crate::action`]).

use crate::action::TikvAction;
use crate::cluster::Cluster;
use crate::msg::Msg;
use crate::out::Cx;

impl Cluster {
    /// PD carries out `action` (its timer fired on the PD node).
    pub(crate) fn run_action(&mut self, cx: &mut Cx, action: TikvAction) {
        match action {
            TikvAction::Write { region } if region < self.region_count() => {
                let region = self.merge.live_region(region);
                let write = Msg::Propose {
                    region,
                    op: 0,
                    version: 0,
                };
                self.route(cx, write, region);
            }
            TikvAction::Write { .. } => {}
            TikvAction::Split { region, parts, at } => {
                self.pd_split_region(cx, region, parts, at);
            }
            TikvAction::Merge { source, target } => self.pd_merge_region(cx, source, target),
            TikvAction::TransferLeader { region, to_store } => {
                self.pd_admin_transfer(cx, region, to_store as usize);
            }
            TikvAction::TransferLeaders {
                from_store,
                to_store,
            } => {
                self.pd_admin_transfer_store(cx, from_store as usize, to_store as usize);
            }
            TikvAction::AddStore { store } => self.add_store(cx, store as usize),
            TikvAction::RemoveStore { store } => self.remove_store(cx, store as usize),
            TikvAction::EvictLeader { store } => self.pd_set_evict(cx, store as usize, true),
            TikvAction::RemoveEvictLeader { store } => {
                self.pd_set_evict(cx, store as usize, false);
            }
        }
    }
}
