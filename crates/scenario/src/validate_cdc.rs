//! Validation of the TiCDC side: the workload's size, changefeeds and Kafka. Knob ranges come
//! from the knobs themselves; these are the rules between fields.

use faultline_cdc::knobs::MAX_TOTAL_ROWS;

use crate::dur::Dur;
use crate::error::Problems;
use crate::format::{KafkaProtocol, Scenario, SinkKind};
use crate::limits::MAX_CHANGEFEEDS;
use crate::validate_field::dur_range;

pub(crate) fn check_cdc(p: &mut Problems, s: &Scenario) {
    let w = &s.workload;
    let total = w.tables as u64 * w.rows_per_table as u64;
    if total > MAX_TOTAL_ROWS as u64 {
        p.add(
            "workload.rows_per_table",
            format!(
                "{} tables x {} rows = {total} rows; the limit is {MAX_TOTAL_ROWS} rows in all",
                w.tables, w.rows_per_table
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
    check_changefeeds(p, s);
    dur_range(
        p,
        "toggles.cdc.capture_remove_delay",
        s.toggles.cdc_capture_remove_delay.0,
        Dur(0),
        Dur::secs(60),
    );
}

fn check_changefeeds(p: &mut Problems, s: &Scenario) {
    for (i, cf) in s.changefeeds.iter().enumerate() {
        // Letters, digits, `-` and `_` only: this also keeps control characters out.
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
        } else if s.changefeeds[..i].iter().any(|o| o.id == cf.id) {
            p.add(
                format!("changefeeds[{i}].id"),
                format!("`{}` is used by an earlier changefeed", cf.id),
            );
        }
        if let Some(t) = cf.tables {
            if t == 0 || t > s.workload.tables {
                p.add(
                    format!("changefeeds[{i}].tables"),
                    format!(
                        "{t} is out of range; allowed 1..={} (workload.tables)",
                        s.workload.tables
                    ),
                );
            }
        }
    }
}

pub(crate) fn check_kafka(p: &mut Problems, s: &Scenario) {
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
}
