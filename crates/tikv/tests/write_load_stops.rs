//! `workload.stop_at` stops the TiKV-only write load as it stops the transactions: no write is
//! proposed after it, and the cluster goes back to sleep.

mod common;

use common::*;
use faultline_sim::SimDuration;
use faultline_tikv::{TikvConfig, WriteLoad};

#[test]
fn no_write_is_proposed_after_the_load_stops() {
    let stop_secs = 10;
    let cfg = TikvConfig {
        stores: 3,
        regions: 16,
        load: WriteLoad {
            stop_at: Some(SimDuration::from_secs(stop_secs)),
            ..WriteLoad::per_sec(50)
        },
        ..Default::default()
    };
    let mut w = world(&cfg, 1);
    run_to(&mut w, stop_secs, 1);
    let at_stop = last(&w, "writes_proposed");
    assert!(at_stop > 0.0, "the load wrote before it stopped");
    run_to(&mut w, stop_secs + 60, 1);
    assert_eq!(
        last(&w, "writes_proposed"),
        at_stop,
        "writes were proposed after stop_at"
    );
    assert_eq!(
        last(&w, "hibernated_peers"),
        48.0,
        "every peer of an idle cluster hibernates again"
    );
}
