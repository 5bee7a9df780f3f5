//! The workload's client (`client-1`) driving Percolator transactions through TiKV, after
//! client-go's two-phase committer (`txnkv/transaction/2pc.go`, `prewrite.go`, `commit.go`)
//! and region request sender (`internal/locate/region_request.go`, `SendReqCtx`):
//! - every touched region gets a request sent to its leader as the client's region cache
//!   knows it (loaded from PD, or from a NotLeader hint), each a Raft proposal there;
//! - an answer comes when the proposing peer applies the entry; no answer within
//!   `ReadTimeoutShort` (30 s) is a send failure (`onSendFail`: `BoTiKVRPC`, drop the hint);
//! - a killed store resets the connection, and after a send failure on a store out of reach
//!   the client tries a follower (`crate::upstream::send_failure`);
//! - NotLeader with a hint retries at once at the hinted store, without one it backs off
//!   (`onRegionError`: `BoRegionScheduling`); StaleCommand backs off `BoStaleCmd`;
//! - commit begins when every prewrite succeeded; a prewrite that slept more than
//!   `PrewriteMaxBackoff` rolls the transaction back.
//!
//! Simplifications: all regions' commits go out together (no primary-first commit); commit
//! and rollback retry until they succeed (client-go's lock resolver would finish them); the
//! region cache (`crate::upstream::region_cache`) is loaded from PD over the network and dropped for a
//! region whose request failed. Timestamps come from PD over the network too
//! (`crate::upstream::pd_client`): a client cut from PD starts and commits nothing.
//! The workload's own state is [`crate::upstream::workload`]; applying entries is [`crate::upstream::txn_apply`].

use faultline_sim::{NodeState, SimDuration};
use faultline_tikv::Cluster;

use crate::cdc::Cdc;
use crate::keyspace::Key;
use crate::msg::{CdcMsg, CdcTimer};
use crate::out::{Cx, Out};
use crate::ts::Ts;
use crate::upstream::client_backoff::{
    BackoffKind, PREWRITE_MAX_BACKOFF_MS, READ_TIMEOUT_SHORT_MS,
};
use crate::upstream::pd_client_state::TsWant;
use crate::upstream::send_failure::{SendFailure, RST_LATENCY};
use crate::upstream::txn_wire::{TxnFailure, TxnMsg, TxnTimer};
use crate::upstream::workload::{OpRef, Phase, RegionReq, Txn};

impl Cdc {
    /// The workload's client lives on `client-1`. When it dies, its open transactions end
    /// there: those holding locks leave them to a lock resolver (`orphan_locks.rs`), and until
    /// one resolves them the resolved ts of their regions stays at their start ts. When it
    /// restarts, its dropped timers are armed again.
    pub(crate) fn workload_client_state(&mut self, cx: &mut Cx, state: NodeState) {
        match state {
            NodeState::Crashed => {
                self.client_pd_reset();
                self.workload.unreachable_stores.clear();
                self.workload.silent_since.clear();
                self.orphan_open_txns(cx.now);
                self.workload.ops.clear();
            }
            NodeState::Up if self.cfg.workload.txns_per_sec > 0 => {
                let gap = self.workload.gap_us();
                cx.out
                    .set_timer(self.client, SimDuration(gap), CdcTimer::WorkloadTick);
            }
            _ => {}
        }
    }

    /// Time (`cx.now`) for the next transaction: ask PD for its start ts.
    pub(crate) fn workload_tick(&mut self, cx: &mut Cx) {
        let out = &mut cx.out;
        if let Some(stop) = self.cfg.workload.stop_at {
            if cx.now.0 >= stop.0 {
                return;
            }
        }
        self.client_want_ts(out, TsWant::Start);
        let gap = self.workload.gap_us();
        out.set_timer(self.client, SimDuration(gap), CdcTimer::WorkloadTick);
    }

    /// PD gave a start ts: the transaction begins, one prewrite per region.
    pub(crate) fn begin_txn(&mut self, cx: &mut Cx, tikv: &Cluster, start_ts: Ts) {
        let writes = self.workload.draw(&self.ks);
        let keys: Vec<Key> = writes.iter().map(|(key, _)| *key).collect();
        let reqs = self.group_by_region(&keys);
        let txn = Txn {
            start_ts,
            commit_ts: Ts::default(),
            writes,
            phase: Phase::Prewrite,
            reqs,
            backoff: Default::default(),
            ops: Vec::new(),
        };
        let id = self.workload.next_txn;
        self.workload.next_txn += 1;
        let regions: Vec<u32> = txn.reqs.iter().map(|r| r.region).collect();
        self.workload.open.insert(id, txn);
        for region in regions {
            self.send_txn_request(cx, tikv, id, region);
        }
    }

