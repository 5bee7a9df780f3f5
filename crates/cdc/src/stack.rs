//! The full replication stack as one [`Model`]: the TiKV/PD Raft model plus TiCDC. Messages
//! and timers are tagged by layer; each layer's handlers run on the same kernel.

use faultline_sim::{Kernel, Model, Network, NodeId, NodeState, SimTime, TraceEncode, TraceHasher};
use faultline_tikv::{Cluster, TikvConfig};

use crate::cdc::Cdc;
use crate::config::CdcConfig;
use crate::msg::{CdcMsg, CdcTimer};

/// A message of either layer.
#[derive(Clone, Debug)]
pub enum StackMsg {
    /// TiKV/PD.
    Tikv(faultline_tikv::Msg),
    /// TiCDC.
    Cdc(CdcMsg),
}

/// A timer of either layer.
#[derive(Clone, Debug)]
pub enum StackTimer {
    /// TiKV/PD.
    Tikv(faultline_tikv::Timer),
    /// TiCDC.
    Cdc(CdcTimer),
    /// PD: a split named by table or row (`crate::table_split`).
    SplitTable(crate::table_split::TableSplit),
    /// PD: merge a region into its neighbour in key order; the neighbour is found when it
    /// runs, from the layout PD knows then.
    MergeRegion {
        /// The region merged away.
        region: u32,
    },
}

impl From<faultline_tikv::Msg> for StackMsg {
    fn from(m: faultline_tikv::Msg) -> Self {
        StackMsg::Tikv(m)
    }
}
impl From<CdcMsg> for StackMsg {
    fn from(m: CdcMsg) -> Self {
        StackMsg::Cdc(m)
    }
}
impl From<faultline_tikv::Timer> for StackTimer {
    fn from(t: faultline_tikv::Timer) -> Self {
        StackTimer::Tikv(t)
    }
}
impl From<CdcTimer> for StackTimer {
    fn from(t: CdcTimer) -> Self {
        StackTimer::Cdc(t)
    }
}

impl TraceEncode for StackMsg {
    fn encode(&self, h: &mut TraceHasher) {
        match self {
            StackMsg::Tikv(m) => m.encode(h),
            StackMsg::Cdc(m) => {
                h.word(0xcdc);
                m.encode(h)
            }
        }
    }
}

impl TraceEncode for StackTimer {
    fn encode(&self, h: &mut TraceHasher) {
        match self {
            StackTimer::Tikv(t) => t.encode(h),
            StackTimer::Cdc(t) => {
                h.word(0xcdc);
                t.encode(h)
            }
            StackTimer::SplitTable(s) => s.encode(h),
            StackTimer::MergeRegion { region } => {
                h.word(0x3e6);
                h.word(*region as u64);
            }
        }
    }
}

/// TiKV + PD + TiCDC.
#[derive(Clone, Debug)]
pub struct Stack {
    /// The Raft/PD layer.
    pub tikv: Cluster,
    /// The TiCDC layer (inert when there are no captures).
    pub cdc: Cdc,
}

impl Stack {
    /// Builds both layers, adding nodes `pd-1`, `tikv-*`, then `cdc-*`, `mysql-1`.
    pub fn new(tikv: &TikvConfig, cdc: &CdcConfig, net: &mut Network, seed: u64) -> Self {
        let cluster = Cluster::new(tikv, net);
        let pd = net.find("pd-1").expect("the TiKV model adds pd-1");
        let stores = cluster.store_nodes().to_vec();
        let cdc = Cdc::new(cdc, tikv.regions, net, pd, stores, seed);
        Stack { tikv: cluster, cdc }
    }
}

impl Stack {
    /// Hands what TiKV applied or answered during the last event to TiCDC's upstream side
    /// (the write path's state and the CDC endpoints live there).
    fn take_op_events(&mut self, k: &mut Kernel<Self>) {
        if self.tikv.has_op_events() {
            let events = self.tikv.take_op_events();
            self.cdc.on_op_events(k, &self.tikv, events);
        }
    }

    /// Hands what TiCDC's side of a store asked of its raftstore during the last event to
    /// TiKV (they share a process, so it reaches the peer at once): the endpoints' ReadIndex
    /// requests and the lock resolutions' writes; then TiKV's answers back to TiCDC.
    fn run_local_requests(&mut self, k: &mut Kernel<Self>) {
        while self.cdc.has_read_requests() || self.cdc.has_local_writes() {
            for r in self.cdc.take_read_requests() {
                self.tikv.read_index(k, r.store, r.region, r.op);
            }
            for (store, region, op) in self.cdc.take_local_writes() {
                self.tikv.propose_local(k, store, region, op);
            }
            self.take_op_events(k);
        }
    }
}

