//! The key reference in `docs/scenario-format.md`, rendered from the knob definitions (for
//! parameters) and from [`OTHER_KEYS`] (for keys that are not knobs: text, enums, lists), so
//! the documented defaults and ranges are the ones the code uses. A test
//! (`tests/format_reference.rs`) fails when the checked-in file differs from this rendering.

use faultline_sim::Knob;

use crate::format::Toggles;
use crate::params::*;

/// Where the generated part of the document starts.
pub const BEGIN: &str = "<!-- BEGIN GENERATED KEY REFERENCE: edit crates/*/src/config.rs knobs or crates/scenario/src/reference.rs, then regenerate -->";
/// Where it ends.
pub const END: &str = "<!-- END GENERATED KEY REFERENCE -->";

/// A key that is not a knob: `(key, type, default, allowed, meaning)`.
pub type OtherKey = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
);

/// Every key of the format that is not a knob, in file order within each table.
pub const OTHER_KEYS: &[(&str, &[OtherKey])] = &[
    ("top level", &[
        ("name", "string", "required", "1..=200 characters, no control characters", "Title shown in the gallery."),
        ("description", "string", "\"\"", "<= 4,000 characters; line breaks and tabs but no other control characters", "What happens and what to watch; the first line is the one-line story."),
        ("issue", "string", "none", "<= 200 characters, no control characters", "Upstream issue reproduced, e.g. `tikv/tikv#14547`."),
        ("seed", "integer", "0", "0..=18446744073709551615", "Seeds every random stream of the run."),
        ("duration", "duration", "required", "1s..=24h", "Simulated run length."),
    ]),
    ("[workload]", &[
        ("workload.kind", "string", "\"oltp_update_non_index\"", "\"oltp_update_non_index\", \"oltp_write_only\", \"insert\"", "sysbench-like transaction: one UPDATE of a non-indexed column; two UPDATEs, a DELETE and an INSERT; or one INSERT."),
        ("workload.stop_at", "duration", "none (runs to the end)", "<= duration", "Stop the workload here (the transactions and the TiKV-only writes); the finish mark of the consistency checks."),
    ]),
    ("[toggles]", &[
        ("toggles.\"tikv.unreachable_broadcast\"", "string", "\"repeat_if_new_messages\"", "\"every_failed_attempt\" (v6.3 and older, before tikv#13677), \"once_per_disconnect\" (buggy, v6.4 to 7.1), \"repeat_if_new_messages\" (fixed, tikv#14574)", "tikv#14547: how a store re-broadcasts StoreUnreachable."),
        ("toggles.\"cdc.kv_client_evict\"", "string", "\"after_join\"", "\"on_worker_exit\" (buggy), \"after_join\" (fixed, tiflow#9597)", "tiflow#9595: when the KV client evicts a closing stream's regions."),
        ("toggles.\"cdc.sink_close\"", "string", "\"async\"", "\"sync\" (buggy), \"async\" (fixed as shipped, tiflow#5186), \"async_closing_state\" (the unmerged tiflow#4249 design)", "tiflow#4241: how a failed changefeed's Kafka producer is closed."),
        ("toggles.\"cdc.processor_close_on_session_loss\"", "string", "\"immediate\"", "\"deferred\" (buggy), \"immediate\" (fixed, tiflow#9396)", "tiflow#9344: when a capture whose etcd session ended closes its processors."),
        ("toggles.\"cdc.capture_remove_delay\"", "duration", "\"5s\"", "0s..=1m; \"0s\" is the buggy side", "tiflow#9344: how long the owner waits before removing a vanished capture."),
    ]),
    ("[[changefeeds]]", &[
        ("changefeeds[].id", "string", "required", "1..=64 of letters, digits, `-`, `_`; unique", "Changefeed id, e.g. `cf-1`."),
        ("changefeeds[].sink", "string", "\"mysql\"", "\"mysql\" (`mysql-1`), \"kafka\" (needs topology.kafka_brokers >= 1)", "Where it writes."),
        ("changefeeds[].redo", "bool", "false", "true, false", "`consistent.level = \"eventual\"`: keep a redo log and flush its meta every cdc.redo_flush_interval."),
        ("changefeeds[].tables", "integer", "all tables", "1..=workload.tables", "Replicate only the first N tables."),
        ("changefeeds[].protocol", "string", "\"open_protocol\"", "\"open_protocol\", \"canal_json\" (Kafka only)", "Kafka message encoding."),
    ]),
    ("[[faults]]", &[
        ("faults[].at", "duration", "required", "<= duration", "When, from the start of the run."),
        ("faults[].action", "string", "required", "kill, restart, pause, resume, partition, heal, loss, delay, pause_changefeed, resume_changefeed, remove_capture, add_capture, evict_leader, transfer_leader, add_store, remove_store, split, merge", "What (see Faults below)."),
        ("faults[].target", "string", "required", "node names, `a,b`, or a prefix glob `tikv-*`; each node once; a changefeed id for pause/resume_changefeed", "Whom."),
        ("faults[].peers", "string", "every other node", "as target; partition, heal, loss, delay only", "The other side of a link fault."),
        ("faults[].one_way", "bool", "false", "partition, heal, loss, delay only", "Only from target to peers."),
        ("faults[].loss_percent", "integer", "none", "1..=100; loss only (required there)", "Percent of packets dropped."),
        ("faults[].delay", "duration", "none", "1us..=1m; delay only (required there)", "Added one-way latency."),
        ("faults[].from", "string", "none", "one TiKV store, not the target; transfer_leader only (this or region)", "Move every leader of this store."),
        ("faults[].region", "integer", "none", "0..regions (split, merge: regions earlier splits made too); transfer_leader (this or from), split (this or table) and merge (required) only", "Move only this region's leader; the region to split; the region that merges into its neighbour."),
        ("faults[].parts", "integer", "2", "2..=16; split only (2 with row)", "How many regions the split makes (each, with table)."),
        ("faults[].table", "string", "none", "t0..t(tables-1), with captures; split only (this or region)", "Split every region holding part of this table."),
        ("faults[].row", "integer", "none", "0..rows_per_table; split with table only", "Split the region holding this row of the table at the row's key, in two."),
        ("faults[].duration", "duration", "none (not undone)", "1us..=24h; kill, pause, partition, loss, delay, pause_changefeed, remove_capture, evict_leader", "Undo the fault after this long."),
    ]),
    ("[[expect]]", &[
        ("expect[].name", "string", "\"\"", "<= 4,000 characters, no control characters; unique when given", "What this checks, in words; `shrink --property` picks it by this."),
        ("expect[].metric", "string", "none", "a metric series name (see Metrics); this or log", "The series to read."),
        ("expect[].log", "string", "none", "<= 200 characters; this or metric", "Count log lines containing this text instead."),
        ("expect[].agg", "string", "\"last\"", "\"last\", \"max\", \"min\", \"all\", \"any\"", "How samples in the window combine."),
        ("expect[].from", "duration", "run start", "<= to, <= duration", "Window start."),
        ("expect[].to", "duration", "run end", "<= duration", "Window end, or the instant for `last`."),
        ("expect[].op", "string", "required", "\">\", \">=\", \"<\", \"<=\", \"==\"", "Comparison."),
        ("expect[].value", "number", "required", "finite", "Threshold."),
    ]),
    ("[[guide]]", &[
        ("guide[].at", "duration", "required", "<= duration; at most 64 steps", "When the caption applies."),
        ("guide[].caption", "string", "required", "<= 4,000 characters; line breaks and tabs but no other control characters", "What to watch."),
        ("guide[].expect[].name", "string", "\"\"", "<= 4,000 characters, no control characters", "The caption's claim in words, shown beside the caption; a `[[guide.expect]]` table is checked at its step's `at`, and `faultline check` fails when it is false."),
        ("guide[].expect[].metric", "string", "required", "a metric series name (see Metrics); no `log`: log lines are counted over the whole run", "The series the claim reads."),
        ("guide[].expect[].agg", "string", "\"last\"", "\"last\", \"max\", \"min\", \"all\", \"any\"", "How samples in the window combine."),
        ("guide[].expect[].from", "duration", "run start", "<= the step's at", "Window start; the window ends at the step's `at` (no `to`)."),
        ("guide[].expect[].op", "string", "required", "\">\", \">=\", \"<\", \"<=\", \"==\"", "Comparison."),
        ("guide[].expect[].value", "number", "required", "finite", "Threshold."),
        ("guide[].tab", "string", "none", "\"charts\", \"cdc\", \"regions\", \"log\", \"space-time\", \"blame\", \"consistency\"", "The view tab the tour opens at this step."),
        ("guide[].metric", "string", "none", "a metric series name (see Metrics)", "The chart the tour scrolls into sight and highlights."),
        ("guide[].node", "string", "none", "a node of the topology, e.g. \"tikv-1\"", "The node the tour highlights in the topology."),
    ]),
    ("[view]", &[
        ("view.key_metrics", "list of strings", "[]", "metric series names (see Metrics); no repeats; at most 8", "The charts that show the symptom: drawn first, at full width."),
    ]),
];

