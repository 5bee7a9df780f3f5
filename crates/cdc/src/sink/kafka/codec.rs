//! Kafka message content in TiCDC's two row protocols, and decoding back to rows.
//!
//! The sysbench table `sbtest<N>` (table index N-1) has a primary key `id` (the row) and the
//! updated column `c` (the value). Messages carry what the real encodings carry for that
//! (names, type codes, the handle flag, commit ts), as structured fields rather than bytes;
//! [`KafkaMessage::to_json`] renders the wire form for the UI. Simplification: one row per
//! message (TiCDC batches several into one Kafka message with `max-batch-size`).

use faultline_sim::{TraceEncode, TraceHasher};

use crate::change::RowChange;
use crate::config::KafkaProtocol;
use crate::keyspace::{Key, Keyspace};
use crate::ts::Ts;

/// Schema of every replicated table.
pub const SCHEMA: &str = "sbtest";
/// MySQL type code of `id` and `c` (`BIGINT`).
const TYPE_BIGINT: u8 = 8;

/// Open Protocol key: `{"ts":..,"scm":..,"tbl":..,"t":..}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenKey {
    /// Commit ts (row) or resolved ts.
    pub ts: u64,
    /// Schema (empty for resolved events).
    pub scm: String,
    /// Table (empty for resolved events).
    pub tbl: String,
    /// 1 = row change, 2 = DDL, 3 = resolved.
    pub t: u8,
}

/// One column of an Open Protocol value: `{"t":type,"h":handle,"v":value}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenColumn {
    /// Column name.
    pub name: &'static str,
    /// MySQL type code.
    pub t: u8,
    /// Part of the handle key.
    pub h: bool,
    /// Value.
    pub v: u64,
}

/// A Canal-JSON message with the TiDB extension.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CanalMessage {
    /// `database`.
    pub database: String,
    /// `table`.
    pub table: String,
    /// `pkNames`.
    pub pk_names: Vec<&'static str>,
    /// `type`: `UPDATE` or `TIDB_WATERMARK`.
    pub kind: &'static str,
    /// `es`: commit time in ms.
    pub es: u64,
    /// `data`: column values as strings, as Canal writes them.
    pub data: Vec<(&'static str, String)>,
    /// `_tidb.commitTs` for rows, `_tidb.watermarkTs` for watermarks.
    pub tidb_ts: u64,
}

/// A message on a partition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KafkaMessage {
    /// Open Protocol: key and value (no value for a resolved event).
    Open {
        /// Key.
        key: OpenKey,
        /// `{"u": {...}}` columns.
        value: Vec<OpenColumn>,
    },
    /// Canal-JSON.
    Canal(CanalMessage),
}

/// What a consumer gets back from a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decoded {
    /// A row's new version.
    Row {
        /// Row key.
        key: Key,
        /// New value.
        value: u64,
        /// Commit ts.
        commit_ts: Ts,
    },
    /// Every row with commit ts <= this has been written to every partition.
    Resolved(Ts),
}

fn table_name(table: u32) -> String {
    format!("sbtest{}", table + 1)
}

fn table_index(name: &str) -> Result<u32, String> {
    name.strip_prefix("sbtest")
        .and_then(|n| n.parse::<u32>().ok())
        .filter(|n| *n >= 1)
        .map(|n| n - 1)
        .ok_or_else(|| format!("unknown table `{name}`"))
}

/// Encodes one row change.
pub fn encode_row(protocol: KafkaProtocol, ks: &Keyspace, row: &RowChange) -> KafkaMessage {
    let table = ks.table_of(row.key);
    let id = (row.key - ks.key(table, 0)) as u64;
    match protocol {
        KafkaProtocol::OpenProtocol => KafkaMessage::Open {
            key: OpenKey {
                ts: row.commit_ts.0,
                scm: SCHEMA.to_string(),
                tbl: table_name(table),
                t: 1,
            },
            value: vec![
                OpenColumn {
                    name: "id",
                    t: TYPE_BIGINT,
                    h: true,
                    v: id,
                },
                OpenColumn {
                    name: "c",
                    t: TYPE_BIGINT,
                    h: false,
                    v: row.value,
                },
            ],
        },
        KafkaProtocol::CanalJson => KafkaMessage::Canal(CanalMessage {
            database: SCHEMA.to_string(),
            table: table_name(table),
            pk_names: vec!["id"],
            kind: "UPDATE",
            es: row.commit_ts.sim_time().0 / 1_000,
            data: vec![("id", id.to_string()), ("c", row.value.to_string())],
            tidb_ts: row.commit_ts.0,
        }),
    }
}

/// Encodes a resolved ts (Open Protocol `t = 3`, Canal-JSON `TIDB_WATERMARK`).
pub fn encode_resolved(protocol: KafkaProtocol, ts: Ts) -> KafkaMessage {
    match protocol {
        KafkaProtocol::OpenProtocol => KafkaMessage::Open {
            key: OpenKey {
                ts: ts.0,
                scm: String::new(),
                tbl: String::new(),
                t: 3,
            },
            value: Vec::new(),
        },
        KafkaProtocol::CanalJson => KafkaMessage::Canal(CanalMessage {
            database: String::new(),
            table: String::new(),
            pk_names: Vec::new(),
            kind: "TIDB_WATERMARK",
            es: ts.sim_time().0 / 1_000,
            data: Vec::new(),
            tidb_ts: ts.0,
        }),
    }
}

