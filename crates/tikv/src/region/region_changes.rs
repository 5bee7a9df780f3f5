//! Which regions may look different since an observer last asked: for views that redraw by
//! change rather than by re-reading every region (the web heatmap).
//!
//! What a region looks like there is its live leader's store, whether it is leaderless, and
//! whether it is hibernated (no peer on a live store ticking). The model notes a region here
//! wherever one of those inputs changes for that region alone: a peer becoming or ceasing to
//! be leader (`leader_gained`, `leader_lost`), a peer's tick registered or dropped
//! (`register_tick`, the store tick letting a peer sleep), a peer destroyed (merge, learner
//! promotion, replica removal) and a region split off or merged away. A change that can touch
//! any region at once (a store crashing, restarting, pausing, joining or leaving) sets
//! [`RegionChanges::all`] instead of listing a store's worth of regions.
//!
//! Observation only: nothing in the model reads it, so the run and its trace are the same
//! whether it is on or off. Off (the default) it records nothing, so a run nobody draws costs
//! nothing and holds no growing list.

use crate::cluster::Cluster;
use crate::region::state::RegionChanges;

impl Cluster {
    /// Starts or stops noting region changes (see [`RegionChanges`]); either way the list
    /// starts empty.
    pub fn track_region_changes(&mut self, on: bool) {
        self.changes = RegionChanges {
            on,
            ..RegionChanges::default()
        };
    }

    /// Moves the regions noted since the last call into `out` (repeats allowed) and returns
    /// true if anything happened that can change any region, in which case `out` gets
    /// nothing and the caller must re-read every region. Always false with nothing noted
    /// while tracking is off.
    pub fn take_region_changes(&mut self, out: &mut Vec<u32>) -> bool {
        let all = std::mem::take(&mut self.changes.all);
        if !all {
            out.append(&mut self.changes.regions);
        }
        self.changes.regions.clear();
        all
    }
}
