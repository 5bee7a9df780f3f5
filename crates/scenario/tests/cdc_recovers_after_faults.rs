//! Failures `faultline explore` found (in the fixed tiflow#9595 scenario unless a test says
//! otherwise), shrunk by `faultline shrink`, kept as regressions (tests/regressions/*.toml):
//! after each fault heals, the changefeed must catch up.

use faultline_scenario::*;

fn final_lag(name: &str, text: &str) -> f64 {
    let s = parse_scenario(name, text).unwrap();
    let mut run = Run::new(&s).unwrap();
    run.run_to_end();
    run.world
        .kernel
        .metrics
        .last("checkpoint_lag.redo-cf")
        .unwrap()
}

/// A capture killed for 62 ms came back with stream and request ids starting at 1 again,
/// while TiKV still held its earlier life's subscriptions under the same ids: the changefeed
/// never caught up. TiKV now drops a dead capture's subscriptions and ids never repeat.
#[test]
fn a_capture_restarted_within_milliseconds_catches_up() {
    let text = include_str!("regressions/capture-restarted-in-62ms.toml");
    let lag = final_lag("capture-restarted-in-62ms.toml", text);
    assert!(lag < 10.0, "checkpoint lag {lag} s at the end");
}

/// PD (with etcd) killed for 9 s: the owner's session ended while PD was down and it rejoined
/// with a new session once PD was back. The restarted PD never armed its lessor again, so the
/// old session's lease (and its owner key) never expired: the new session could not become
/// owner and nobody re-added the table. A restarted etcd now refreshes its leases and expires
/// them again.
#[test]
fn an_owner_whose_session_ended_while_pd_was_down_takes_over_again() {
    let text = include_str!("regressions/pd-killed-for-9s.toml");
    let lag = final_lag("pd-killed-for-9s.toml", text);
    assert!(lag < 10.0, "checkpoint lag {lag} s at the end");
}

/// MySQL killed for 3 ms: the batch in flight died with it and stayed in flight forever (no
/// acknowledgement would ever come), so the table's checkpoint never moved again. A batch
/// whose connection broke is now written again once MySQL is back.
#[test]
fn a_batch_lost_with_a_restarted_mysql_is_written_again() {
    let text = include_str!("regressions/mysql-killed-for-3ms.toml");
    let lag = final_lag("mysql-killed-for-3ms.toml", text);
    assert!(lag < 10.0, "checkpoint lag {lag} s at the end");
}

/// The only capture paused for 9 s: on resume its session was done, it closed its processors
/// and rejoined, but the new processors' KV clients numbered their streams and requests from 1
/// again while the stores still held the closed session's subscriptions under those ids: no
/// region initialised and the tables stayed in Prepare forever. Ids now go on across a close.
#[test]
fn a_capture_whose_session_ended_in_a_pause_catches_up() {
    let text = include_str!("regressions/capture-paused-for-9s.toml");
    let lag = final_lag("capture-paused-for-9s.toml", text);
    assert!(lag < 10.0, "checkpoint lag {lag} s at the end");
}

/// The way back from MySQL cut for 15 ms (one way): MySQL committed a batch but its
/// acknowledgement was dropped, so the batch stayed in flight forever. The acknowledgement now
/// waits for the link to heal, as TCP retransmits it.
#[test]
fn an_ack_held_up_by_a_one_way_cut_arrives_after_the_heal() {
    let text = include_str!("regressions/mysql-cut-one-way-for-15ms.toml");
    let lag = final_lag("mysql-cut-one-way-for-15ms.toml", text);
    assert!(lag < 10.0, "checkpoint lag {lag} s at the end");
}

/// MySQL paused for 4 s and cut off for 2 s of it: a batch that had reached the paused MySQL
/// was dropped when MySQL resumed because the link was cut by then, so it was never applied
/// nor acknowledged. A message waiting in a paused receiver's socket now survives a later cut.
#[test]
fn a_write_waiting_in_a_paused_mysql_survives_a_cut() {
    let text = include_str!("regressions/mysql-paused-then-cut.toml");
    let lag = final_lag("mysql-paused-then-cut.toml", text);
    assert!(lag < 10.0, "checkpoint lag {lag} s at the end");
}

/// MySQL paused while a capture's batches waited in its socket; the capture was cut off, its
/// session ended and it closed its processors, and the tables moved on. When MySQL resumed and
/// the link healed, the closed connection's old batches committed over the new primary's newer
/// rows. A batch of a connection closed since is now rolled back.
#[test]
fn a_closed_captures_batch_never_commits_over_newer_rows() {
    let text = include_str!("regressions/zombie-batch-in-paused-mysql.toml");
    let s = parse_scenario("zombie-batch-in-paused-mysql.toml", text).unwrap();
    let mut run = Run::new(&s).unwrap();
    run.run_to_end();
    let diff = run
        .world
        .kernel
        .metrics
        .last("consistency_diff_rows.cf-1")
        .unwrap();
    assert_eq!(diff, 0.0, "{diff} rows differ at the end");
}