    /// One request per region `keys` fall in, in the order the regions first appear, each with
    /// its keys and the region's epoch version (client-go `groupMutations`, grouping by the
    /// region cache).
    pub(crate) fn group_by_region(&self, keys: &[Key]) -> Vec<RegionReq> {
        let mut reqs: Vec<RegionReq> = Vec::new();
        for key in keys {
            let region = self.ks.region_of(*key);
            match reqs.iter_mut().find(|r| r.region == region) {
                Some(r) => r.keys.push(*key),
                None => reqs.push(RegionReq {
                    region,
                    version: self.ks.span(region).version,
                    keys: vec![*key],
                    op: 0,
                    done: false,
                    hint: None,
                    follower: None,
                    locked: false,
                    written: false,
                }),
            }
        }
        reqs
    }

    /// Every prewrite succeeded: ask PD for the commit ts.
    pub(crate) fn commit(&mut self, out: &mut Out, id: u64) {
        if self.workload.open.contains_key(&id) {
            self.client_want_ts(out, TsWant::Commit(id));
        }
    }

    /// PD gave the commit ts: commit every region.
    pub(crate) fn commit_at(&mut self, cx: &mut Cx, tikv: &Cluster, id: u64, commit_ts: Ts) {
        let Some(txn) = self.workload.open.get_mut(&id) else {
            return;
        };
        txn.commit_ts = commit_ts;
        txn.begin(Phase::Commit);
        let regions: Vec<u32> = txn.reqs.iter().map(|r| r.region).collect();
        for region in regions {
            self.send_txn_request(cx, tikv, id, region);
        }
    }

    /// Sends the current phase's request for `region` to the store the region cache names
    /// (a follower instead when the client last found that store unreachable); `tikv` gives the
    /// region's peers and tells whether the store's process is dead, so the connect is refused.
    pub(crate) fn send_txn_request(&mut self, cx: &mut Cx, tikv: &Cluster, id: u64, region: u32) {
        let (reach, out) = (cx.reach, &mut cx.out);
        let Some(txn) = self.workload.open.get(&id) else {
            return;
        };
        let phase = txn.phase;
        let req = txn.reqs.iter().find(|r| r.region == region);
        let (hint, follower) = (req.and_then(|r| r.hint), req.and_then(|r| r.follower));
        let version = req.map_or(0, |r| r.version);
        let store = match (follower, hint) {
            (Some(store), _) => store,
            (None, Some(store)) => {
                self.pd_clients.region_cache.update_leader(region, store);
                store
            }
            (None, None) => {
                let Some(store) = self.client_region_leader(out, id, region) else {
                    // Waits for the load from PD, which resumes it (`pd_client.rs`).
                    let txn = self.workload.open.get_mut(&id).expect("open");
                    txn.req_mut(region)
                        .expect("a request per touched region")
                        .op = u64::MAX;
                    return;
                };
                self.live_replica(tikv, reach, region, store)
            }
        };
        let op = self.workload.next_op;
        self.workload.next_op += 1;
        let txn = self.workload.open.get_mut(&id).expect("open");
        txn.ops.push(op);
        let req = txn.req_mut(region).expect("a request per touched region");
        req.op = op;
        req.follower = None;
        let r = OpRef {
            txn: id,
            region,
            phase,
            store,
        };
        self.workload.ops.insert(op, r);
        let node = self.stores[store as usize];
        if reach.is_crashed(node) && reach.link_up(node, self.client) {
            let reset = CdcTimer::Txn(TxnTimer::ConnectionReset { op });
            out.set_timer(self.client, RST_LATENCY, reset);
            return;
        }
        out.propose(self.client, node, (region, version), op);
        let timeout = SimDuration::from_millis(READ_TIMEOUT_SHORT_MS);
        out.set_timer(
            self.client,
            timeout,
            CdcTimer::Txn(TxnTimer::Timeout { op }),
        );
    }

