//! TCP under the model's connections, as a component: the store -> capture event streams
//! (positions, batches held while a link is cut) and the MySQL transactions whose COMMIT or
//! acknowledgement waits for a cut connection. `transport.rs` wires it to the rest of TiCDC.
//!
//! The kernel drops a message whose link is cut when it arrives; a gRPC stream over TCP never
//! silently loses data in the middle. Two rules make the model's streams behave like TCP:
//! - while the store -> capture link is cut, the endpoint keeps the stream's batches (the
//!   socket buffer) and sends them, in order, when the link heals; the capture sees them late;
//! - every batch carries its position on the stream; a batch lost in flight at the instant of
//!   a cut leaves a gap, and the capture treats a gap as a broken connection (it evicts the
//!   stream's regions and re-requests them from their resolved ts), so no change is skipped.

use std::collections::BTreeMap;

use faultline_sim::NodeId;

use crate::endpoint::store_endpoint::Subscriber;
use crate::ids::CfIx;
use crate::msg::{CdcMsg, RegionEvent};
use crate::out::{Out, Reach};
use crate::sink::send_buffer::{LinkNeeds, RequestStream, SendBuffer};

/// A MySQL transaction waiting for its COMMIT: (capture, changefeed, table, batch).
pub type ParkedCommit = (u32, CfIx, u32, u64);

/// One stream: the store it comes from and the subscriber it goes to.
pub type StreamKey = (u32, Subscriber);

/// Stream positions and held batches, per (store, subscriber stream).
#[derive(Clone, Debug)]
pub struct Transport {
    /// Next position to send.
    next_send: BTreeMap<StreamKey, u64>,
    /// Next position the capture expects; `u64::MAX` once the stream saw a gap.
    next_recv: BTreeMap<StreamKey, u64>,
    /// Batches waiting for a cut or lossy link to be clean again.
    held: SendBuffer<StreamKey>,
    /// MySQL transactions waiting for a cut connection to heal.
    pub parked: Vec<ParkedCommit>,
    /// Acknowledgements of committed MySQL transactions that the way back to the capture
    /// cannot carry yet (a one-way cut): TCP delivers them once it heals.
    pub parked_acks: Vec<ParkedCommit>,
    /// Region requests waiting for a cut capture -> store link (the streams' other direction).
    pub requests: SendBuffer<RequestStream>,
    /// Per (capture, changefeed): batches numbered below this were written over a MySQL
    /// connection the capture has closed since (batch ids go on across a close).
    pub closed_below: BTreeMap<(u32, CfIx), u64>,
}

impl Default for Transport {
    fn default() -> Self {
        Transport {
            next_send: BTreeMap::new(),
            next_recv: BTreeMap::new(),
            // A batch waits out a lossy link too: its retransmission stall is what the
            // endpoint's socket buffer absorbs. A request only needs the link up.
            held: SendBuffer::new(LinkNeeds::Clean),
            parked: Vec::new(),
            parked_acks: Vec::new(),
            requests: SendBuffer::new(LinkNeeds::Up),
            closed_below: BTreeMap::new(),
        }
    }
}

/// What the capture makes of a batch arriving on a stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrival {
    /// The next position: the batch is taken.
    InOrder,
    /// Refused silently: the stream broke earlier, or the capture's context is cancelled.
    Refused,
    /// A position was skipped: the stream breaks now, once.
    Gap {
        /// The position the capture waited for.
        expected: u64,
    },
}

impl Transport {
    /// Sends one batch of `key`'s stream from `from` to `to`, or holds it while the link is
    /// cut or lossy, or while earlier batches are held (they must go first).
    pub fn send_events(
        &mut self,
        reach: Reach,
        out: &mut Out,
        (from, to): (NodeId, NodeId),
        key: StreamKey,
        events: Vec<RegionEvent>,
    ) {
        let next = self.next_send.entry(key).or_insert(0);
        let seq = *next;
        *next += 1;
        let msg = events_msg(key.1, events, seq);
        self.held.send(reach, out, (from, to), key, msg);
    }

    /// Sends, in order, the held batches of every stream whose link is clean again;
    /// `nodes` names a stream's two ends.
    pub fn flush_held(
        &mut self,
        reach: Reach,
        out: &mut Out,
        nodes: impl Fn(StreamKey) -> (NodeId, NodeId),
    ) {
        self.held.flush(reach, out, |key| Some(nodes(key)));
    }

    /// Checks a batch's position at the capture. `cancelled`: the capture's session ended and
    /// its context is cancelled, so its pullers take nothing more.
    pub fn arrive(&mut self, key: StreamKey, seq: u64, cancelled: bool) -> Arrival {
        let expected = self.next_recv.entry(key).or_insert(0);
        if cancelled {
            return Arrival::Refused;
        }
        if *expected == seq {
            *expected += 1;
            return Arrival::InOrder;
        }
        if *expected == u64::MAX {
            return Arrival::Refused;
        }
        let want = *expected;
        *expected = u64::MAX;
        Arrival::Gap { expected: want }
    }

