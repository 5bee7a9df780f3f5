//! Unit tests of the redo meta manager: one flush at a time, asserting on the watermarks it
//! leaves and the warnings it writes.

use faultline_sim::{NodeId, SimDuration, SimTime};

use super::{flush_redo_meta, REDO_STUCK_WARNING};
use crate::config::{CdcConfig, ChangefeedConfig};
use crate::out::Out;
use crate::owner::watermarks::FeedWatermarks;
use crate::ts::Ts;

const OWNER: NodeId = NodeId(7);

/// `redo-cf` keeps a redo log, `plain-cf` does not.
fn config() -> CdcConfig {
    let feed = |id: &str, redo| ChangefeedConfig {
        id: id.to_string(),
        tables: None,
        redo,
        sink: Default::default(),
    };
    CdcConfig {
        changefeeds: vec![feed("redo-cf", true), feed("plain-cf", false)],
        ..CdcConfig::default()
    }
}

fn at(secs: u64) -> SimTime {
    SimTime(SimDuration::from_secs(secs).0)
}

/// Both changefeeds at checkpoint 100, resolved 120.
fn watermarks() -> Vec<FeedWatermarks> {
    let f = FeedWatermarks {
        checkpoint: Ts(100),
        resolved: Ts(120),
        ..FeedWatermarks::default()
    };
    vec![f.clone(), f]
}

fn flush(w: &mut [FeedWatermarks], now: SimTime) -> Out {
    let mut out = Out::default();
    flush_redo_meta(w, &config(), OWNER, now, &mut out);
    out
}

#[test]
fn a_flush_records_the_new_meta_of_redo_changefeeds_only() {
    let mut w = watermarks();
    let out = flush(&mut w, at(2));
    assert!(out.commands().is_empty(), "{out:?}");
    assert_eq!(w[0].redo_meta, (Ts(100), Ts(120)));
    assert_eq!(w[0].redo_changed_at, at(2));
    assert_eq!(w[1].redo_meta, (Ts(0), Ts(0)), "no redo log, no meta");
}

#[test]
fn the_meta_resolved_ts_never_moves_back() {
    let mut w = watermarks();
    flush(&mut w, at(2));
    w[0].resolved = Ts(110);
    w[0].checkpoint = Ts(105);
    flush(&mut w, at(4));
    assert_eq!(w[0].redo_meta, (Ts(105), Ts(120)));
}

#[test]
fn an_unchanged_meta_warns_once_the_stuck_duration_has_passed() {
    let mut w = watermarks();
    flush(&mut w, at(2));
    let early = flush(&mut w, at(2 + 18));
    assert!(early.logged().is_empty(), "18 s unchanged is not stuck yet");
    let late = flush(&mut w, at(2 + 20));
    assert_eq!(late.logged(), vec![REDO_STUCK_WARNING]);
    let text = format!("{:?}", late.commands()[0]);
    assert!(text.contains("changefeed=redo-cf"), "{text}");
    assert!(text.contains("lastFlushTime=20s"), "{text}");
    assert!(text.contains("CheckpointTs:100,ResolvedTs:120"), "{text}");
    assert_eq!(w[0].redo_changed_at, at(2), "a warning is not a flush");
}

#[test]
fn a_moving_checkpoint_never_warns() {
    let mut w = watermarks();
    for step in 1..=30 {
        w[0].checkpoint = Ts(100 + step);
        w[0].resolved = Ts(120 + step);
        let out = flush(&mut w, at(2 * step));
        assert!(out.logged().is_empty(), "step {step}: {out:?}");
    }
}
