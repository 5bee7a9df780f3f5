//! Messages and timers of the TiCDC model.

use faultline_sim::{TraceEncode, TraceHasher};

pub use crate::change::{RegionError, RegionEvent, RegionEventKind, RowChange};
pub use crate::ids::CfIx;
use crate::sink::kafka::codec::KafkaMessage;
use crate::ts::Ts;

/// A message of the TiCDC model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CdcMsg {
    /// Capture -> store: subscribe to a region from `checkpoint` (EventFeed request).
    Register {
        /// Changefeed.
        cf: CfIx,
        /// Stream generation at the capture.
        stream: u64,
        /// Region.
        region: u32,
        /// Request id.
        request: u64,
        /// Scan changes after this ts.
        checkpoint: Ts,
        /// The region's epoch version as the capture knows it (a split region answers
        /// EpochNotMatch).
        version: u64,
    },
    /// Store -> capture: a batch of region events on one stream.
    Events {
        /// Changefeed.
        cf: CfIx,
        /// Stream generation.
        stream: u64,
        /// Events in order.
        events: Vec<RegionEvent>,
        /// Position on the stream (a gap means the connection lost data: it broke).
        seq: u64,
    },
    /// Capture -> MySQL: write rows of one table up to `up_to`.
    MysqlWrite {
        /// Changefeed.
        cf: CfIx,
        /// Table.
        table: u32,
        /// Batch id.
        batch: u64,
        /// Rows in commit order.
        rows: Vec<RowChange>,
        /// The table checkpoint once written.
        up_to: Ts,
    },
    /// MySQL -> capture: the batch is committed.
    MysqlAck {
        /// Changefeed.
        cf: CfIx,
        /// Table.
        table: u32,
        /// Batch id.
        batch: u64,
    },
    /// Capture (KV client's lock resolver) -> a region's leader store: resolve the locks in
    /// `region` up to `max_version` (client-go `ScanLock` then `ResolveLocks`).
    ResolveLock {
        /// Region.
        region: u32,
        /// Locks at or below this start ts.
        max_version: Ts,
    },
    /// Processor -> owner: table watermarks `(table, checkpoint, resolved)`.
    TableStatus {
        /// Changefeed.
        cf: CfIx,
        /// Watermarks.
        tables: Vec<(u32, Ts, Ts)>,
    },
    /// Producer -> partition leader broker: append messages (a table sink's batch, or the
    /// owner's checkpoint broadcast when `batch` is `None`).
    KafkaProduce {
        /// Changefeed (its topic).
        cf: CfIx,
        /// Partition.
        partition: u32,
        /// (capture, table, batch id) to acknowledge.
        batch: Option<(u32, u32, u64)>,
        /// Messages in order.
        messages: Vec<KafkaMessage>,
    },
    /// Broker -> capture: the batch is appended.
    KafkaAck {
        /// Changefeed.
        cf: CfIx,
        /// Table.
        table: u32,
        /// Batch id.
        batch: u64,
    },
    /// Capture sessions, etcd and scheduler v3 (`session.rs`).
    Session(crate::etcd::wire::SessionMsg),
    /// The upstream write path and CheckLeader (`txn_wire.rs`).
    Txn(crate::upstream::txn_wire::TxnMsg),
    /// TSO and region requests to PD and their answers (`pd_wire.rs`).
    Pd(crate::upstream::pd_wire::PdMsg),
}

