//! `send_ordered` keeps per-connection FIFO order (gRPC over TCP); plain `send` may reorder.

use faultline_sim::*;

#[derive(Clone, Default)]
struct Echo {
    ordered: bool,
    received: Vec<u64>,
}

impl Model for Echo {
    type Msg = u64;
    type Timer = ();

    fn init(&mut self, k: &mut Kernel<Self>) {
        for i in 0..200u64 {
            if self.ordered {
                k.send_ordered(NodeId(0), NodeId(1), i);
            } else {
                k.send(NodeId(0), NodeId(1), i);
            }
        }
    }
    fn on_message(&mut self, _k: &mut Kernel<Self>, _f: NodeId, _t: NodeId, m: u64) {
        self.received.push(m);
    }
    fn on_timer(&mut self, _k: &mut Kernel<Self>, _n: NodeId, _t: ()) {}
    fn on_node_state(&mut self, _k: &mut Kernel<Self>, _n: NodeId, _s: NodeState) {}
    fn metric_names(&self) -> Vec<String> {
        Vec::new()
    }
    fn sample_metrics(&self, _now: SimTime, _out: &mut Vec<f64>) {}
}

fn run(ordered: bool) -> Vec<u64> {
    run_with_loss(ordered, 0)
}

/// Runs with `loss_ppm` of a->b packets lost.
fn run_with_loss(ordered: bool, loss_ppm: u32) -> Vec<u64> {
    let mut net = Network::new((SimDuration::from_micros(100), SimDuration::from_millis(5)));
    let a = net.add_node("a", "t");
    let b = net.add_node("b", "t");
    net.update_link(a, b, |l| l.loss_ppm = loss_ppm);
    let mut w = World::new(
        Echo {
            ordered,
            received: Vec::new(),
        },
        9,
        net,
        SimDuration::from_secs(1),
    );
    // Long enough for a message lost several times in a row (backoff doubles from 200 ms).
    w.run_until(SimTime(600_000_000));
    w.model.received
}

#[test]
fn ordered_sends_arrive_in_order_plain_sends_may_not() {
    let ordered = run(true);
    assert_eq!(ordered, (0..200).collect::<Vec<_>>());
    let plain = run(false);
    assert_eq!(plain.len(), 200);
    assert_ne!(
        plain,
        (0..200).collect::<Vec<_>>(),
        "random delays should reorder some messages"
    );
}

/// A lossy link drops plain sends, but an ordered connection retransmits (TCP): every message
/// arrives, in order, some of them a retransmission timeout late.
#[test]
fn loss_drops_plain_sends_but_delays_ordered_ones() {
    let plain = run_with_loss(false, 400_000);
    assert!(
        plain.len() < 160,
        "about 40 % of 200 plain sends are lost, got {}",
        plain.len()
    );
    let ordered = run_with_loss(true, 400_000);
    assert_eq!(ordered, (0..200).collect::<Vec<_>>());
}
