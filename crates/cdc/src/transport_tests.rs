//! Message-level tests of the store -> capture stream as TCP carries it.

use crate::test_world::{mysql_feed, secs, world};

#[test]
fn a_stream_accepts_batches_in_order_and_breaks_for_good_at_a_gap() {
    let mut w = world(1, vec![mysql_feed(1)]);
    w.run_until(secs(2));
    let (store, stream) = (0, 1 << 20); // a stream of its own, apart from the live ones
    let cdc = &mut w.model.cdc;
    let k = &mut w.kernel;
    let before = k.log.count_containing("stream to store closed");
    // (position, accepted)
    for (seq, accepted) in [(0, true), (1, true), (3, false), (2, false), (4, false)] {
        assert_eq!(
            cdc.stream_in_order(k, 0, 0, store, stream, seq),
            accepted,
            "position {seq}"
        );
    }
    assert_eq!(
        k.log.count_containing("stream to store closed") - before,
        1,
        "the gap breaks the stream once; later batches are refused silently"
    );
}