/// A timer of the TiCDC model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CdcTimer {
    /// Start the next upstream transaction.
    WorkloadTick,
    /// Commit transaction `txn`.
    TxnCommit {
        /// Transaction id.
        txn: u64,
    },
    /// TiKV CDC endpoint: send resolved ts (every `min-ts-interval`).
    EndpointTick,
    /// TiKV CDC endpoint: an incremental scan finished.
    ScanDone {
        /// Subscriber capture index.
        capture: u32,
        /// Changefeed.
        cf: CfIx,
        /// Stream generation.
        stream: u64,
        /// Region.
        region: u32,
        /// Request.
        request: u64,
        /// Scan from.
        checkpoint: Ts,
        /// The epoch version the capture asked with.
        version: u64,
    },
    /// KV client: (re)request a region.
    RequestRegion {
        /// Changefeed.
        cf: CfIx,
        /// Region.
        region: u32,
    },
    /// KV client: the region worker of a stream exits.
    WorkerExit {
        /// Changefeed.
        cf: CfIx,
        /// Store.
        store: u32,
        /// Stream generation.
        stream: u64,
    },
    /// KV client: the receive loop of a stream exits.
    RecvLoopExit {
        /// Changefeed.
        cf: CfIx,
        /// Store.
        store: u32,
        /// Stream generation.
        stream: u64,
    },
    /// KV client: the stream to a store broke (connection reset or keepalive timeout).
    StreamBroken {
        /// Store.
        store: u32,
    },
    /// Processor tick (50 ms): flush sinks, report watermarks.
    ProcessorTick,
    /// Owner tick (50 ms): compute changefeed watermarks.
    OwnerTick,
    /// Redo meta manager flush (2 s).
    RedoFlush,
    /// MySQL finished applying a batch.
    MysqlApplied {
        /// Sending capture index.
        capture: u32,
        /// Changefeed.
        cf: CfIx,
        /// Table.
        table: u32,
        /// Batch.
        batch: u64,
    },
    /// Kafka producer: a table sink's batch was not acknowledged within the timeout.
    KafkaSendTimeout {
        /// Changefeed.
        cf: CfIx,
        /// Table.
        table: u32,
        /// Batch.
        batch: u64,
    },
    /// Kafka producer close: client `client` finished closing.
    KafkaClientClosed {
        /// Changefeed.
        cf: CfIx,
        /// Who closes: a capture index, or `kafka::OWNER_SIDE`.
        side: u32,
        /// The close job (two closes of one side may overlap with the shipped async close).
        job: u64,
        /// Client index (`kafka::CLIENTS`).
        client: u32,
    },
    /// Capture sessions, etcd and scheduler v3 (`session.rs`).
    Session(crate::etcd::wire::SessionTimer),
    /// The upstream write path (`txn_wire.rs`).
    Txn(crate::upstream::txn_wire::TxnTimer),
    /// PD clients' request timeouts (`pd_wire.rs`).
    Pd(crate::upstream::pd_wire::PdTimer),
}

impl CdcMsg {
    /// A short label for the message log and the space-time diagram.
    pub fn label(&self) -> String {
        match self {
            CdcMsg::Register {
                region, request, ..
            } => format!("EventFeed request region {region} (#{request})"),
            CdcMsg::Events { events, .. } => {
                let errors = events
                    .iter()
                    .filter(|e| matches!(e.kind, RegionEventKind::Error(_)))
                    .count();
                format!("{} region events ({} errors)", events.len(), errors)
            }
            CdcMsg::MysqlWrite { table, rows, .. } => {
                format!("write {} rows of table {table}", rows.len())
            }
            CdcMsg::MysqlAck { table, batch, .. } => format!("ack batch {batch} of table {table}"),
            CdcMsg::TableStatus { tables, .. } => format!("status of {} tables", tables.len()),
            CdcMsg::ResolveLock { region, .. } => format!("resolve locks of region {region}"),
            CdcMsg::KafkaProduce {
                partition,
                batch,
                messages,
                ..
            } => match batch {
                Some((_, table, _)) => format!(
                    "produce {} messages of table {table} to partition {partition}",
                    messages.len()
                ),
                None => format!("checkpoint to partition {partition}"),
            },
            CdcMsg::KafkaAck { table, batch, .. } => {
                format!("kafka ack batch {batch} of table {table}")
            }
            CdcMsg::Session(m) => m.label(),
            CdcMsg::Txn(m) => m.label(),
            CdcMsg::Pd(m) => m.label(),
        }
    }
}

fn word_ts(h: &mut TraceHasher, ts: Ts) {
    h.word(ts.0)
}

/// A region that never split is at the bootstrap version: its epoch is encoded only once it
/// differs, so runs without splits keep the trace hashes they had before epochs were sent.
fn encode_version(h: &mut TraceHasher, version: u64) {
    if version != faultline_tikv::RegionEpoch::INIT.version {
        h.word(version);
    }
}

