//! The workload's transactions driven through TiKV: the client on pd-1 opens Percolator
//! transactions on a schedule, commits them where every key's region has a live leader, and
//! rolls back its locks when it dies. The workload's own state is [`crate::workload`].

use faultline_sim::{Kernel, NodeState, SimDuration};
use faultline_tikv::Cluster;

use crate::cdc::Cdc;
use crate::change::{RegionEvent, RegionEventKind, RowChange};
use crate::msg::CdcTimer;
use crate::stack::Stack;
use crate::workload::Txn;

impl Cdc {
    /// The workload's client lives on pd-1. When it dies, its open transactions never commit:
    /// their locks are rolled back (simplified: at once, where TiKV's lock resolver waits for
    /// the lock TTL), or resolved ts would stay pinned under them forever. When it restarts,
    /// its dropped timers are armed again.
    pub(crate) fn workload_client_state(&mut self, k: &mut Kernel<Stack>, state: NodeState) {
        match state {
            NodeState::Crashed => {
                for (_, txn) in std::mem::take(&mut self.workload.open) {
                    for (key, _) in &txn.writes {
                        self.upstream.unlock(self.ks.region_of(*key), txn.start_ts);
                    }
                    self.workload.aborted += 1;
                }
            }
            NodeState::Up if self.cfg.workload.txns_per_sec > 0 => {
                let gap = self.workload.gap_us();
                k.set_timer(self.pd, SimDuration(gap), CdcTimer::WorkloadTick);
            }
            _ => {}
        }
    }

    pub(crate) fn workload_tick(&mut self, k: &mut Kernel<Stack>, tikv: &Cluster) {
        if let Some(stop) = self.cfg.workload.stop_at {
            if k.now().0 >= stop.0 {
                return;
            }
        }
        let writes = self.workload.draw(&self.ks);
        if writes
            .iter()
            .all(|(key, _)| self.live_leader(k, tikv, self.ks.region_of(*key)).is_some())
        {
            let start_ts = self.tso.next(k.now());
            for (key, _) in &writes {
                self.upstream.lock(self.ks.region_of(*key), start_ts);
            }
            let id = self.workload.next_txn;
            self.workload.next_txn += 1;
            self.workload.open.insert(id, Txn { start_ts, writes });
            let delay = self.workload.commit_delay_us();
            k.set_timer(self.pd, SimDuration(delay), CdcTimer::TxnCommit { txn: id });
        } else {
            self.workload.aborted += 1;
        }
        let gap = self.workload.gap_us();
        k.set_timer(self.pd, SimDuration(gap), CdcTimer::WorkloadTick);
    }

    pub(crate) fn commit(&mut self, k: &mut Kernel<Stack>, tikv: &Cluster, id: u64) {
        let Some(txn) = self.workload.open.get(&id) else {
            return;
        };
        let leaders: Vec<Option<u32>> = txn
            .writes
            .iter()
            .map(|(key, _)| self.live_leader(k, tikv, self.ks.region_of(*key)))
            .collect();
        if leaders.iter().any(|l| l.is_none()) {
            // The lock stays until a leader is back: it holds resolved ts down, as in TiKV.
            self.workload.commit_retries += 1;
            k.set_timer(
                self.pd,
                SimDuration::from_secs(1),
                CdcTimer::TxnCommit { txn: id },
            );
            return;
        }
        let txn = self.workload.open.remove(&id).expect("present");
        let commit_ts = self.tso.next(k.now());
        for ((key, value), leader) in txn.writes.iter().zip(leaders) {
            let region = self.ks.region_of(*key);
            self.upstream.commit(*key, *value, commit_ts);
            self.upstream.unlock(region, txn.start_ts);
            let row = RowChange {
                key: *key,
                value: *value,
                start_ts: txn.start_ts,
                commit_ts,
            };
            let s = leader.expect("checked") as usize;
            let subs = self.endpoints[s]
                .subs
                .get(&region)
                .cloned()
                .unwrap_or_default();
            for sub in subs {
                self.endpoints[s].push(
                    sub.to,
                    RegionEvent {
                        region,
                        request: sub.request,
                        kind: RegionEventKind::Entries(vec![row]),
                    },
                );
            }
            let (node, timer) = tikv.action_timer(faultline_tikv::TikvAction::Write { region });
            k.set_timer(
                node,
                SimDuration::ZERO,
                crate::stack::StackTimer::Tikv(timer),
            );
        }
        self.workload.committed += 1;
    }

    fn live_leader(&self, k: &Kernel<Stack>, tikv: &Cluster, region: u32) -> Option<u32> {
        tikv.region_leader_store(region).filter(|s| {
            let n = self.stores[*s as usize];
            k.net.node(n).state == NodeState::Up && k.reachable(self.pd, n)
        })
    }
}
