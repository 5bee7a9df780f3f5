//! Rules a parsed scenario must follow. Every problem names its field and what is allowed.

use crate::dur::Dur;
use crate::error::{Problems, ScenarioError};
use crate::format::{FaultAction, KafkaProtocol, Scenario, SinkKind};
use crate::limits::*;
use crate::nodes::{node_names, resolve};

/// Checks a scenario; returns every problem found, not only the first.
pub fn validate(source_name: &str, s: &Scenario) -> Result<(), ScenarioError> {
    let mut p = Problems::default();
    check_text(&mut p, s);
    check_topology(&mut p, s);
    check_timing(&mut p, s);
    check_cdc(&mut p, s);
    check_kafka(&mut p, s);
    check_faults(&mut p, s);
    check_expectations(&mut p, s);
    p.into_result(source_name)
}

fn check_text(p: &mut Problems, s: &Scenario) {
    if s.name.trim().is_empty() {
        p.add("name", "must not be empty; give the scenario a title");
    }
    if s.name.chars().count() > MAX_NAME_CHARS {
        p.add(
            "name",
            format!("longer than the limit of {MAX_NAME_CHARS} characters"),
        );
    }
    if s.description.chars().count() > MAX_TEXT_CHARS {
        p.add(
            "description",
            format!("longer than the limit of {MAX_TEXT_CHARS} characters"),
        );
    }
    if s.guide.len() > MAX_GUIDE_STEPS {
        p.add(
            "guide",
            format!("{} steps; the limit is {MAX_GUIDE_STEPS}", s.guide.len()),
        );
    }
    for (i, g) in s.guide.iter().enumerate() {
        if g.caption.chars().count() > MAX_TEXT_CHARS {
            p.add(
                format!("guide[{i}].caption"),
                format!("longer than {MAX_TEXT_CHARS} characters"),
            );
        }
        if g.at > s.duration {
            p.add(
                format!("guide[{i}].at"),
                format!("{} is after the end of the run ({})", g.at, s.duration),
            );
        }
    }
}

fn range_u32(p: &mut Problems, field: &str, v: u32, lo: u32, hi: u32) {
    if v < lo || v > hi {
        p.add(field, format!("{v} is out of range; allowed {lo}..={hi}"));
    }
}

fn check_topology(p: &mut Problems, s: &Scenario) {
    let t = &s.topology;
    range_u32(p, "topology.stores", t.stores, 1, MAX_STORES);
    range_u32(p, "topology.regions", t.regions, 1, MAX_REGIONS);
    range_u32(p, "topology.replicas", t.replicas, 1, MAX_REPLICAS);
    if t.replicas > t.stores && t.stores >= 1 {
        p.add(
            "topology.replicas",
            format!(
                "{} replicas need at least {} stores (peers of a region live on different stores); there are {}",
                t.replicas, t.replicas, t.stores
            ),
        );
    }
    if s.workload.writes_per_sec > MAX_WRITES_PER_SEC {
        p.add(
            "workload.writes_per_sec",
            format!(
                "{} is above the limit of {MAX_WRITES_PER_SEC}",
                s.workload.writes_per_sec
            ),
        );
    }
}

fn dur_range(p: &mut Problems, field: &str, d: Dur, lo: Dur, hi: Dur) {
    if d < lo || d > hi {
        p.add(field, format!("{d} is out of range; allowed {lo}..={hi}"));
    }
}

