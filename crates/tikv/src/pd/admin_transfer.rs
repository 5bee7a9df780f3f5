//! Leader transfers an operator asks PD for (`pd-ctl operator add transfer-leader <region>
//! <store>`; PD `pkg/schedule/handler/handler.go` `AddTransferLeaderOperator`): PD checks the
//! region has a voter on the target store, creates an `admin-transfer-leader` operator
//! (`operator.CreateTransferLeaderOperator`, kind `OpAdmin`) and sends it to the leader it
//! knows of. A store-wide form moves every leader PD believes a store has, one such operator
//! per region, as a script looping over `pd-ctl region store <id>` would.
//!
//! Simplifications: PD refuses a region that already has an operator in flight (upstream an
//! admin operator may replace a lower-priority one); the operator goes to the leader at once
//! instead of riding on the next region heartbeat's response; admin operators count towards
//! `leader-schedule-limit` for the schedulers, as upstream, but are not bounded by it.

use faultline_sim::Level;

use crate::cluster::Cluster;
use crate::out::Cx;
use crate::pd::state::OpDesc;

/// Why PD refused an admin transfer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Refusal {
    /// The region has no replica on the target store (`region has no voter in store`).
    NoVoter,
    /// PD already believes the target store leads the region.
    AlreadyLeader,
    /// Another operator of the region is in flight.
    Busy,
}

impl Cluster {
    /// `pd-ctl operator add transfer-leader`: move `region`'s leadership to store `to`.
    pub(crate) fn pd_admin_transfer(&mut self, cx: &mut Cx, r: u32, to: usize) {
        if r >= self.region_count() || to >= self.stores.len() {
            return;
        }
        match self.pd_admin_transfer_check(r, to) {
            Ok(from) => {
                self.book.admin_transfer_ops += 1;
                self.pd_order_transfer(cx, r, (from, to), OpDesc::AdminTransferLeader);
                let detail = format!("region_id={r} from_store={} to_store={}", from + 1, to + 1);
                cx.out.log(
                    Some(self.pd_node),
                    Level::Info,
                    "admin-transfer-leader added",
                    detail,
                );
            }
            Err(why) => {
                let why = match why {
                    Refusal::NoVoter => "region has no voter in the store",
                    Refusal::AlreadyLeader => "the store already leads the region",
                    Refusal::Busy => "the region has an operator in flight",
                };
                let detail = format!("region_id={r} to_store={} reason=\"{why}\"", to + 1);
                cx.out.log(
                    Some(self.pd_node),
                    Level::Warn,
                    "admin-transfer-leader refused",
                    detail,
                );
            }
        }
    }

    /// Every region PD believes store `from` leads, with a replica on `to`, gets an admin
    /// transfer to `to`; regions without a replica there keep their leader (PD would refuse).
    pub(crate) fn pd_admin_transfer_store(&mut self, cx: &mut Cx, from: usize, to: usize) {
        let n = self.stores.len();
        if from >= n || to >= n || from == to {
            return;
        }
        let mut ordered = 0u64;
        for r in 0..self.region_count() {
            if self.pd.region_leader[r as usize].0 as usize != from || self.merge.is_gone(r) {
                continue;
            }
            if let Ok(from) = self.pd_admin_transfer_check(r, to) {
                self.book.admin_transfer_ops += 1;
                self.pd_order_transfer(cx, r, (from, to), OpDesc::AdminTransferLeader);
                ordered += 1;
            }
        }
        let detail = format!(
            "from_store={} to_store={} regions={ordered}",
            from + 1,
            to + 1
        );
        cx.out.log(
            Some(self.pd_node),
            Level::Info,
            "admin-transfer-leader added",
            detail,
        );
    }

    /// The store PD believes leads `r`, if an admin transfer of `r` to `to` is allowed.
    fn pd_admin_transfer_check(&self, r: u32, to: usize) -> Result<usize, Refusal> {
        let has_voter = self.has_replica_on(r, to);
        let from = self.pd.region_leader[r as usize].0 as usize;
        if !has_voter {
            Err(Refusal::NoVoter)
        } else if from == to {
            Err(Refusal::AlreadyLeader)
        } else if self.pd.leader_ops.contains_key(&r) || self.pd.replica_ops.contains_key(&r) {
            Err(Refusal::Busy)
        } else {
            Ok(from)
        }
    }
}