/// Rebuilds a row change or a resolved ts from a message, as TiCDC's kafka-consumer does.
pub fn decode(ks: &Keyspace, msg: &KafkaMessage) -> Result<Decoded, String> {
    match msg {
        KafkaMessage::Open { key, value } => match key.t {
            3 => Ok(Decoded::Resolved(Ts(key.ts))),
            1 => {
                let table = table_index(&key.tbl)?;
                let col = |name: &str| {
                    value
                        .iter()
                        .find(|c| c.name == name)
                        .map(|c| c.v)
                        .ok_or_else(|| format!("no column `{name}` in {}", key.tbl))
                };
                row(ks, table, col("id")?, col("c")?, key.ts)
            }
            t => Err(format!("message type {t} is not modelled")),
        },
        KafkaMessage::Canal(m) => match m.kind {
            "TIDB_WATERMARK" => Ok(Decoded::Resolved(Ts(m.tidb_ts))),
            "UPDATE" | "INSERT" => {
                let table = table_index(&m.table)?;
                let col = |name: &str| {
                    m.data
                        .iter()
                        .find(|(n, _)| *n == name)
                        .and_then(|(_, v)| v.parse::<u64>().ok())
                        .ok_or_else(|| format!("no numeric column `{name}` in {}", m.table))
                };
                row(ks, table, col("id")?, col("c")?, m.tidb_ts)
            }
            kind => Err(format!("canal type {kind} is not modelled")),
        },
    }
}

fn row(ks: &Keyspace, table: u32, id: u64, value: u64, ts: u64) -> Result<Decoded, String> {
    if table >= ks.tables || id >= ks.rows_per_table as u64 {
        return Err(format!("row {id} of table {table} is outside the keyspace"));
    }
    Ok(Decoded::Row {
        key: ks.key(table, id as u32),
        value,
        commit_ts: Ts(ts),
    })
}

impl KafkaMessage {
    /// The message as it looks on the wire (key and value JSON).
    pub fn to_json(&self) -> String {
        match self {
            KafkaMessage::Open { key, value } => {
                let cols: Vec<String> = value
                    .iter()
                    .map(|c| {
                        let h = if c.h { ",\"h\":true" } else { "" };
                        format!("\"{}\":{{\"t\":{}{h},\"v\":{}}}", c.name, c.t, c.v)
                    })
                    .collect();
                let k = format!(
                    "{{\"ts\":{},\"scm\":\"{}\",\"tbl\":\"{}\",\"t\":{}}}",
                    key.ts, key.scm, key.tbl, key.t
                );
                if cols.is_empty() {
                    k
                } else {
                    format!("{k} {{\"u\":{{{}}}}}", cols.join(","))
                }
            }
            KafkaMessage::Canal(m) => {
                let data: Vec<String> = m
                    .data
                    .iter()
                    .map(|(n, v)| format!("\"{n}\":\"{v}\""))
                    .collect();
                let ext = if m.kind == "TIDB_WATERMARK" {
                    "watermarkTs"
                } else {
                    "commitTs"
                };
                format!(
                    "{{\"database\":\"{}\",\"table\":\"{}\",\"pkNames\":{:?},\"type\":\"{}\",\"es\":{},\"data\":[{{{}}}],\"_tidb\":{{\"{ext}\":{}}}}}",
                    m.database,
                    m.table,
                    m.pk_names,
                    m.kind,
                    m.es,
                    data.join(","),
                    m.tidb_ts
                )
            }
        }
    }
}

impl TraceEncode for KafkaMessage {
    fn encode(&self, h: &mut TraceHasher) {
        match self {
            KafkaMessage::Open { key, value } => {
                h.word(1);
                h.word(key.ts);
                h.word(key.t as u64);
                h.word(key.tbl.len() as u64);
                for c in value {
                    h.word(c.v);
                }
            }
            KafkaMessage::Canal(m) => {
                h.word(2);
                h.word(m.tidb_ts);
                h.word(m.table.len() as u64);
                h.word(m.data.len() as u64);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_protocols_round_trip_rows_and_resolved_ts() {
        let ks = Keyspace::new(4, 100, 8);
        let row = RowChange {
            key: ks.key(2, 17),
            value: 4242,
            start_ts: Ts(5),
            commit_ts: Ts(9 << 18),
        };
        for p in [KafkaProtocol::OpenProtocol, KafkaProtocol::CanalJson] {
            let m = encode_row(p, &ks, &row);
            assert_eq!(
                decode(&ks, &m),
                Ok(Decoded::Row {
                    key: row.key,
                    value: 4242,
                    commit_ts: row.commit_ts
                })
            );
            assert!(m.to_json().contains("sbtest3"), "{}", m.to_json());
            let r = encode_resolved(p, Ts(77));
            assert_eq!(decode(&ks, &r), Ok(Decoded::Resolved(Ts(77))));
        }
    }
}