fn check_timing(p: &mut Problems, s: &Scenario) {
    let max = Dur::secs(MAX_DURATION_SECS);
    dur_range(p, "duration", s.duration, Dur::secs(1), max);
    let r = &s.raft;
    dur_range(
        p,
        "raft.base_tick",
        r.base_tick,
        Dur::millis(RAFT_TICK_MS.0),
        Dur::millis(RAFT_TICK_MS.1),
    );
    range_u32(p, "raft.heartbeat_ticks", r.heartbeat_ticks, 1, MAX_TICKS);
    range_u32(p, "raft.election_ticks", r.election_ticks, 2, MAX_TICKS);
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
    let h = &s.hibernate;
    for (field, d) in [
        (
            "hibernate.peer_stale_state_check_interval",
            h.peer_stale_state_check_interval,
        ),
        (
            "hibernate.abnormal_leader_missing_duration",
            h.abnormal_leader_missing_duration,
        ),
        (
            "hibernate.max_leader_missing_duration",
            h.max_leader_missing_duration,
        ),
        ("hibernate.unreachable_backoff", h.unreachable_backoff),
        ("pd.store_heartbeat", s.pd.store_heartbeat),
        ("pd.region_heartbeat", s.pd.region_heartbeat),
        ("pd.max_peer_down_duration", s.pd.max_peer_down_duration),
    ] {
        dur_range(p, field, d, Dur::millis(10), max);
    }
    let n = &s.network;
    dur_range(
        p,
        "network.delay_min",
        n.delay_min,
        Dur(0),
        Dur::secs(MAX_DELAY_SECS),
    );
    dur_range(
        p,
        "network.delay_max",
        n.delay_max,
        Dur(1),
        Dur::secs(MAX_DELAY_SECS),
    );
    if n.delay_max <= n.delay_min {
        p.add(
            "network.delay_max",
            format!("must be greater than network.delay_min ({})", n.delay_min),
        );
    }
}

fn check_faults(p: &mut Problems, s: &Scenario) {
    if s.faults.len() > MAX_FAULTS {
        p.add(
            "faults",
            format!("{} faults; the limit is {MAX_FAULTS}", s.faults.len()),
        );
        return;
    }
    // Node names are built from the topology; an out-of-range size is already reported, and
    // naming 4 billion stores would exhaust memory (found by the link fuzzer).
    if s.topology.stores > MAX_STORES || s.topology.captures > MAX_CAPTURES {
        return;
    }
    let names = node_names(s);
    for (i, f) in s.faults.iter().enumerate() {
        let field = |name: &str| format!("faults[{i}].{name}");
        if f.at > s.duration {
            p.add(
                field("at"),
                format!("{} is after the end of the run ({})", f.at, s.duration),
            );
        }
        match f.action {
            FaultAction::PauseChangefeed | FaultAction::ResumeChangefeed => {
                if !s.changefeeds.iter().any(|c| c.id == f.target.trim()) {
                    let ids: Vec<&str> = s.changefeeds.iter().map(|c| c.id.as_str()).collect();
                    p.add(
                        field("target"),
                        format!(
                            "{} needs a changefeed id as target; changefeeds are [{}]",
                            f.action.name(),
                            ids.join(", ")
                        ),
                    );
                }
            }
            FaultAction::RemoveCapture | FaultAction::AddCapture => {
                match resolve(&f.target, &names) {
                    Ok(hit) if hit.iter().all(|n| n.starts_with("cdc-")) => {}
                    Ok(_) => p.add(
                        field("target"),
                        format!("{} takes captures only, e.g. `cdc-2`", f.action.name()),
                    ),
                    Err(e) => p.add(field("target"), e),
                }
            }
            _ => {
                if let Err(e) = resolve(&f.target, &names) {
                    p.add(field("target"), e);
                }
            }
        }
        let link_fault = matches!(
            f.action,
            FaultAction::Partition | FaultAction::Heal | FaultAction::Loss | FaultAction::Delay
        );
        match (&f.peers, link_fault) {
            (Some(peers), true) => {
                if let Err(e) = resolve(peers, &names) {
                    p.add(field("peers"), e);
                }
            }
            (Some(_), false) => p.add(
                field("peers"),
                format!(
                    "only partition, heal, loss and delay take peers, not {}",
                    f.action.name()
                ),
            ),
            _ => {}
        }
        if f.one_way && !link_fault {
            p.add(
                field("one_way"),
                format!(
                    "only partition, heal, loss and delay can be one-way, not {}",
                    f.action.name()
                ),
            );
        }
        match (f.action, f.loss_percent) {
            (FaultAction::Loss, None) => p.add(
                field("loss_percent"),
                "a loss fault needs loss_percent, 1..=100",
            ),
            (FaultAction::Loss, Some(v)) if !(1..=100).contains(&v) => p.add(
                field("loss_percent"),
                format!("{v} is out of range; allowed 1..=100"),
            ),
            (FaultAction::Loss, _) => {}
            (a, Some(_)) => p.add(
                field("loss_percent"),
                format!("only loss takes loss_percent, not {}", a.name()),
            ),
            _ => {}
        }
        match (f.action, f.delay) {
            (FaultAction::Delay, None) => {
                p.add(field("delay"), "a delay fault needs delay, e.g. \"200ms\"")
            }
            (FaultAction::Delay, Some(d)) => {
                dur_range(p, &field("delay"), d, Dur(1), Dur::secs(MAX_DELAY_SECS))
            }
            (a, Some(_)) => p.add(
                field("delay"),
                format!("only delay takes delay, not {}", a.name()),
            ),
            _ => {}
        }
        if let Some(d) = f.duration {
            let undoable = matches!(
                f.action,
                FaultAction::Kill
                    | FaultAction::Pause
                    | FaultAction::Partition
                    | FaultAction::Loss
                    | FaultAction::Delay
                    | FaultAction::PauseChangefeed
                    | FaultAction::RemoveCapture
            );
            if !undoable {
                p.add(field("duration"), format!("{} cannot be undone after a duration; only kill, pause, partition, loss, delay, pause_changefeed and remove_capture can", f.action.name()));
            }
            dur_range(
                p,
                &field("duration"),
                d,
                Dur(1),
                Dur::secs(MAX_DURATION_SECS),
            );
        }
    }
}