    /// The request `op` is current: its transaction id, if it still waits for that answer.
    pub(crate) fn current_request(&self, op: u64) -> Option<(u64, u32)> {
        let r = self.workload.ops.get(&op)?;
        let txn = self.workload.open.get(&r.txn)?;
        let current = txn.phase == r.phase
            && txn
                .reqs
                .iter()
                .any(|q| q.region == r.region && q.op == op && !q.done);
        current.then_some((r.txn, r.region))
    }

    /// A store answered operation `op`; it reached the client at `cx.now`.
    pub(crate) fn on_txn_reply(
        &mut self,
        cx: &mut Cx,
        tikv: &Cluster,
        op: u64,
        failure: Option<TxnFailure>,
    ) {
        let Some((id, region)) = self.current_request(op) else {
            return;
        };
        let txn = self.workload.open.get_mut(&id).expect("current");
        let req = txn.req_mut(region).expect("current");
        req.op = 0;
        match failure {
            None => {
                req.done = true;
                if txn.reqs.iter().all(|r| r.done) {
                    self.phase_done(cx, id);
                }
            }
            Some(TxnFailure::NotLeader {
                leader: Some(store),
            }) if self.workload.unreachable_stores.contains(&store) => {
                // A follower that has not noticed its leader died names it: client-go's replica
                // selector will not send to a store it found unreachable, tries the other
                // replicas, and backs off when they are used up (`replica_selector.go`,
                // `onNotLeader`, `nextForReplicaReadLeader`); here, as a NotLeader without a
                // leader.
                self.workload.failed.not_leader += 1;
                req.hint = None;
                self.txn_backoff(&mut cx.out, id, region, BackoffKind::RegionScheduling);
            }
            Some(TxnFailure::NotLeader {
                leader: Some(store),
            }) => {
                // client-go follows the hint at once (`onRegionError`, NotLeader with leader).
                self.workload.failed.not_leader += 1;
                req.hint = Some(store);
                self.workload.commit_retries += 1;
                self.send_txn_request(cx, tikv, id, region);
            }
            Some(TxnFailure::NotLeader { leader: None }) => {
                self.workload.failed.no_leader += 1;
                req.hint = None;
                self.txn_backoff(&mut cx.out, id, region, BackoffKind::RegionScheduling);
            }
            Some(TxnFailure::EpochNotMatch) => {
                self.workload.failed.epoch_not_match += 1;
                self.regroup_split_request(cx, tikv, id, region);
            }
            Some(TxnFailure::RegionNotFound) => {
                self.workload.failed.region_not_found += 1;
                self.regroup_split_request(cx, tikv, id, region);
            }
            Some(TxnFailure::MergingMode) => {
                // client-go `onRegionError`: the region "can't provide service until merge
                // finished, so backoff" (`BoRegionScheduling`), then the same region again.
                self.workload.failed.merging += 1;
                self.txn_backoff(&mut cx.out, id, region, BackoffKind::RegionScheduling);
            }
            Some(TxnFailure::Stale) => {
                self.workload.failed.stale_command += 1;
                req.hint = None;
                self.txn_backoff(&mut cx.out, id, region, BackoffKind::StaleCmd);
            }
        }
    }

    /// Sleeps before sending `region`'s request again; a prewrite past its budget rolls back.
    pub(crate) fn txn_backoff(&mut self, out: &mut Out, id: u64, region: u32, kind: BackoffKind) {
        // client-go drops the cached region on a failed request (`onSendFail`, and NotLeader
        // without a hint): the resend loads it from PD again.
        self.pd_clients.region_cache.invalidate(region);
        let Some(txn) = self.workload.open.get_mut(&id) else {
            return;
        };
        let sleep = txn.backoff.next_sleep_ms(kind, &mut self.workload.rng);
        if txn.phase == Phase::Prewrite && txn.backoff.slept_ms > PREWRITE_MAX_BACKOFF_MS {
            txn.begin(Phase::Rollback);
            for r in &mut txn.reqs {
                r.op = u64::MAX; // every region waits for its resend below
            }
            for r in txn.reqs.clone() {
                self.arm_resend(out, id, r.region, 0);
            }
            return;
        }
        let req = txn.req_mut(region).expect("a request per touched region");
        req.op = u64::MAX;
        self.arm_resend(out, id, region, sleep);
    }

    fn arm_resend(&mut self, out: &mut Out, txn: u64, region: u32, sleep_ms: u64) {
        let t = CdcTimer::Txn(TxnTimer::Resend { txn, region });
        out.set_timer(self.client, SimDuration::from_millis(sleep_ms), t);
    }

