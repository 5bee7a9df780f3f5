//! A small full stack for message-level tests: three stores, 16 regions, the given captures
//! and changefeeds, no workload unless a test asks for one.

use faultline_sim::{Network, NodeId, Reach, SimDuration, SimTime, World};
use faultline_tikv::TikvConfig;

use crate::change::RowChange;
use crate::config::{CdcConfig, ChangefeedConfig, KafkaProtocol, SinkClose, SinkType};
use crate::out::Cx;
use crate::stack::Stack;
use crate::ts::Ts;

/// A world at time zero with `captures` captures and `changefeeds` (MySQL unless given).
pub(crate) fn world(captures: u32, changefeeds: Vec<ChangefeedConfig>) -> World<Stack> {
    world_with(CdcConfig {
        captures,
        changefeeds,
        ..CdcConfig::default()
    })
}

/// A world at time zero with this TiCDC configuration.
pub(crate) fn world_with(cdc: CdcConfig) -> World<Stack> {
    let delay = (SimDuration::from_micros(500), SimDuration::from_millis(2));
    let mut net = Network::new(delay);
    let stack = Stack::new(&TikvConfig::default(), &cdc, &mut net, 7);
    World::new(stack, 7, net, SimDuration::from_secs(1))
}

/// A MySQL changefeed `cf` over the first `tables` tables.
pub(crate) fn mysql_feed(tables: u32) -> ChangefeedConfig {
    ChangefeedConfig {
        id: "cf".to_string(),
        tables: Some(tables),
        redo: false,
        sink: Default::default(),
    }
}

/// One capture and one broker with an Open Protocol changefeed `kafka-cf` over the first
/// `tables` tables, closing producers the `sink_close` way.
pub(crate) fn kafka_config(tables: u32, sink_close: SinkClose) -> CdcConfig {
    let feed = ChangefeedConfig {
        id: "kafka-cf".to_string(),
        tables: Some(tables),
        redo: false,
        sink: SinkType::Kafka(KafkaProtocol::OpenProtocol),
    };
    let mut cdc = CdcConfig {
        captures: 1,
        changefeeds: vec![feed],
        sink_close,
        ..CdcConfig::default()
    };
    cdc.kafka.brokers = 1;
    cdc
}

/// Cuts (`up` false) or heals both directions of the link between nodes `a` and `b`.
pub(crate) fn set_link(w: &mut World<Stack>, (a, b): (NodeId, NodeId), up: bool) {
    w.kernel.net.update_link(a, b, |l| l.up = up);
    w.kernel.net.update_link(b, a, |l| l.up = up);
}

/// A handler's context at `now` over `net` (a test world's `w.kernel.net`), with an empty
/// outbox: what `model.rs` gives a handler, for a test that calls one directly.
pub(crate) fn cx_at(now: SimTime, net: &Network) -> Cx<'_> {
    Cx::new(now, Reach::new(net))
}

/// `s` simulated seconds after the start.
pub(crate) fn secs(s: u64) -> SimTime {
    SimTime(s * 1_000_000)
}

/// One upstream row change (key 3 set to 42, committed at ts 11) for a sink test to write.
pub(crate) const ROW: RowChange = RowChange {
    key: 3,
    value: 42,
    start_ts: Ts(10),
    commit_ts: Ts(11),
};