fn check_expectations(p: &mut Problems, s: &Scenario) {
    if s.expect.len() > MAX_EXPECTATIONS {
        p.add(
            "expect",
            format!(
                "{} expectations; the limit is {MAX_EXPECTATIONS}",
                s.expect.len()
            ),
        );
        return;
    }
    for (i, e) in s.expect.iter().enumerate() {
        let field = |name: &str| format!("expect[{i}].{name}");
        match (&e.metric, &e.log) {
            (None, None) => p.add(
                field("metric"),
                "say what to check: `metric = \"...\"` or `log = \"...\"`",
            ),
            (Some(_), Some(_)) => p.add(field("log"), "give either metric or log, not both"),
            _ => {}
        }
        if !e.value.is_finite() {
            p.add(field("value"), "must be a finite number");
        }
        for (name, t) in [("from", e.from), ("to", e.to)] {
            if let Some(t) = t {
                if t > s.duration {
                    p.add(
                        field(name),
                        format!("{t} is after the end of the run ({})", s.duration),
                    );
                }
            }
        }
        if let (Some(a), Some(b)) = (e.from, e.to) {
            if a > b {
                p.add(field("from"), format!("{a} is after `to` ({b})"));
            }
        }
        if e.name.chars().count() > MAX_TEXT_CHARS {
            p.add(
                field("name"),
                format!("longer than {MAX_TEXT_CHARS} characters"),
            );
        }
    }
}

