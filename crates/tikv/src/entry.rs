//! The TiKV layer's entry points as the kernel, or a larger model's router (crates/cdc's
//! `Stack`), calls them: each runs its handler through [`routed`], which gives it a [`Cx`] and
//! hands what it wrote to the kernel. Besides `host.rs` and the `Model` impl in `cluster.rs`,
//! the only code that names the kernel.

use faultline_sim::{Kernel, NodeId, NodeState};

use crate::cluster::Cluster;
use crate::host::{routed, TikvHost};
use crate::ids::PeerId;
use crate::msg::{Msg, Timer};
#[cfg(doc)]
use crate::out::Cx;

impl Cluster {
    /// Seeds the per-component streams and arms the first timers (the `Model::init` of this
    /// layer).
    pub fn init_in<H: TikvHost>(&mut self, k: &mut Kernel<H>) {
        self.now = k.now().0;
        self.seed_streams(k);
        routed(k, |cx| self.handle_init(cx));
    }

    /// Handles a TiKV/PD message delivered by the kernel.
    pub fn message_in<H: TikvHost>(
        &mut self,
        k: &mut Kernel<H>,
        from: NodeId,
        to: NodeId,
        msg: Msg,
    ) {
        routed(k, |cx| self.handle_message(cx, from, to, msg));
    }

    /// Handles a TiKV/PD timer.
    pub fn timer_in<H: TikvHost>(&mut self, k: &mut Kernel<H>, node: NodeId, timer: Timer) {
        routed(k, |cx| self.handle_timer(cx, node, timer));
    }

    /// A node was killed, restarted, paused or resumed.
    pub fn node_state_in<H: TikvHost>(
        &mut self,
        k: &mut Kernel<H>,
        node: NodeId,
        state: NodeState,
    ) {
        routed(k, |cx| self.handle_node_state(cx, node, state));
    }

    /// Links changed: raft clients notice broken connections.
    pub fn links_changed_in<H: TikvHost>(&mut self, k: &mut Kernel<H>) {
        routed(k, |cx| self.handle_links_changed(cx));
    }

    /// A write the layer above issues on `store` itself (see `handle_propose_local`).
    pub fn propose_local<H: TikvHost>(
        &mut self,
        k: &mut Kernel<H>,
        store: u32,
        region: u32,
        op: u64,
    ) {
        routed(k, |cx| self.handle_propose_local(cx, store, region, op));
    }

    /// The layer above asks a ReadIndex of `region`'s peer on `store` (see
    /// `handle_read_index`).
    pub fn read_index<H: TikvHost>(&mut self, k: &mut Kernel<H>, store: u32, region: u32, op: u64) {
        routed(k, |cx| self.handle_read_index(cx, store, region, op));
    }

    /// Re-seeds per-component streams from the run's seed (the kernel is not known at
    /// construction).
    fn seed_streams<H: TikvHost>(&mut self, k: &Kernel<H>) {
        for (i, st) in self.stores.iter_mut().enumerate() {
            st.rng = k.rng_stream(&format!("tikv-{}", i + 1));
        }
        self.load_rng = k.rng_stream("tikv-load");
        for i in 0..self.peers.len() {
            self.reset_election_clock(PeerId(i as u32));
        }
    }
}