/// One knob section of the reference: its table header and generated fields.
struct Section {
    title: &'static str,
    prefix: &'static str,
    fields: &'static [(&'static str, Option<Knob>)],
}

const SECTIONS: &[Section] = &[
    Section {
        title: "[topology]",
        prefix: "topology",
        fields: Topology::FIELDS,
    },
    Section {
        title: "[raft]",
        prefix: "raft",
        fields: RaftParams::FIELDS,
    },
    Section {
        title: "[hibernate]",
        prefix: "hibernate",
        fields: HibernateParams::FIELDS,
    },
    Section {
        title: "[pd]",
        prefix: "pd",
        fields: PdParams::FIELDS,
    },
    Section {
        title: "[network]",
        prefix: "network",
        fields: NetworkParams::FIELDS,
    },
    Section {
        title: "[workload]",
        prefix: "workload",
        fields: Workload::FIELDS,
    },
    Section {
        title: "[cdc]",
        prefix: "cdc",
        fields: CdcParams::FIELDS,
    },
];

/// The generated part of the document, between [`BEGIN`] and [`END`] (both included).
pub fn render() -> String {
    let mut out = format!("{BEGIN}\n");
    out.push_str(&table(
        "top level",
        others("top level").iter().map(other_row),
    ));
    for s in SECTIONS {
        let rows = s.fields.iter().map(|(field, knob)| {
            let key = format!("{}.{field}", s.prefix);
            match knob {
                Some(k) => knob_row(k),
                None => other_row(find_other(&key)),
            }
        });
        out.push_str(&table(s.title, rows));
    }
    for (title, _) in OTHER_KEYS.iter().skip(2) {
        out.push_str(&table(title, others(title).iter().map(other_row)));
    }
    out.push_str(END);
    out.push('\n');
    out
}

