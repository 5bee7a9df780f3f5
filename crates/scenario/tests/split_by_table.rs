//! `split` named by table: every region holding part of the table splits, or, with `row`,
//! the region holding that row is cut at its key. PD finds the regions when the split runs.

use faultline_scenario::*;
use faultline_sim::SimTime;

/// 8 regions over 4 tables of 100 rows (50 keys a region: t1 is regions 2 and 3), a
/// changefeed and 50 txns/s until 80 s; `faults` are appended.
fn scenario(faults: &str) -> Result<Scenario, String> {
    let text = format!(
        r#"
name = "split by table"
seed = 3
duration = "100s"

[topology]
stores = 3
regions = 8
captures = 2

[hibernate]
enabled = false

[workload]
kind = "oltp_write_only"
txns_per_sec = 50
tables = 4
rows_per_table = 100
stop_at = "80s"

[[changefeeds]]
id = "cf-1"

{faults}
"#
    );
    parse_scenario("split-table.toml", &text).map_err(|e| e.to_string())
}

fn split(at: &str, fields: &str) -> String {
    format!("[[faults]]\nat = \"{at}\"\naction = \"split\"\ntarget = \"pd-1\"\n{fields}\n")
}

#[test]
fn every_region_of_the_table_splits_and_a_row_cuts_its_region_at_its_key() {
    let faults =
        split("20s", "table = \"t1\"\nparts = 3") + &split("40s", "table = \"t2\"\nrow = 30");
    let mut r = Run::new(&scenario(&faults).unwrap()).unwrap();
    r.run_until(SimTime(100_000_000));
    // t1's regions 2 and 3 became three each (8, 9 and 10, 11 are new); t2's row 30 (key
    // 230) lies in region 4 (keys 200..250), which is cut there: new region 12 is 200..230.
    assert_eq!(r.metric_at_secs("regions", 30), 12.0);
    assert_eq!(r.metric_at_secs("regions", 99), 13.0);
    let ks = &r.world.model.cdc.ks;
    assert_eq!(ks.region_keys(12), (200, 230));
    assert_eq!(ks.region_keys(4), (230, 250));
    assert_eq!(ks.region_of(ks.key(2, 30)), 4);
    assert_eq!(ks.region_of(ks.key(2, 29)), 12);
    assert_eq!(ks.table_regions(1).len(), 6);
    let last = |m: &str| r.metric_at_secs(m, 99);
    assert_eq!(last("consistency_diff_rows.cf-1"), 0.0);
    assert_eq!(last("consistency_checked_rows.cf-1"), 400.0);
}

#[test]
fn a_row_that_already_starts_a_region_splits_nothing() {
    // Row 50 of t2 is key 250, where region 5 starts.
    let faults = split("20s", "table = \"t2\"\nrow = 50");
    let mut r = Run::new(&scenario(&faults).unwrap()).unwrap();
    r.run_until(SimTime(30_000_000));
    assert_eq!(r.metric_at_secs("regions", 29), 8.0);
    assert_eq!(r.world.kernel.log.count_containing("split skipped"), 1);
}

#[test]
fn split_by_table_names_what_it_needs() {
    let problem = |faults: &str| scenario(faults).expect_err("invalid");
    let e = problem(&split("10s", "region = 1\ntable = \"t1\""));
    assert!(
        e.contains("`faults[0].table`: split takes region or table, not both"),
        "{e}"
    );
    let e = problem(&split("10s", "table = \"t9\""));
    assert!(
        e.contains("`faults[0].table`: \"t9\" is not a table; the workload has t0..=t3"),
        "{e}"
    );
    let e = problem(&split("10s", "table = \"orders\""));
    assert!(e.contains("\"orders\" is not a table"), "{e}");
    let e = problem(&split("10s", "table = \"t1\"\nrow = 100"));
    assert!(
        e.contains("`faults[0].row`: 100 is out of range; a table has rows 0..=99"),
        "{e}"
    );
    let e = problem(&split("10s", "table = \"t1\"\nrow = 5\nparts = 3"));
    assert!(
        e.contains("`faults[0].parts`: a split at a row makes two regions"),
        "{e}"
    );
    let e = problem(&split("10s", "region = 1\nrow = 5"));
    assert!(e.contains("`faults[0].row`: row needs table"), "{e}");
    let e = problem(
        "[[faults]]\nat = \"10s\"\naction = \"kill\"\ntarget = \"tikv-1\"\ntable = \"t1\"\n",
    );
    assert!(
        e.contains("`faults[0].table`: only split takes table, not kill"),
        "{e}"
    );
}

#[test]
fn split_by_table_needs_the_ticdc_tables() {
    let text = "name = \"t\"\nduration = \"10s\"\n[[faults]]\nat = \"1s\"\naction = \"split\"\ntarget = \"pd-1\"\ntable = \"t0\"\n";
    let e = parse_scenario("tikv-only.toml", text)
        .expect_err("invalid")
        .to_string();
    assert!(
        e.contains("`faults[0].table`: split by table needs the TiCDC workload's tables"),
        "{e}"
    );
}
