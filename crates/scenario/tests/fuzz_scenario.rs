//! Property-based fuzzing of `parse_scenario`: no input panics or takes long, and whatever
//! parses round-trips through TOML export and the share link. cargo-fuzz runs the same checks
//! for longer: see docs/fuzzing.md.

mod fuzz_common;

use faultline_scenario::parse_scenario;
use fuzz_common::{
    assert_round_trips, check_scenario_text, mutate, mutate_lines, report_slow, seed_texts, Edit,
    LineEdit,
};
use proptest::prelude::*;

fn parse(text: &str) {
    report_slow("parse_scenario", || check_scenario_text(text));
}

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    prop::collection::vec((any::<u8>(), any::<usize>(), any::<u8>()), 1..6)
}

fn line_edits() -> impl Strategy<Value = Vec<LineEdit>> {
    prop::collection::vec((any::<u8>(), any::<usize>(), any::<usize>()), 1..5)
}

proptest! {
    #![proptest_config(fuzz_common::config(1000))]

    #[test]
    fn arbitrary_text(text in any::<String>()) {
        parse(&text);
    }

    #[test]
    fn toml_shaped_text(text in "(\\[{1,2}[a-z_.]{0,12}\\]{1,2}\n|[a-z_\"]{1,16} = (\"[0-9a-z*,.-]{0,8}\"|-?[0-9]{1,25}|true|\\[\\]|\\{\\})\n){0,12}") {
        parse(&text);
    }

    #[test]
    fn mutated_files_bytes(pick in any::<usize>(), edits in edits()) {
        let seeds = seed_texts();
        let text = &seeds[pick % seeds.len()];
        parse(&String::from_utf8_lossy(&mutate(text.as_bytes(), &edits)));
    }

    #[test]
    fn mutated_files_lines(pick in any::<usize>(), edits in line_edits()) {
        let seeds = seed_texts();
        parse(&mutate_lines(&seeds[pick % seeds.len()], &edits));
    }
}

#[test]
fn seed_files_parse_and_round_trip() {
    parse_scenario("rich.toml", fuzz_common::RICH).expect("RICH is valid");
    for s in fuzz_common::seed_scenarios() {
        assert_round_trips(s);
    }
}

#[test]
fn oversized_and_deeply_nested_inputs_fail_fast() {
    let big = format!("name = \"{}\"", "x".repeat(2 << 20));
    let deep_arrays = format!("x = {}{}", "[".repeat(100_000), "]".repeat(100_000));
    let deep_tables = format!("x = {}{}", "{a = ".repeat(50_000), "}".repeat(50_000));
    let many_faults = "name = \"n\"\nduration = \"1m\"\n".to_string()
        + &"[[faults]]\nat = \"1s\"\naction = \"kill\"\ntarget = \"tikv-1\"\n".repeat(20_000);
    for text in [big, deep_arrays, deep_tables, many_faults] {
        assert!(report_slow("parse_scenario", || parse_scenario("big.toml", &text)).is_err());
    }
}