/// The only capture lost 48 % of its packets for 26 s: its session ended and it rejoined while
/// the loss lasted. The kernel dropped lost messages of ordered connections outright, so a
/// region request on the new processor's gRPC stream vanished, the region never initialised
/// and the table stayed in Prepare forever. A stream now retransmits a lost message after
/// TCP's timeout, as TCP does, instead of losing it.
#[test]
fn a_capture_on_a_lossy_network_catches_up_after_the_heal() {
    let text = include_str!("regressions/capture-lossy-for-26s.toml");
    let lag = final_lag("capture-lossy-for-26s.toml", text);
    assert!(lag < 10.0, "checkpoint lag {lag} s at the end");
}

/// The only capture paused past its lease, then rejoined: its watch showed it as owner before
/// its `Joined` answer arrived, and the owner term that began with the answer was never logged.
/// The only capture is owner in every session it registers, so each registration has its term
/// logged.
#[test]
fn a_rejoined_owner_logs_its_new_term() {
    let text = include_str!("regressions/capture-paused-for-9s.toml");
    let s = parse_scenario("capture-paused-for-9s.toml", text).unwrap();
    let mut run = Run::new(&s).unwrap();
    run.run_to_end();
    let log = &run.world.kernel.log;
    let sessions = log.count_containing("capture registered");
    assert!(sessions >= 2, "the capture rejoined ({sessions} sessions)");
    assert_eq!(
        log.count_containing("campaign owner successfully"),
        sessions
    );
}

/// Found on the scale-out-in scenario: the captures rejoin and the owner is moving open-cf's
/// table to one of them when a 250 ms cut from the Kafka broker fails both changefeeds. Their
/// processors restart without the table; the moving table's replication set was left in
/// Commit with its old primary gone and its secondary forgotten, which nothing ever moved
/// again (the open-cf checkpoint stood still to the end). tiflow's `pollOnCommit` turns such
/// a set Absent, so the table is added again.
#[test]
fn a_table_mid_move_when_its_changefeed_restarts_is_added_again() {
    let name = "changefeed-restarted-mid-move.toml";
    let s = parse_scenario(
        name,
        include_str!("regressions/changefeed-restarted-mid-move.toml"),
    );
    let mut run = Run::new(&s.unwrap()).unwrap();
    run.run_to_end();
    let lag = run
        .world
        .kernel
        .metrics
        .last("checkpoint_lag.open-cf")
        .unwrap();
    assert!(lag < 10.0, "checkpoint lag {lag} s at the end");
}

/// Found on the merge gallery scenario (seed 45): a capture's region request left during a
/// 125 ms cut from the region's store and the kernel dropped it, so the region waited for an
/// answer to the end and the capture never heard that it merged away. The table's frontier,
/// taken over the regions the table had now, then passed rows of keys nobody followed (21 to
/// 36 rows differed). A request now waits out a cut in TCP's send buffer, and the frontier
/// counts every span the KV client tracks (with only the latter, the checkpoint stops at the
/// cut instead).
#[test]
fn a_region_request_sent_into_a_short_cut_is_answered_after_the_heal() {
    let name = "capture-cut-from-a-store-for-125ms.toml";
    let text = include_str!("regressions/capture-cut-from-a-store-for-125ms.toml");
    let mut run = Run::new(&parse_scenario(name, text).unwrap()).unwrap();
    run.run_to_end();
    let metrics = &run.world.kernel.metrics;
    let diff = metrics.last("consistency_diff_rows.cf-1").unwrap();
    assert_eq!(diff, 0.0, "{diff} rows differ at the end");
    let worst_after_cut = metrics
        .series("checkpoint_lag.cf-1")
        .unwrap()
        .into_iter()
        .filter(|(t, _)| t.0 >= 35_000_000)
        .map(|(_, lag)| lag)
        .fold(0.0, f64::max);
    assert!(
        worst_after_cut < 3.0,
        "checkpoint lag up to {worst_after_cut} s after the cut"
    );
}

/// In the TiKV scale-out-and-in scenario, a transaction committed its keys of region 22 while
/// its keys of region 23 waited (22 % loss on tikv-6); 22 merged into 23, then 23 split by
/// size. The split put a lock on every key of the transaction in 23's range, the committed
/// ones too, and the lock on a committed key was never released: regions 24 and 25 held their
/// resolved ts at 2m55s for good. A split now moves only the keys still locked.
#[test]
fn a_split_after_a_merge_leaves_no_lock_on_committed_keys() {
    let name = "split-after-merge-with-a-commit-in-flight.toml";
    let text = include_str!("regressions/split-after-merge-with-a-commit-in-flight.toml");
    let s = parse_scenario(name, text).unwrap();
    let mut run = Run::new(&s).unwrap();
    run.run_to_end();
    for cf in ["open-cf", "canal-cf"] {
        let metric = format!("checkpoint_lag.{cf}");
        let lag = run.world.kernel.metrics.last(&metric).unwrap();
        assert!(lag < 10.0, "{cf}: checkpoint lag {lag} s at the end");
    }
}
