//! A store's process life as the kernel reports it: crashed, restarted, paused or resumed.

use crate::cluster::Cluster;
use crate::out::Cx;
use crate::store::state::GroupState;

impl Cluster {
    /// A killed store loses every volatile peer state (leadership, votes, timers) and its
    /// queues; its proposals are orphaned, and PD starts counting towards Down.
    pub(crate) fn store_crashed(&mut self, cx: &mut Cx, s: usize) {
        for pid in self.peers_of(s) {
            if self.peers[pid.ix()].is_leader() {
                self.reads_dropped(pid);
                self.leader_lost(pid);
            }
            let p = &mut self.peers[pid.ix()];
            self.book.group_counts[p.group as usize] -= 1;
            if p.awake {
                self.book.awake_peers -= 1;
            }
            p.reset_volatile();
            p.group = GroupState::Ordered;
        }
        self.store_live[s] = false;
        self.store_up[s] = false;
        self.grpc_stopped[s] = false;
        self.changes.note_all();
        self.stores[s].reset_volatile();
        self.orphan_proposals(s);
        self.schedule_failure_detection(cx);
    }

    /// A restarted store's peers come back as followers with a fresh election clock and a
    /// registered tick (TiKV starts every peer awake, in `GroupState::Ordered`).
    pub(crate) fn store_restarted(&mut self, cx: &mut Cx, s: usize) {
        self.store_live[s] = true;
        self.store_up[s] = true;
        self.changes.note_all();
        for pid in self.peers_of(s) {
            self.book.group_counts[GroupState::Ordered as usize] += 1;
            self.reset_election_clock(pid);
            self.register_tick(pid);
        }
        self.start_store_timers(cx, s);
        self.schedule_failure_detection(cx);
    }

    /// SIGTERM, as TiKV 7.1 `TikvServer::stop` (components/server/src/server.rs) runs it:
    /// `servers.server.stop()` shuts the gRPC server down first (peers' raft streams and
    /// clients' requests get no answer; the peers see their streams end at once, as after a
    /// reset), and only then `servers.node.stop()` stops the pd worker and the apply and raft
    /// batch systems. Meanwhile raftstore still ticks and handles what its mailboxes hold, and
    /// its raft client still sends: the dying store's leaders keep talking to followers that
    /// already broadcast StoreUnreachable for it. The process ends when the scenario crashes
    /// the node (`raft.sigterm_shutdown` later).
    pub(crate) fn stop_grpc_server(&mut self, cx: &mut Cx, s: usize) {
        if !self.store_live[s] || self.grpc_stopped[s] {
            return;
        }
        self.grpc_stopped[s] = true;
        cx.out.log(
            Some(self.store_nodes[s]),
            faultline_sim::Level::Info,
            "stopping gRPC server (SIGTERM)",
            format!("store_id={}", s + 1),
        );
        self.schedule_failure_detection(cx);
    }

    /// A paused (SIGSTOP) store keeps its state but answers nothing: its leaders stop
    /// counting as live leaders until it resumes.
    pub(crate) fn store_paused(&mut self, s: usize, paused: bool) {
        if self.store_up[s] != paused {
            return;
        }
        self.store_up[s] = !paused;
        self.changes.note_all();
        let now = self.now;
        for pid in self.peers_of(s) {
            if self.peers[pid.ix()].is_leader() {
                let r = pid.region(self.replicas);
                if paused {
                    self.book.live_leader_down(r, now);
                } else {
                    self.book.live_leader_up(r, now);
                }
            }
        }
    }
}
