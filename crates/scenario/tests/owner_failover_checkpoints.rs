//! Issue 16, item 1: with every fix toggle on, the checkpoints stopped for good after an owner
//! failover (the owner capture cut off one way from all but PD, then lossy). A `Join` the old
//! owner retried during the loss registered its capture ID again after PD's lessor had deleted
//! its key; the new owner kept that ID as vanished, sent it no heartbeat, and so never saw
//! every capture answer: scheduling never initialised and `owner_may_advance` stayed false.
//! etcd now refuses an ID whose keys were deleted and the capture starts a new session, as
//! upstream's `reset` gives every session a fresh capture ID.

use faultline_scenario::*;

#[test]
fn checkpoints_move_again_after_the_owner_fails_over_on_a_lossy_network() {
    let text = include_str!("regressions/owner-cut-one-way-then-lossy.toml");
    let s = parse_scenario("owner-cut-one-way-then-lossy.toml", text).unwrap();
    let mut run = Run::new(&s).unwrap();
    run.run_to_end();
    for e in run.evaluate() {
        assert!(e.passed(), "{}: observed {:?}", e.name, e.observed);
    }
    let log = &run.world.kernel.log;
    assert!(
        log.count_containing("register capture failed, lease not found") >= 1,
        "the old owner's retried Join met its deleted key (the path this test is about)"
    );
}
