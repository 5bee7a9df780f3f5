//! The region detail's place of a region: by its keys and tables when TiCDC's rows have a
//! layout, by the report's layout otherwise.

use faultline_scenario::Run;
use faultline_sim::SimTime;

use super::*;

/// With TiCDC the rows have a key layout: the detail says which keys and tables a region
/// holds, a split region included (region 2 of the split scenario is keys 100..150, table 1;
/// its first new part, region 8, is keys 100..112).
#[test]
fn the_region_detail_places_a_region_by_its_keys_when_rows_have_them() {
    let text = include_str!("../../../scenarios/cdc-region-split-during-replication.toml");
    let s = faultline_scenario::parse_scenario("split.toml", text).unwrap();
    let mut run = Run::new(&s).unwrap();
    run.run_until(SimTime(39_000_000));
    let place = |run: &Run, r| region_detail(run, r).expect("exists").place;
    let t1 = Some((1, 1));
    assert_eq!(
        place(&run, 2),
        RegionPlace::Keys {
            start: 100,
            end: 150,
            tables: t1
        }
    );
    run.run_until(SimTime(41_000_000));
    assert_eq!(
        place(&run, 8),
        RegionPlace::Keys {
            start: 100,
            end: 112,
            tables: t1
        }
    );
    assert_eq!(
        place(&run, 2),
        RegionPlace::Keys {
            start: 137,
            end: 150,
            tables: t1
        }
    );
    assert_eq!(place(&run, 8).describe(), "keys 100..112 of table t1");
}