impl TraceEncode for CdcMsg {
    // Long because it encodes every variant, one arm each: the tags read best side by side.
    #[allow(clippy::too_many_lines)]
    fn encode(&self, h: &mut TraceHasher) {
        match self {
            CdcMsg::Register {
                cf,
                stream,
                region,
                request,
                checkpoint,
                version,
            } => {
                h.word(1);
                h.word(*cf as u64);
                h.word(*stream);
                h.word(*region as u64);
                h.word(*request);
                word_ts(h, *checkpoint);
                encode_version(h, *version);
            }
            CdcMsg::Events {
                cf,
                stream,
                events,
                seq,
            } => {
                h.word(2);
                h.word(*cf as u64);
                h.word(*stream);
                h.word(*seq);
                events.encode(h);
            }
            CdcMsg::MysqlWrite {
                cf,
                table,
                batch,
                rows,
                up_to,
            } => {
                h.word(3);
                h.word(*cf as u64);
                h.word(*table as u64);
                h.word(*batch);
                rows.encode(h);
                word_ts(h, *up_to);
            }
            CdcMsg::MysqlAck { cf, table, batch } => {
                h.word(4);
                h.word(*cf as u64);
                h.word(*table as u64);
                h.word(*batch);
            }
            CdcMsg::TableStatus { cf, tables } => {
                h.word(5);
                h.word(*cf as u64);
                h.word(tables.len() as u64);
                for (t, c, r) in tables {
                    h.word(*t as u64);
                    word_ts(h, *c);
                    word_ts(h, *r);
                }
            }
            CdcMsg::KafkaProduce {
                cf,
                partition,
                batch,
                messages,
            } => {
                h.word(6);
                h.word(*cf as u64);
                h.word(*partition as u64);
                match batch {
                    Some((c, t, b)) => {
                        h.word(*c as u64);
                        h.word(*t as u64);
                        h.word(*b);
                    }
                    None => h.word(u64::MAX),
                }
                messages.encode(h);
            }
            CdcMsg::ResolveLock {
                region,
                max_version,
            } => {
                h.word(8);
                h.word(*region as u64);
                word_ts(h, *max_version);
            }
            CdcMsg::KafkaAck { cf, table, batch } => {
                h.word(7);
                h.word(*cf as u64);
                h.word(*table as u64);
                h.word(*batch);
            }
            CdcMsg::Session(m) => {
                h.word(0x5e55);
                m.encode(h)
            }
            CdcMsg::Txn(m) => {
                h.word(0x7e4);
                m.encode(h)
            }
            CdcMsg::Pd(m) => {
                h.word(0x9d);
                m.encode(h)
            }
        }
    }
}

impl TraceEncode for CdcTimer {
    // Long because it encodes every variant, one arm each: the tags read best side by side.
    #[allow(clippy::too_many_lines)]
    fn encode(&self, h: &mut TraceHasher) {
        match self {
            CdcTimer::WorkloadTick => h.word(1),
            CdcTimer::TxnCommit { txn } => {
                h.word(2);
                h.word(*txn)
            }
            CdcTimer::EndpointTick => h.word(3),
            CdcTimer::ScanDone {
                capture,
                cf,
                stream,
                region,
                request,
                checkpoint,
                version,
            } => {
                h.word(4);
                h.word(*capture as u64);
                h.word(*cf as u64);
                h.word(*stream);
                h.word(*region as u64);
                h.word(*request);
                word_ts(h, *checkpoint);
                encode_version(h, *version);
            }
            CdcTimer::RequestRegion { cf, region } => {
                h.word(5);
                h.word(*cf as u64);
                h.word(*region as u64);
            }
            CdcTimer::WorkerExit { cf, store, stream }
            | CdcTimer::RecvLoopExit { cf, store, stream } => {
                h.word(if matches!(self, CdcTimer::WorkerExit { .. }) {
                    6
                } else {
                    7
                });
                h.word(*cf as u64);
                h.word(*store as u64);
                h.word(*stream);
            }
            CdcTimer::StreamBroken { store } => {
                h.word(8);
                h.word(*store as u64);
            }
            CdcTimer::ProcessorTick => h.word(9),
            CdcTimer::OwnerTick => h.word(10),
            CdcTimer::RedoFlush => h.word(11),
            CdcTimer::MysqlApplied {
                capture,
                cf,
                table,
                batch,
            } => {
                h.word(12);
                h.word(*capture as u64);
                h.word(*cf as u64);
                h.word(*table as u64);
                h.word(*batch);
            }
            CdcTimer::KafkaSendTimeout { cf, table, batch } => {
                h.word(13);
                h.word(*cf as u64);
                h.word(*table as u64);
                h.word(*batch);
            }
            CdcTimer::KafkaClientClosed {
                cf,
                side,
                job,
                client,
            } => {
                h.word(14);
                h.word(*cf as u64);
                h.word(*side as u64);
                h.word(*job);
                h.word(*client as u64);
            }
            CdcTimer::Session(t) => {
                h.word(0x5e55);
                t.encode(h)
            }
            CdcTimer::Txn(t) => {
                h.word(0x7e4);
                t.encode(h)
            }
            CdcTimer::Pd(t) => {
                h.word(0x9d);
                t.encode(h)
            }
        }
    }
}