    /// A backoff ended.
    pub(crate) fn on_txn_resend(&mut self, cx: &mut Cx, tikv: &Cluster, id: u64, region: u32) {
        let waiting = self
            .workload
            .open
            .get_mut(&id)
            .and_then(|t| t.req_mut(region))
            .is_some_and(|r| r.op == u64::MAX && !r.done);
        if waiting {
            self.workload.commit_retries += 1;
            self.send_txn_request(cx, tikv, id, region);
        }
    }

    /// Every region's request of the current phase succeeded.
    fn phase_done(&mut self, cx: &mut Cx, id: u64) {
        let phase = self.workload.open[&id].phase;
        match phase {
            Phase::Prewrite => {
                let delay = self.workload.commit_delay_us() + self.large_prewrite_us(id);
                cx.out.set_timer(
                    self.client,
                    SimDuration(delay),
                    CdcTimer::TxnCommit { txn: id },
                );
            }
            Phase::Commit | Phase::Rollback => {
                let txn = self.workload.open.remove(&id).expect("open");
                for op in &txn.ops {
                    self.workload.ops.remove(op);
                }
                if phase == Phase::Commit {
                    self.workload.committed += 1;
                    self.workload.committed_per_sec.add(cx.now, 1);
                } else {
                    self.workload.aborted += 1;
                }
            }
        }
    }

    /// How much longer transaction `id`'s prewrite goes on when it is a large one (every
    /// `workload.large_txn_every`th): client-go prewrites a large transaction's keys in
    /// batches per region (`txnkv/transaction/2pc.go`, `doActionOnGroupMutations`), so its
    /// first keys are locked long before its last and before the commit. Simplification: the
    /// model locks the transaction's own few keys and then only waits out the rest of the
    /// prewrite; it does not write the other keys. Meanwhile the locks hold resolved ts back
    /// (TiKV `components/resolved_ts/src/resolver.rs`, `Resolver::resolve`: the resolved ts
    /// is the min of PD's ts and the oldest lock's start ts). TiKV 8's pipelined DML, whose
    /// locks track a min commit ts instead (`track_large_txn_lock`), is not modelled.
    fn large_prewrite_us(&self, id: u64) -> u64 {
        if self.cfg.workload.is_large_txn(id) {
            self.cfg.workload.large_txn_prewrite.0
        } else {
            0
        }
    }

    /// Routes a write-path or CheckLeader message.
    pub(crate) fn on_txn_msg(
        &mut self,
        cx: &mut Cx,
        tikv: &Cluster,
        (from, to): (faultline_sim::NodeId, faultline_sim::NodeId),
        m: TxnMsg,
    ) {
        match m {
            TxnMsg::Reply { op, failure } if to == self.client => {
                self.on_txn_reply(cx, tikv, op, failure)
            }
            TxnMsg::Reply { .. } => {}
            TxnMsg::CheckLeader { round, regions } => {
                self.on_check_leader(&mut cx.out, tikv, from, to, round, regions);
            }
            TxnMsg::CheckLeaderResp { round, regions } => {
                self.on_check_leader_resp(tikv, from, to, round, regions)
            }
        }
    }

    /// Routes a write-path timer.
    pub(crate) fn on_txn_timer(&mut self, cx: &mut Cx, tikv: &Cluster, t: TxnTimer) {
        match t {
            TxnTimer::Timeout { op } => self.on_send_fail(cx, tikv, op, SendFailure::Timeout),
            TxnTimer::ConnectionReset { op } => self.on_send_fail(cx, tikv, op, SendFailure::Reset),
            TxnTimer::KeepaliveFailed { store } => self.client_keepalive_failed(cx, tikv, store),
            TxnTimer::Resend { txn, region } => self.on_txn_resend(cx, tikv, txn, region),
        }
    }

    /// Sends a store's answer to the client.
    pub(crate) fn send_txn_reply(
        &mut self,
        out: &mut Out,
        store: u32,
        op: u64,
        failure: Option<TxnFailure>,
    ) {
        let msg = CdcMsg::Txn(TxnMsg::Reply { op, failure });
        out.send(self.stores[store as usize], self.client, msg);
    }
}

#[cfg(test)]
#[path = "upstream_txns_tests.rs"]
pub(crate) mod tests;