impl Stack {
    /// PD carries out a split named by table or row: one TiKV split per region it names.
    fn split_table(&mut self, k: &mut Kernel<Self>, split: crate::table_split::TableSplit) {
        let actions = split.actions(&self.cdc.ks);
        if actions.is_empty() {
            let detail = format!(
                "table=t{} reason=\"the row's key already starts a region\"",
                split.table
            );
            k.log(
                Some(self.cdc.pd),
                faultline_sim::Level::Info,
                "split skipped",
                detail,
            );
        }
        let pd = self.cdc.pd;
        for action in actions {
            self.tikv
                .timer_in(k, pd, faultline_tikv::Timer::Action(action));
        }
    }
}

impl Stack {
    /// PD carries out a `merge` of `region`: into the region after it in key order, or the
    /// one before it if it holds the last keys (`pd-ctl operator add merge-region` takes both
    /// ids; PD checks they are adjacent, which the layout here makes them).
    fn merge_region(&mut self, k: &mut Kernel<Self>, region: u32) {
        let (before, after) = self.cdc.ks.neighbours(region);
        let Some(target) = after.or(before) else {
            let detail = format!("region_id={region} reason=\"the region has no neighbour\"");
            k.log(
                Some(self.cdc.pd),
                faultline_sim::Level::Warn,
                "merge region refused",
                detail,
            );
            return;
        };
        let action = faultline_tikv::TikvAction::Merge {
            source: region,
            target,
        };
        let pd = self.cdc.pd;
        self.tikv
            .timer_in(k, pd, faultline_tikv::Timer::Action(action));
    }
}

impl Model for Stack {
    type Msg = StackMsg;
    type Timer = StackTimer;

    fn init(&mut self, k: &mut Kernel<Self>) {
        self.tikv.init_in(k);
        self.cdc.init(k);
    }

    fn on_message(&mut self, k: &mut Kernel<Self>, from: NodeId, to: NodeId, msg: StackMsg) {
        match msg {
            StackMsg::Tikv(m) => {
                self.tikv.message_in(k, from, to, m);
                self.take_op_events(k);
            }
            StackMsg::Cdc(m) => {
                self.cdc.on_message(k, &self.tikv, from, to, m);
                self.run_local_requests(k);
            }
        }
    }

    fn on_timer(&mut self, k: &mut Kernel<Self>, node: NodeId, timer: StackTimer) {
        match timer {
            StackTimer::Tikv(t) => {
                self.tikv.timer_in(k, node, t);
                self.take_op_events(k);
            }
            StackTimer::Cdc(t) => {
                self.cdc.on_timer(k, &self.tikv, node, t);
                self.run_local_requests(k);
            }
            StackTimer::SplitTable(split) => {
                self.split_table(k, split);
                self.take_op_events(k);
            }
            StackTimer::MergeRegion { region } => {
                self.merge_region(k, region);
                self.take_op_events(k);
            }
        }
    }

    fn on_node_state(&mut self, k: &mut Kernel<Self>, node: NodeId, state: NodeState) {
        self.tikv.node_state_in(k, node, state);
        self.take_op_events(k);
        self.cdc.on_node_state(k, node, state);
        self.run_local_requests(k);
    }

    fn on_links_changed(&mut self, k: &mut Kernel<Self>) {
        self.tikv.links_changed_in(k);
        self.cdc.on_links_changed(k);
        self.run_local_requests(k);
    }

    fn metric_names(&self) -> Vec<String> {
        let mut names = self.tikv.metric_names();
        names.extend(self.cdc.metric_names());
        names
    }

    fn sample_metrics(&self, now: SimTime, out: &mut Vec<f64>) {
        self.tikv.sample_metrics(now, out);
        self.cdc.sample_metrics(now, out);
    }

    fn describe_msg(msg: &StackMsg) -> String {
        match msg {
            StackMsg::Tikv(m) => m.describe(),
            StackMsg::Cdc(m) => m.label(),
        }
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.tikv.check_invariants()
    }
}

#[cfg(test)]
mod tests {
    /// Every pending event waits in a slot the size of the largest one, and a playground
    /// snapshot copies the whole queue: at full scale about 250,000 events. The etcd
    /// snapshots some session messages carry are boxed for that (152 bytes a slot before);
    /// a new message that fails this should box its rare large payload too.
    #[test]
    fn an_event_of_the_full_stack_fits_in_80_bytes() {
        let size = std::mem::size_of::<faultline_sim::Event<super::Stack>>();
        assert!(size <= 80, "Event<Stack> is {size} bytes");
    }
}
