//! A connection's send buffer while its link cannot carry it: what TCP keeps and retransmits.
//!
//! The kernel drops a message whose link is cut when it arrives; a gRPC stream over TCP never
//! silently loses what it was given. So the model's streams keep their messages, per
//! connection, while the link cannot carry them, and send them in order once it can: the
//! store -> capture event batches (`crate::sink::tcp::Transport`) and the capture -> store
//! region requests (`CdcMsg::Register`, tiflow's `ChangeDataRequest` on the `EventFeed`
//! stream; before, a request sent during a 125 ms cut was lost and its region waited for an
//! answer to the end of the run: explore, the merge scenario's seed 45). Simplified: a
//! message already on the wire when a cut begins is still lost (TCP would retransmit it);
//! the event streams detect that by position, the requests do not.

use std::collections::BTreeMap;

use faultline_sim::NodeId;

use crate::ids::CfIx;
use crate::msg::CdcMsg;
use crate::out::{Out, Reach};

/// One KV client stream, seen from the capture: (capture, changefeed, store, generation).
pub type RequestStream = (u32, CfIx, u32, u64);

/// What a link must be for a buffer to send over it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkNeeds {
    /// Not cut (a lossy link delays, the kernel retransmits).
    Up,
    /// Neither cut nor losing packets (no retransmission stall).
    Clean,
}

impl LinkNeeds {
    fn met(self, reach: Reach, from: NodeId, to: NodeId) -> bool {
        match self {
            LinkNeeds::Up => reach.link_up(from, to),
            LinkNeeds::Clean => reach.link_clean(from, to),
        }
    }
}

/// Messages waiting for their link, per connection `K`, in the order they were sent.
#[derive(Clone, Debug)]
pub struct SendBuffer<K> {
    needs: LinkNeeds,
    held: BTreeMap<K, Vec<CdcMsg>>,
}

impl<K: Ord + Copy> SendBuffer<K> {
    /// An empty buffer that sends only over links that meet `needs`.
    pub fn new(needs: LinkNeeds) -> Self {
        SendBuffer {
            needs,
            held: BTreeMap::new(),
        }
    }

    /// Sends `msg` on connection `conn` from `from` to `to`, or holds it while the link does
    /// not meet the buffer's needs or earlier messages of the connection wait (they go first).
    pub fn send(
        &mut self,
        reach: Reach,
        out: &mut Out,
        (from, to): (NodeId, NodeId),
        conn: K,
        msg: CdcMsg,
    ) {
        let waiting = self.held.get(&conn).is_some_and(|h| !h.is_empty());
        if waiting || !self.needs.met(reach, from, to) {
            self.held.entry(conn).or_default().push(msg);
            return;
        }
        out.send_ordered(from, to, msg);
    }

    /// Sends, in order, the held messages of every connection whose link can carry them now.
    /// `route(conn)` names the connection's two ends, or `None` once the connection is gone
    /// (closed, broken, its process restarted): its messages go with it.
    pub fn flush(
        &mut self,
        reach: Reach,
        out: &mut Out,
        route: impl Fn(K) -> Option<(NodeId, NodeId)>,
    ) {
        let conns: Vec<K> = self.held.keys().copied().collect();
        for conn in conns {
            match route(conn) {
                None => {
                    self.held.remove(&conn);
                }
                Some((from, to)) if self.needs.met(reach, from, to) => {
                    for msg in self.held.remove(&conn).unwrap_or_default() {
                        out.send_ordered(from, to, msg);
                    }
                }
                Some(_) => {}
            }
        }
    }

    /// Drops the held messages of every connection `keep` rejects (their process restarted).
    pub fn retain(&mut self, keep: impl Fn(&K) -> bool) {
        self.held.retain(|k, _| keep(k));
    }

    /// Messages held now, over every connection.
    pub fn len(&self) -> usize {
        self.held.values().map(Vec::len).sum()
    }

    /// No message is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use faultline_sim::{Network, SimDuration};

    use super::*;
    use crate::out::Command;
    use crate::ts::Ts;

    fn register(region: u32) -> CdcMsg {
        CdcMsg::Register {
            cf: 0,
            stream: 1,
            region,
            request: region as u64,
            checkpoint: Ts::ZERO,
            version: 1,
        }
    }

    fn sent_regions(out: &Out) -> Vec<u32> {
        out.commands()
            .iter()
            .map(|c| match c {
                Command::SendOrdered {
                    msg: CdcMsg::Register { region, .. },
                    ..
                } => *region,
                other => panic!("only ordered requests are sent, got {other:?}"),
            })
            .collect()
    }

    const STREAM: RequestStream = (0, 0, 0, 1);

    /// A store and a capture with the capture -> store link cut.
    fn cut() -> (Network, (NodeId, NodeId)) {
        let mut net = Network::new((SimDuration::from_micros(500), SimDuration::from_millis(2)));
        let store = net.add_node("tikv-1", "tikv");
        let capture = net.add_node("cdc-1", "cdc");
        net.update_link(capture, store, |l| l.up = false);
        (net, (capture, store))
    }

    #[test]
    fn requests_over_a_cut_link_wait_and_go_in_order_when_it_heals() {
        let (mut net, ends) = cut();
        let (capture, store) = ends;
        let mut h = SendBuffer::new(LinkNeeds::Up);
        let mut out = Out::default();
        h.send(Reach::new(&net), &mut out, ends, STREAM, register(1));
        h.send(Reach::new(&net), &mut out, ends, STREAM, register(2));
        assert!(sent_regions(&out).is_empty(), "a cut link carries nothing");
        h.flush(Reach::new(&net), &mut out, |_| Some(ends));
        assert_eq!(h.len(), 2, "still cut: both wait");

        net.update_link(capture, store, |l| l.up = true);
        // A request made after the heal but before the flush queues behind the held ones.
        h.send(Reach::new(&net), &mut out, ends, STREAM, register(3));
        h.flush(Reach::new(&net), &mut out, |_| Some(ends));
        assert_eq!(sent_regions(&out), vec![1, 2, 3]);
        assert!(h.is_empty());
    }

    #[test]
    fn the_requests_of_a_stream_that_is_gone_are_dropped() {
        let (mut net, ends) = cut();
        let (capture, store) = ends;
        let mut h = SendBuffer::new(LinkNeeds::Up);
        let mut out = Out::default();
        h.send(Reach::new(&net), &mut out, ends, STREAM, register(1));
        net.update_link(capture, store, |l| l.up = true);
        h.flush(Reach::new(&net), &mut out, |_| None);
        assert!(sent_regions(&out).is_empty() && h.is_empty());
    }
}
