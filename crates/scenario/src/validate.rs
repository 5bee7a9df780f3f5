//! Rules a parsed scenario must follow. Every problem names its field and what is allowed.
//!
//! Each knob's own range comes from its definition (`check_ranges`, generated in
//! `params.rs`); this module adds the rules that relate fields to each other and the size
//! limits of lists and text (`limits.rs`). Faults and expectations are checked in
//! `validate_script.rs`, TiCDC and Kafka in `validate_cdc.rs`.

use crate::dur::Dur;
use crate::error::{Problem, Problems, ScenarioError};
use crate::format::Scenario;
use crate::limits::*;
use crate::text::{check_chars, TextKind};
use crate::validate_field::{check_len, dur_range};

/// Checks a scenario; returns every problem found, not only the first.
pub fn validate(source_name: &str, s: &Scenario) -> Result<(), ScenarioError> {
    validate_with(source_name, s, Vec::new())
}

/// Like [`validate`], reporting `earlier` problems (values the parser could not read) first.
pub(crate) fn validate_with(
    source_name: &str,
    s: &Scenario,
    earlier: Vec<Problem>,
) -> Result<(), ScenarioError> {
    let mut p = Problems(earlier);
    check_text(&mut p, s);
    check_ranges(&mut p, s);
    check_topology(&mut p, s);
    check_timing(&mut p, s);
    crate::validate_cdc::check_cdc(&mut p, s);
    crate::validate_cdc::check_kafka(&mut p, s);
    crate::validate_script::check_faults(&mut p, s);
    crate::validate_script::check_expectations(&mut p, s);
    crate::expect_guide::check_guide_claims(&mut p, s);
    check_guide_views(&mut p, s);
    p.into_result(source_name)
}

/// Every knob section's own ranges.
fn check_ranges(p: &mut Problems, s: &Scenario) {
    s.topology.check_ranges(p);
    s.raft.check_ranges(p);
    s.hibernate.check_ranges(p);
    s.pd.check_ranges(p);
    s.network.check_ranges(p);
    s.workload.check_ranges(p);
    s.cdc.check_ranges(p);
}

fn check_text(p: &mut Problems, s: &Scenario) {
    if s.name.trim().is_empty() {
        p.add("name", "must not be empty; give the scenario a title");
    }
    check_len(p, "name", &s.name, MAX_NAME_CHARS);
    check_chars(p, "name", &s.name, TextKind::Name);
    check_len(p, "description", &s.description, MAX_TEXT_CHARS);
    check_chars(p, "description", &s.description, TextKind::Prose);
    if let Some(issue) = &s.issue {
        check_len(p, "issue", issue, MAX_NAME_CHARS);
        check_chars(p, "issue", issue, TextKind::Name);
    }
    if s.guide.len() > MAX_GUIDE_STEPS {
        p.add(
            "guide",
            format!("{} steps; the limit is {MAX_GUIDE_STEPS}", s.guide.len()),
        );
    }
    for (i, g) in s.guide.iter().enumerate() {
        let field = format!("guide[{i}].caption");
        check_len(p, &field, &g.caption, MAX_TEXT_CHARS);
        check_chars(p, &field, &g.caption, TextKind::Prose);
        if g.at > s.duration {
            p.add(
                format!("guide[{i}].at"),
                format!("{} is after the end of the run ({})", g.at, s.duration),
            );
        }
    }
}

/// More nodes than any valid topology has (stores, captures and brokers together).
const MAX_LISTED_NODES: u64 = 4096;

/// A step's `metric` and `node`, and the `[view]` list, are names: short, printable, and (for
/// nodes) one of the scenario's. Metric names are checked against the model when it is built.
fn check_guide_views(p: &mut Problems, s: &Scenario) {
    // Listing the nodes of an absurd topology (4,294,967,295 stores) would exhaust memory;
    // its counts are reported by the topology's own range checks, so the names are checked
    // only when the topology is of a size the model accepts.
    let t = &s.topology;
    let stores = crate::nodes::store_nodes(s);
    let count = (stores as u64) + (t.captures as u64) + (t.kafka_brokers as u64);
    let nodes = if count <= MAX_LISTED_NODES {
        crate::nodes::node_names(s)
    } else {
        Vec::new()
    };
    for (i, g) in s.guide.iter().enumerate() {
        if let Some(m) = &g.metric {
            check_len(p, &format!("guide[{i}].metric"), m, MAX_NAME_CHARS);
            check_chars(p, &format!("guide[{i}].metric"), m, TextKind::Name);
        }
        if let Some(n) = &g.node {
            if count <= MAX_LISTED_NODES && !nodes.iter().any(|k| k == n) {
                p.add(
                    format!("guide[{i}].node"),
                    format!(
                        "no node named `{n}`; nodes are {}",
                        crate::nodes::describe_names(&nodes)
                    ),
                );
            }
        }
    }
    if s.view.key_metrics.len() > MAX_KEY_METRICS {
        p.add(
            "view.key_metrics",
            format!(
                "{} metrics; the limit is {MAX_KEY_METRICS}",
                s.view.key_metrics.len()
            ),
        );
    }
    for (i, m) in s.view.key_metrics.iter().enumerate() {
        let field = format!("view.key_metrics[{i}]");
        check_len(p, &field, m, MAX_NAME_CHARS);
        check_chars(p, &field, m, TextKind::Name);
        if s.view.key_metrics[..i].contains(m) {
            p.add(field, format!("`{m}` is listed twice"));
        }
    }
}

fn check_topology(p: &mut Problems, s: &Scenario) {
    let t = &s.topology;
    if t.max_stores != 0 && t.max_stores < t.stores {
        p.add(
            "topology.max_stores",
            format!(
                "{} is below topology.stores ({}); give 0 (no store joins) or {}..=16",
                t.max_stores, t.stores, t.stores
            ),
        );
    }
    if t.replicas > t.stores && t.stores >= 1 {
        p.add(
            "topology.replicas",
            format!(
                "{} replicas need at least {} stores (peers of a region live on different stores); there are {}",
                t.replicas, t.replicas, t.stores
            ),
        );
    }
}

fn check_timing(p: &mut Problems, s: &Scenario) {
    dur_range(
        p,
        "duration",
        s.duration,
        Dur::secs(1),
        Dur::secs(MAX_DURATION_SECS),
    );
    let r = &s.raft;
    if r.election_ticks <= r.heartbeat_ticks {
        p.add(
            "raft.election_ticks",
            format!(
                "must be greater than raft.heartbeat_ticks ({}), or followers time out between heartbeats",
                r.heartbeat_ticks
            ),
        );
    }
    let election = Dur(r.base_tick.0.saturating_mul(r.election_ticks as u64));
    if r.leader_lease > election {
        p.add(
            "raft.leader_lease",
            format!(
                "{} must not exceed the election timeout ({election}), as in TiKV",
                r.leader_lease
            ),
        );
    }
    let n = &s.network;
    if n.delay_max <= n.delay_min {
        p.add(
            "network.delay_max",
            format!("must be greater than network.delay_min ({})", n.delay_min),
        );
    }
}