    /// A store restarted: its streams are new connections.
    pub fn store_reset(&mut self, store: u32) {
        self.next_send.retain(|(s, _), _| *s != store);
        self.held.retain(|(s, _)| *s != store);
    }

    /// Capture `c`'s processors were re-created: its streams are new connections.
    pub fn capture_reset(&mut self, c: u32) {
        self.next_send.retain(|(_, sub), _| sub.capture != c);
        self.next_recv.retain(|(_, sub), _| sub.capture != c);
        self.held.retain(|(_, sub)| sub.capture != c);
    }
}

fn events_msg(sub: Subscriber, events: Vec<RegionEvent>, seq: u64) -> CdcMsg {
    CdcMsg::Events {
        cf: sub.cf,
        stream: sub.stream,
        events,
        seq,
    }
}

#[cfg(test)]
mod tests {
    use faultline_sim::{Network, SimDuration};

    use super::*;
    use crate::out::Command;

    fn net() -> (Network, NodeId, NodeId) {
        let mut net = Network::new((SimDuration::from_micros(500), SimDuration::from_millis(2)));
        let store = net.add_node("tikv-1", "tikv");
        let capture = net.add_node("cdc-1", "cdc");
        (net, store, capture)
    }

    const KEY: StreamKey = (
        0,
        Subscriber {
            capture: 0,
            cf: 0,
            stream: 1,
        },
    );

    /// The positions of the `Events` batches an outbox carries, in order.
    fn sent_positions(out: &Out) -> Vec<u64> {
        out.commands()
            .iter()
            .map(|c| match c {
                Command::SendOrdered {
                    msg: CdcMsg::Events { seq, .. },
                    ..
                } => *seq,
                other => panic!("only ordered Events batches are sent, got {other:?}"),
            })
            .collect()
    }

    #[test]
    fn batches_sent_over_a_cut_link_wait_and_go_in_order_when_it_heals() {
        let (mut net, store, capture) = net();
        let mut t = Transport::default();
        let mut out = Out::default();
        t.send_events(Reach::new(&net), &mut out, (store, capture), KEY, vec![]);
        assert_eq!(
            sent_positions(&out),
            vec![0],
            "a clean link carries the batch at once"
        );

        net.update_link(store, capture, |l| l.up = false);
        let mut out = Out::default();
        for _ in 0..2 {
            t.send_events(Reach::new(&net), &mut out, (store, capture), KEY, vec![]);
        }
        t.flush_held(Reach::new(&net), &mut out, |_| (store, capture));
        assert_eq!(sent_positions(&out), Vec::<u64>::new(), "held while cut");

        net.update_link(store, capture, |l| l.up = true);
        // A batch written after the heal but before the flush queues behind the held ones.
        t.send_events(Reach::new(&net), &mut out, (store, capture), KEY, vec![]);
        assert!(out.commands().is_empty());
        t.flush_held(Reach::new(&net), &mut out, |_| (store, capture));
        assert_eq!(sent_positions(&out), vec![1, 2, 3]);
    }

    #[test]
    fn a_lossy_link_holds_batches_like_a_cut_one() {
        let (mut net, store, capture) = net();
        net.update_link(store, capture, |l| l.loss_ppm = 1);
        let mut t = Transport::default();
        let mut out = Out::default();
        t.send_events(Reach::new(&net), &mut out, (store, capture), KEY, vec![]);
        assert!(out.commands().is_empty());
        net.update_link(store, capture, |l| l.loss_ppm = 0);
        t.flush_held(Reach::new(&net), &mut out, |_| (store, capture));
        assert_eq!(sent_positions(&out), vec![0]);
    }

    #[test]
    fn a_stream_takes_batches_in_order_and_breaks_for_good_at_a_gap() {
        let mut t = Transport::default();
        // (position, cancelled, what the capture makes of it)
        let cases = [
            (0, false, Arrival::InOrder),
            (1, false, Arrival::InOrder),
            (2, true, Arrival::Refused),
            (3, false, Arrival::Gap { expected: 2 }),
            (2, false, Arrival::Refused),
            (4, false, Arrival::Refused),
        ];
        for (seq, cancelled, want) in cases {
            assert_eq!(t.arrive(KEY, seq, cancelled), want, "position {seq}");
        }
    }

    #[test]
    fn a_reset_capture_starts_its_streams_again_from_position_zero() {
        let (net, store, capture) = net();
        let mut t = Transport::default();
        let mut out = Out::default();
        t.send_events(Reach::new(&net), &mut out, (store, capture), KEY, vec![]);
        assert_eq!(t.arrive(KEY, 5, false), Arrival::Gap { expected: 0 });
        t.capture_reset(0);
        assert_eq!(t.arrive(KEY, 0, false), Arrival::InOrder);
        t.send_events(Reach::new(&net), &mut out, (store, capture), KEY, vec![]);
        assert_eq!(sent_positions(&out), vec![0, 0]);
    }
}