/// Every key the reference documents, as written in its first column.
pub fn documented_keys() -> Vec<String> {
    let mut keys: Vec<String> = SECTIONS
        .iter()
        .flat_map(|s| s.fields.iter().map(|(f, _)| format!("{}.{f}", s.prefix)))
        .collect();
    keys.extend(
        OTHER_KEYS
            .iter()
            .flat_map(|(_, ks)| ks.iter().map(|k| k.0.to_string())),
    );
    keys
}

fn others(title: &str) -> &'static [OtherKey] {
    OTHER_KEYS
        .iter()
        .find(|(t, _)| *t == title)
        .map(|(_, keys)| *keys)
        .unwrap_or(&[])
}

fn find_other(key: &str) -> &'static OtherKey {
    OTHER_KEYS
        .iter()
        .flat_map(|(_, keys)| keys.iter())
        .find(|k| k.0 == key)
        .unwrap_or_else(|| panic!("{key} is neither a knob nor in reference::OTHER_KEYS"))
}

fn knob_row(k: &Knob) -> String {
    format!(
        "| `{}` | {} | `{}` | {} | {} |\n",
        k.key,
        k.unit.describe(),
        k.format_value(k.default),
        k.range_text(),
        k.doc
    )
}

fn other_row(k: &OtherKey) -> String {
    format!("| `{}` | {} | {} | {} | {} |\n", k.0, k.1, k.2, k.3, k.4)
}

fn table(title: &str, rows: impl Iterator<Item = String>) -> String {
    let mut out = format!(
        "\n### {title}\n\n| key | type | default | allowed | meaning |\n|---|---|---|---|---|\n"
    );
    out.extend(rows);
    out
}

// The reference names the toggles' keys by hand; this fails to build if a toggle is added to
// `Toggles` without being listed above (the exhaustive pattern names every field).
#[allow(dead_code)]
fn toggles_are_listed(t: Toggles) {
    let Toggles {
        tikv_unreachable_broadcast: _,
        cdc_kv_client_evict: _,
        cdc_sink_close: _,
        cdc_processor_close_on_session_loss: _,
        cdc_capture_remove_delay: _,
    } = t;
}
