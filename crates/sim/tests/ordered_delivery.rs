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
        // Send a moment after start, once the test has scheduled its faults.
        k.set_timer(NodeId(0), SimDuration::from_millis(1), ());
    }
    fn on_message(&mut self, _k: &mut Kernel<Self>, _f: NodeId, _t: NodeId, m: u64) {
        self.received.push(m);
    }
    fn on_timer(&mut self, k: &mut Kernel<Self>, _n: NodeId, _t: ()) {
        for i in 0..200u64 {
            if self.ordered {
                k.send_ordered(NodeId(0), NodeId(1), i);
            } else {
                k.send(NodeId(0), NodeId(1), i);
            }
        }
    }
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
    run_with_loss_until(ordered, loss_ppm, None)
}

/// Runs with `loss_ppm` of a->b packets lost until `heal_at` (if any).
fn run_with_loss_until(ordered: bool, loss_ppm: u32, heal_at: Option<SimTime>) -> Vec<u64> {
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
    if let Some(t) = heal_at {
        w.kernel.schedule_fault(
            t,
            Fault::Links {
                from: vec![NodeId(0)],
                to: vec![NodeId(1)],
                both_ways: true,
                change: LinkChange::Restore,
            },
        );
    }
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

/// A link that loses everything until a scheduled heal: TCP's retries after the heal get
/// through, so an ordered connection delivers every message once the loss is over.
#[test]
fn retransmissions_get_through_once_a_total_loss_heals() {
    let heal = Some(SimTime(20_000_000));
    assert!(run_with_loss_until(false, 1_000_000, heal).is_empty());
    assert_eq!(
        run_with_loss_until(true, 1_000_000, heal),
        (0..200).collect::<Vec<_>>()
    );
}
