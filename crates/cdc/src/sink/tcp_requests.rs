//! The other direction of a KV client's stream: region requests from a capture to a store.
//!
//! A region request (`CdcMsg::Register`, tiflow's `ChangeDataRequest` on the `EventFeed`
//! stream) is written to a gRPC stream over TCP. While the capture -> store link is cut, TCP
//! keeps the request in its send buffer and retransmits it; it reaches the store once the
//! link heals, unless the stream breaks first (gRPC keepalive, 13 s), when the KV client
//! re-requests its regions on a new stream anyway. The kernel would instead drop a message
//! whose link is cut, and the region would wait for an answer that never comes: it stayed
//! Pending for the rest of the run (explore, the merge scenario's seed 45, after a 125 ms cut).
//! So the capture holds a request while the link is cut, and sends its stream's held ones, in
//! order, when it heals. Simplified: a request already on the wire when a cut begins is still
//! lost (TCP would retransmit it too).

use std::collections::BTreeMap;

use faultline_sim::NodeId;

use crate::ids::CfIx;
use crate::msg::CdcMsg;
use crate::out::{Out, Reach};

/// One KV client stream: (capture, changefeed, store, stream generation).
pub type RequestStream = (u32, CfIx, u32, u64);

/// Region requests waiting for a cut capture -> store link, per stream.
#[derive(Clone, Debug, Default)]
pub struct HeldRequests {
    held: BTreeMap<RequestStream, Vec<CdcMsg>>,
}

impl HeldRequests {
    /// Sends `msg` on `stream` from `from` to `to`, or holds it while the link is cut or
    /// earlier requests of the stream wait (they go first).
    pub fn send(
        &mut self,
        (reach, out): (Reach, &mut Out),
        (from, to): (NodeId, NodeId),
        stream: RequestStream,
        msg: CdcMsg,
    ) {
        let waiting = self.held.get(&stream).is_some_and(|h| !h.is_empty());
        if waiting || !reach.link_up(from, to) {
            self.held.entry(stream).or_default().push(msg);
            return;
        }
        out.send_ordered(from, to, msg);
    }

    /// Sends, in order, the held requests of every stream whose link is up again.
    /// `route(stream)` names the stream's two ends, or `None` once the stream is gone (closed,
    /// broken or its capture restarted): its requests go with it.
    pub fn flush(
        &mut self,
        (reach, out): (Reach, &mut Out),
        route: impl Fn(RequestStream) -> Option<(NodeId, NodeId)>,
    ) {
        let streams: Vec<RequestStream> = self.held.keys().copied().collect();
        for stream in streams {
            match route(stream) {
                None => {
                    self.held.remove(&stream);
                }
                Some((from, to)) if reach.link_up(from, to) => {
                    for msg in self.held.remove(&stream).unwrap_or_default() {
                        out.send_ordered(from, to, msg);
                    }
                }
                Some(_) => {}
            }
        }
    }

    /// Requests held now, over every stream.
    pub fn len(&self) -> usize {
        self.held.values().map(Vec::len).sum()
    }

    /// No request is held.
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
        let mut h = HeldRequests::default();
        let mut out = Out::default();
        h.send((Reach::new(&net), &mut out), ends, STREAM, register(1));
        h.send((Reach::new(&net), &mut out), ends, STREAM, register(2));
        assert!(sent_regions(&out).is_empty(), "a cut link carries nothing");
        h.flush((Reach::new(&net), &mut out), |_| Some(ends));
        assert_eq!(h.len(), 2, "still cut: both wait");

        net.update_link(capture, store, |l| l.up = true);
        // A request made after the heal but before the flush queues behind the held ones.
        h.send((Reach::new(&net), &mut out), ends, STREAM, register(3));
        h.flush((Reach::new(&net), &mut out), |_| Some(ends));
        assert_eq!(sent_regions(&out), vec![1, 2, 3]);
        assert!(h.is_empty());
    }

    #[test]
    fn the_requests_of_a_stream_that_is_gone_are_dropped() {
        let mut net = Network::new((SimDuration::from_micros(500), SimDuration::from_millis(2)));
        let store = net.add_node("tikv-1", "tikv");
        let capture = net.add_node("cdc-1", "cdc");
        let mut h = HeldRequests::default();
        net.update_link(capture, store, |l| l.up = false);
        let mut out = Out::default();
        h.send(
            (Reach::new(&net), &mut out),
            (capture, store),
            STREAM,
            register(1),
        );
        net.update_link(capture, store, |l| l.up = true);
        h.flush((Reach::new(&net), &mut out), |_| None);
        assert!(sent_regions(&out).is_empty() && h.is_empty());
    }
}
