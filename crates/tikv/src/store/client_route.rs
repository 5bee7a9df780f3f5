//! Where the TiKV-only write load (`workload.writes_per_sec`) sends a write: the region's live
//! leader, or a follower when the leader's store is down.

use crate::cluster::Cluster;
use crate::ids::PeerId;
use crate::ids::RegionId;
use crate::msg::Msg;
use crate::out::Cx;

impl Cluster {
    /// Sends a client request to the region's leader store. With no live leader the client's
    /// send to the old leader's store fails, and client-go's replica selector tries a follower
    /// (`internal/locate/region_request.go`, `accessKnownLeader.onSendFailure` moves to
    /// `tryFollower` when the leader's store is not reachable), which wakes that follower
    /// (see `wake_on_request`). Simplified: the send failure is immediate (a killed store
    /// refuses the connection at once) and the region cache is otherwise always right.
    pub(crate) fn route(&mut self, cx: &mut Cx, msg: Msg, region: u32) {
        let r = RegionId(region);
        let target = self
            .leader_store_truth(r)
            .or_else(|| self.follower_store_to_try(r));
        match target {
            Some(s) => cx.out.send(self.pd_node, self.store_nodes[s], msg),
            None => self.book.writes_dropped += 1,
        }
    }

    /// The first replica of `region` on a live store, in slot order (`tryFollower::next`
    /// walks the replicas from the leader's index; the old leader's store is down here).
    fn follower_store_to_try(&self, region: RegionId) -> Option<usize> {
        (0..self.replicas as u8)
            .map(|sl| self.slot_store[PeerId::of(region, sl, self.replicas).ix()] as usize)
            .find(|&s| self.store_up[s])
    }
}
