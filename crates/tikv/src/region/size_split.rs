//! Regions grow with their writes and split by size, as TiKV's split checker splits them:
//! every write a leader takes adds to its region's approximate size and to its size diff
//! (TiKV `fsm/apply.rs` counts the written bytes into `size_diff_hint`); a leader's
//! `split-region-check-tick-interval` (10 s) tick checks a region whose diff reached
//! `region-split-check-diff` (a sixteenth of `region-split-size`, `raftstore/src/store/config.rs`)
//! (`fsm/peer.rs` `on_split_region_check_tick`); a region larger than `region-max-size`
//! (1.5 x `region-split-size`, `coprocessor/config.rs` `Config::region_max_size`) is split into
//! parts of at most `region-split-size`, at most `batch-split-limit` (10) at once, through the
//! same `BatchSplit` admin command a scripted split uses (`crate::region::split`).
//!
//! Simplifications: every write adds `workload.write_bytes`, whatever it writes (TiKV
//! measures the data in its SST files); the size grows when the leader takes the write, not
//! when it applies; the check runs on one timer per store, armed when a region it leads
//! passes the diff (upstream every leader ticks); the split is cut evenly (upstream at the
//! keys where each part reaches `region-split-size`), and the parts share the size evenly; the
//! key-count limits (`region-split-keys`) are not modelled; the leader proposes the split
//! itself (upstream it first asks PD for the new ids, `AskBatchSplit`).

use faultline_sim::{Level, SimDuration};

use crate::cluster::Cluster;
use crate::ids::PeerId;
use crate::msg::Timer;
use crate::out::Cx;
use crate::region::state::RegionSize;
use crate::region::state::MIB;

/// TiKV `split-region-check-tick-interval`.
const SPLIT_CHECK_INTERVAL: SimDuration = SimDuration::from_secs(10);

/// TiKV `BATCH_SPLIT_LIMIT`: most regions one size split makes.
const BATCH_SPLIT_LIMIT: u64 = 10;

impl Cluster {
    /// `region-split-size` in bytes.
    fn split_size(&self) -> u64 {
        self.cfg.region_split_size_mib as u64 * MIB
    }

    /// The largest region's approximate size in bytes.
    pub fn largest_region_bytes(&self) -> u64 {
        self.sizes.largest
    }

    /// Region `r`'s approximate size in bytes.
    pub fn region_bytes(&self, r: u32) -> u64 {
        self.sizes.sizes.get(r as usize).map_or(0, |s| s.bytes)
    }

    /// The leader `pid` took a client write: its region grows, and once the growth since the
    /// last check reaches `region-split-check-diff` its store's split check is due.
    pub(crate) fn grow_region(&mut self, cx: &mut Cx, pid: PeerId) {
        let r = pid.region(self.replicas).0 as usize;
        let check_diff = self.split_size() / 16;
        let bytes = self.cfg.write_bytes as u64;
        let size = &mut self.sizes.sizes[r];
        size.bytes += bytes;
        size.diff += bytes;
        self.sizes.largest = self.sizes.largest.max(size.bytes);
        if size.diff < check_diff {
            return;
        }
        self.sizes.due.insert(r as u32);
        let s = self.slot_store[pid.ix()] as usize;
        if !std::mem::replace(&mut self.sizes.armed[s], true) {
            cx.out
                .set_timer(self.store_nodes[s], SPLIT_CHECK_INTERVAL, Timer::SplitCheck);
        }
    }

    /// Store `s`'s split check: each region it leads whose diff reached the check diff is
    /// measured, and split if it is over `region-max-size`.
    pub(crate) fn split_check(&mut self, cx: &mut Cx, s: usize) {
        self.sizes.armed[s] = false;
        let max_size = self.split_size() / 2 * 3;
        let due: Vec<u32> = self.sizes.due.iter().copied().collect();
        for r in due {
            let size = self.sizes.sizes[r as usize];
            let Some(pid) = self.local_peer(s, r) else {
                continue;
            };
            // A region led elsewhere is checked when a write re-arms its leader's store.
            if !self.peers[pid.ix()].is_leader() {
                continue;
            }
            self.sizes.due.remove(&r);
            self.sizes.sizes[r as usize].diff = 0;
            if size.bytes <= max_size {
                continue;
            }
            let parts = size
                .bytes
                .div_ceil(self.split_size())
                .clamp(2, BATCH_SPLIT_LIMIT);
            let mib = size.bytes as f64 / MIB as f64;
            let detail = format!("region_id={r} approximate_size={mib:.2}MiB parts={parts}");
            cx.out.log(
                Some(self.store_nodes[s]),
                Level::Info,
                "split region by size",
                detail,
            );
            self.propose_split(cx, s, r, (parts as u32, None));
        }
    }

    /// A split of `parent` into `parts` applied: the parts share its size evenly; the new
    /// regions' sizes are pushed in id order.
    pub(crate) fn share_size(&mut self, parent: u32, parts: u32) {
        let each = self.sizes.sizes[parent as usize].bytes / parts as u64;
        self.sizes.sizes[parent as usize] = RegionSize {
            bytes: each,
            diff: 0,
        };
        for _ in 1..parts {
            self.sizes.sizes.push(RegionSize {
                bytes: each,
                diff: 0,
            });
        }
        // Splits are rare: finding the new largest by a scan costs nothing per write.
        self.sizes.largest = self.sizes.sizes.iter().map(|s| s.bytes).max().unwrap_or(0);
    }

    /// `source` merged into `target`: the target holds both sizes (a merge may leave it over
    /// the split size, and its next check splits it again, as upstream).
    pub(crate) fn absorb_size(&mut self, target: u32, source: u32) {
        let gone = std::mem::take(&mut self.sizes.sizes[source as usize]);
        self.sizes.due.remove(&source);
        let t = &mut self.sizes.sizes[target as usize];
        t.bytes += gone.bytes;
        t.diff += gone.bytes;
        self.sizes.largest = self.sizes.largest.max(t.bytes);
    }
}