fn check_cdc(p: &mut Problems, s: &Scenario) {
    let w = &s.workload;
    range_u32(p, "topology.captures", s.topology.captures, 0, MAX_CAPTURES);
    range_u32(p, "workload.tables", w.tables, 1, MAX_TABLES);
    range_u32(
        p,
        "workload.rows_per_table",
        w.rows_per_table,
        1,
        MAX_TOTAL_ROWS as u32,
    );
    let total = w.tables as u64 * w.rows_per_table as u64;
    if total > MAX_TOTAL_ROWS {
        p.add(
            "workload.rows_per_table",
            format!(
                "{} tables x {} rows = {total} rows; the limit is {MAX_TOTAL_ROWS} rows in all",
                w.tables, w.rows_per_table
            ),
        );
    }
    if w.txns_per_sec > MAX_TXNS_PER_SEC {
        p.add(
            "workload.txns_per_sec",
            format!(
                "{} is above the limit of {MAX_TXNS_PER_SEC}",
                w.txns_per_sec
            ),
        );
    }
    if let Some(stop) = w.stop_at {
        if stop > s.duration {
            p.add(
                "workload.stop_at",
                format!("{stop} is after the end of the run ({})", s.duration),
            );
        }
    }
    if s.changefeeds.len() > MAX_CHANGEFEEDS {
        p.add(
            "changefeeds",
            format!(
                "{} changefeeds; the limit is {MAX_CHANGEFEEDS}",
                s.changefeeds.len()
            ),
        );
    }
    if !s.changefeeds.is_empty() && s.topology.captures == 0 {
        p.add(
            "topology.captures",
            "changefeeds need at least one TiCDC capture; set topology.captures = 1 or more",
        );
    }
    for (i, cf) in s.changefeeds.iter().enumerate() {
        let ok_id = !cf.id.is_empty()
            && cf.id.len() <= 64
            && cf
                .id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !ok_id {
            p.add(
                format!("changefeeds[{i}].id"),
                "1..=64 characters of letters, digits, `-` and `_`",
            );
        }
        if s.changefeeds[..i].iter().any(|o| o.id == cf.id) {
            p.add(
                format!("changefeeds[{i}].id"),
                format!("`{}` is used by an earlier changefeed", cf.id),
            );
        }
        if let Some(t) = cf.tables {
            if t == 0 || t > w.tables {
                p.add(
                    format!("changefeeds[{i}].tables"),
                    format!(
                        "{t} is out of range; allowed 1..={} (workload.tables)",
                        w.tables
                    ),
                );
            }
        }
    }
    let c = &s.cdc;
    dur_range(
        p,
        "cdc.min_ts_interval",
        c.min_ts_interval,
        Dur::millis(10),
        Dur::secs(600),
    );
    dur_range(
        p,
        "cdc.owner_tick",
        c.owner_tick,
        Dur::millis(1),
        Dur::secs(60),
    );
    dur_range(
        p,
        "cdc.redo_flush_interval",
        c.redo_flush_interval,
        Dur::millis(10),
        Dur::secs(600),
    );
    dur_range(
        p,
        "cdc.mysql_write_latency",
        c.mysql_write_latency,
        Dur(1),
        Dur::secs(60),
    );
    dur_range(
        p,
        "toggles.cdc.capture_remove_delay",
        s.toggles.cdc_capture_remove_delay.0,
        Dur(0),
        Dur::secs(60),
    );
}

fn check_kafka(p: &mut Problems, s: &Scenario) {
    range_u32(
        p,
        "topology.kafka_brokers",
        s.topology.kafka_brokers,
        0,
        MAX_KAFKA_BROKERS,
    );
    for (i, cf) in s.changefeeds.iter().enumerate() {
        match cf.sink {
            SinkKind::Kafka if s.topology.kafka_brokers == 0 => p.add(
                format!("changefeeds[{i}].sink"),
                "a Kafka changefeed needs brokers; set topology.kafka_brokers = 1 or more",
            ),
            SinkKind::Mysql if cf.protocol != KafkaProtocol::default() => p.add(
                format!("changefeeds[{i}].protocol"),
                "only Kafka changefeeds take a protocol; remove it or set sink = \"kafka\"",
            ),
            _ => {}
        }
    }
    range_u32(
        p,
        "cdc.kafka_partitions",
        s.cdc.kafka_partitions,
        1,
        MAX_KAFKA_PARTITIONS,
    );
    dur_range(
        p,
        "cdc.kafka_timeout",
        s.cdc.kafka_timeout,
        Dur::millis(1),
        Dur::secs(600),
    );
}
