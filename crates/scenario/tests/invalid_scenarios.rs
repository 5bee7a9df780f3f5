//! Invalid scenarios give errors that name the file, the field and what is allowed.

use faultline_scenario::*;

const BASE: &str = r#"
name = "t"
seed = 1
duration = "1m"
[topology]
stores = 3
regions = 4
"#;

fn err(extra: &str) -> String {
    let text = format!("{BASE}{extra}");
    parse_scenario("bad.toml", &text).unwrap_err().to_string()
}

#[test]
fn unknown_fault_target_lists_the_nodes() {
    let e = err("[[faults]]\nat = \"10s\"\naction = \"kill\"\ntarget = \"tikv-1\"\n[[faults]]\nat = \"10s\"\naction = \"kill\"\ntarget = \"tikv-2\"\n[[faults]]\nat = \"20s\"\naction = \"kill\"\ntarget = \"tikv-9\"\n");
    assert_eq!(
        e,
        "bad.toml: `faults[2].target`: no node named `tikv-9`; nodes are pd-1, tikv-1..tikv-3"
    );
}

#[test]
fn sizes_state_their_limit() {
    let text = BASE.replace("regions = 4", "regions = 5000000");
    let e = parse_scenario("big.toml", &text).unwrap_err().to_string();
    assert!(
        e.contains("big.toml: `topology.regions`: 5000000 is out of range; allowed 1..=300000"),
        "{e}"
    );
    let e = err("[workload]\nwrites_per_sec = 999999999\n");
    assert!(
        e.contains("`workload.writes_per_sec`: 999999999 is out of range; allowed 0..=100000"),
        "{e}"
    );
    let long = BASE.replace("duration = \"1m\"", "duration = \"1000h\"");
    let e = parse_scenario("long.toml", &long).unwrap_err().to_string();
    assert!(
        e.contains("`duration`: 1000h is out of range; allowed 1s..=24h"),
        "{e}"
    );
    let huge = format!("{BASE}#{}", "x".repeat(limits::MAX_SOURCE_BYTES));
    let e = parse_scenario("huge.toml", &huge).unwrap_err().to_string();
    assert!(e.contains("the limit is 1048576 bytes"), "{e}");
}

#[test]
fn syntax_and_type_errors_have_positions() {
    let e = parse_scenario("syn.toml", "name = \"x\"\nduration = \n").unwrap_err();
    assert!(matches!(e, ScenarioError::Syntax { line: 2, .. }), "{e:?}");
    let e = parse_scenario("unit.toml", "name = \"x\"\nduration = 60\n")
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("unit.toml:2:"), "{e}");
    assert!(e.contains("has no unit"), "{e}");
    let e = err("[toggles]\n\"tikv.unreachable_broadcast\" = \"sometimes\"\n");
    assert!(
        e.contains("once_per_disconnect") && e.contains("repeat_if_new_messages"),
        "{e}"
    );
    let e = err("[network]\ndelay_mn = \"1ms\"\n");
    assert!(e.contains("delay_mn") && e.contains("delay_min"), "{e}");
}

#[test]
fn fault_fields_must_fit_the_action() {
    let e = err("[[faults]]\nat = \"10s\"\naction = \"loss\"\ntarget = \"tikv-1\"\n");
    assert!(
        e.contains("`faults[0].loss_percent`: a loss fault needs loss_percent, 1..=100"),
        "{e}"
    );
    let e = err(
        "[[faults]]\nat = \"10s\"\naction = \"restart\"\ntarget = \"tikv-1\"\nduration = \"5s\"\n",
    );
    assert!(
        e.contains("`faults[0].duration`: restart cannot be undone"),
        "{e}"
    );
    let e = err("[[faults]]\nat = \"2m\"\naction = \"kill\"\ntarget = \"tikv-1\"\n");
    assert!(
        e.contains("`faults[0].at`: 2m is after the end of the run (1m)"),
        "{e}"
    );
}

#[test]
fn every_problem_is_reported_at_once() {
    let text = BASE
        .replace("stores = 3", "stores = 0")
        .replace("name = \"t\"", "name = \"\"");
    let e = parse_scenario("two.toml", &text).unwrap_err();
    let fields: Vec<&str> = e.problems().iter().map(|p| p.field.as_str()).collect();
    assert!(
        fields.contains(&"name") && fields.contains(&"topology.stores"),
        "{fields:?}"
    );
}

#[test]
fn unknown_metric_in_expectation_is_named() {
    let s = parse_scenario(
        "m.toml",
        &format!("{BASE}[[expect]]\nmetric = \"nope\"\nop = \">\"\nvalue = 1\n"),
    )
    .unwrap();
    let e = Run::new(&s)
        .err()
        .expect("unknown metric must be rejected")
        .to_string();
    assert!(
        e.contains("`expect[0].metric`: no metric named `nope`; metrics are"),
        "{e}"
    );
}

#[test]
fn overrides_are_validated_too() {
    let e = parse_with_overrides("o.toml", BASE, &["topology.stores=99".into()])
        .unwrap_err()
        .to_string();
    assert!(e.contains("`topology.stores`: 99 is out of range"), "{e}");
    let s = parse_with_overrides("o.toml", BASE, &["seed=5".into()]).unwrap();
    assert_eq!(s.seed, 5);
}

#[test]
fn shipped_scenarios_all_parse() {
    assert_eq!(
        gallery().len(),
        SHIPPED.len(),
        "a shipped scenario failed to parse"
    );
    for (file, text) in SHIPPED {
        let s = parse_scenario(file, text).unwrap_or_else(|e| panic!("{e}"));
        Run::new(&s).unwrap_or_else(|e| panic!("{file}: {e}"));
    }
    default_scenario();
}

/// issue 16 item 2: the replica limit is the model's own (`Cluster::new` asserts at most
/// `raft::MAX_REPLICAS`), so a scenario the validator passes always builds.
#[test]
fn replicas_beyond_the_model_limit_are_rejected() {
    let text = BASE.replace("stores = 3", "stores = 6\nreplicas = 6");
    let e = parse_scenario("r.toml", &text).unwrap_err().to_string();
    assert_eq!(
        e,
        "r.toml: `topology.replicas`: 6 is out of range; allowed 1..=5"
    );
    let five = BASE.replace("stores = 3", "stores = 6\nreplicas = 5");
    let s = parse_scenario("r.toml", &five).expect("5 replicas on 6 stores is valid");
    Run::new(&s).expect("and builds");
}

/// issue 16 item 5: counts that do not fit, or are negative, name the field and the range.
#[test]
fn huge_and_negative_counts_name_the_field_and_range() {
    for (value, shown) in [("1000000000000", "1000000000000"), ("-5", "-5")] {
        let text = BASE.replace("regions = 4", &format!("regions = {value}"));
        let e = parse_scenario("n.toml", &text).unwrap_err().to_string();
        assert_eq!(
            e,
            format!("n.toml: `topology.regions`: {shown} is out of range; allowed 1..=300000")
        );
    }
}

/// issue 16 item 5: several unreadable values in knob sections are all reported, together
/// with the validation problems.
#[test]
fn several_bad_durations_are_reported_at_once() {
    let e = err("[raft]\nbase_tick = 5\n[cdc]\nowner_tick = \"10 parsecs\"\nkafka_partitions = -1\n[pd]\nstore_heartbeat = \"0s\"\n");
    let mut fields: Vec<&str> = e
        .lines()
        .map(|l| l.split('`').nth(1).unwrap_or(""))
        .collect();
    fields.sort();
    assert_eq!(
        fields,
        [
            "cdc.kafka_partitions",
            "cdc.owner_tick",
            "pd.store_heartbeat",
            "raft.base_tick",
        ],
        "{e}"
    );
    assert!(
        e.contains("`raft.base_tick`: a bare number (5) has no unit"),
        "{e}"
    );
    assert!(
        e.contains("`cdc.kafka_partitions`: -1 is out of range; allowed 1..=64"),
        "{e}"
    );
}

/// issue 16 item 6: a node listed twice in a target, and two expectations of one name.
#[test]
fn silent_duplicates_are_rejected() {
    let e = err("[[faults]]\nat = \"1s\"\naction = \"kill\"\ntarget = \"tikv-1,tikv-1\"\n");
    assert_eq!(
        e,
        "bad.toml: `faults[0].target`: `tikv-1` is selected twice; name each node once (`tikv-1` repeats it)"
    );
    let e = err("[[faults]]\nat = \"1s\"\naction = \"partition\"\ntarget = \"tikv-1\"\npeers = \"tikv-*,tikv-2\"\n");
    assert!(
        e.contains("`faults[0].peers`: `tikv-2` is selected twice"),
        "{e}"
    );
    let check = "metric = \"leaderless_regions\"\nop = \"==\"\nvalue = 0\n";
    let e = err(&format!(
        "[[expect]]\nname = \"ok\"\n{check}[[expect]]\nname = \"ok\"\n{check}"
    ));
    assert_eq!(
        e,
        "bad.toml: `expect[1].name`: `ok` is already the name of expect[0]; names must be unique"
    );
}

/// issue 16 item 4: control characters in names are rejected with the field named; prose
/// keeps line breaks and tabs only.
#[test]
fn control_characters_are_rejected_in_names() {
    let cases = [
        ("name = \"t\"", "name = \"t\\u001b]0;pwned\\u0007\"", "name"),
        ("seed = 1", "seed = 1\nissue = \"a\\rb\"", "issue"),
        (
            "seed = 1",
            "seed = 1\ndescription = \"ok\\n\\tfine\\u001b[2J\"",
            "description",
        ),
    ];
    for (from, to, field) in cases {
        let e = parse_scenario("c.toml", &BASE.replace(from, to))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with(&format!(
                "c.toml: `{field}`: contains the control character U+"
            )),
            "{e}"
        );
        assert!(
            !e.contains('\u{1b}') && !e.contains('\r'),
            "the message echoes it: {e:?}"
        );
    }
    let e = err("[[expect]]\nname = \"a\\nb\"\nmetric = \"x\"\nop = \">\"\nvalue = 1\n[[guide]]\nat = \"1s\"\ncaption = \"x\\u0008\"\n[[faults]]\nat = \"1s\"\naction = \"kill\"\ntarget = \"tikv-1\\u001b\"\n");
    for field in ["expect[0].name", "guide[0].caption", "faults[0].target"] {
        assert!(
            e.contains(&format!("`{field}`: contains the control character")),
            "{e}"
        );
    }
    let prose = BASE.replace(
        "seed = 1",
        "seed = 1\ndescription = \"line one\\n\\tline two\"",
    );
    parse_scenario("p.toml", &prose).expect("newlines and tabs are fine in a description");
}

#[test]
fn transfer_leader_needs_one_store_and_one_of_region_or_from() {
    let step = |fields: &str| {
        err(&format!(
            "[[faults]]\nat = \"10s\"\naction = \"transfer_leader\"\n{fields}\n"
        ))
    };
    let e = step("target = \"tikv-2\"");
    assert!(
        e.contains("`faults[0].region`: transfer_leader needs region (one region's leader) or from (a store's leaders)"),
        "{e}"
    );
    let e = step("target = \"tikv-2\"\nregion = 1\nfrom = \"tikv-1\"");
    assert!(
        e.contains("`faults[0].from`: transfer_leader takes region or from, not both"),
        "{e}"
    );
    let e = step("target = \"tikv-*\"\nregion = 1");
    assert!(
        e.contains("`faults[0].target`: transfer_leader takes one TiKV store here, e.g. `tikv-2`"),
        "{e}"
    );
    let e = step("target = \"tikv-2\"\nregion = 4");
    assert!(
        e.contains("`faults[0].region`: 4 is out of range; regions are numbered 0..=3"),
        "{e}"
    );
    let e = step("target = \"tikv-2\"\nfrom = \"tikv-2\"");
    assert!(
        e.contains("`faults[0].from`: from and target are the same store"),
        "{e}"
    );
    let e = step("target = \"tikv-2\"\nfrom = \"pd-1\"");
    assert!(
        e.contains("`faults[0].from`: transfer_leader takes one TiKV store"),
        "{e}"
    );
    let e = err("[[faults]]\nat = \"10s\"\naction = \"kill\"\ntarget = \"tikv-1\"\nregion = 2\n");
    assert!(
        e.contains("`faults[0].region`: only transfer_leader and split take region, not kill"),
        "{e}"
    );
}

#[test]
fn add_store_takes_only_stores_that_wait_to_join() {
    let e = err("[[faults]]\nat = \"10s\"\naction = \"add_store\"\ntarget = \"tikv-3\"\n");
    assert!(
        e.contains("`faults[0].target`: add_store needs a store that can join: set topology.max_stores above topology.stores (3), then target tikv-4"),
        "{e}"
    );
    let elastic = BASE.replace("regions = 4", "regions = 4\nmax_stores = 5");
    let text = format!(
        "{elastic}[[faults]]\nat = \"10s\"\naction = \"add_store\"\ntarget = \"tikv-2,tikv-4\"\n"
    );
    let e = parse_scenario("bad.toml", &text).unwrap_err().to_string();
    assert!(
        e.contains("add_store takes the stores that wait to join, tikv-4..tikv-5"),
        "{e}"
    );
    let text = format!(
        "{elastic}[[faults]]\nat = \"10s\"\naction = \"add_store\"\ntarget = \"tikv-4,tikv-5\"\n"
    );
    assert!(parse_scenario("ok.toml", &text).is_ok());
    let e = err("[[faults]]\nat = \"10s\"\naction = \"remove_store\"\ntarget = \"cdc-1\"\n");
    assert!(e.contains("no node named `cdc-1`"), "{e}");
}

#[test]
fn max_stores_is_zero_or_at_least_the_starting_stores() {
    let text = BASE.replace("regions = 4", "regions = 4\nmax_stores = 2");
    let e = parse_scenario("bad.toml", &text).unwrap_err().to_string();
    assert!(
        e.contains("`topology.max_stores`: 2 is below topology.stores (3); give 0 (no store joins) or 3..=16"),
        "{e}"
    );
    let text = BASE.replace("regions = 4", "regions = 4\nmax_stores = 99");
    let e = parse_scenario("bad.toml", &text).unwrap_err().to_string();
    assert!(
        e.contains("`topology.max_stores`: 99 is out of range; allowed 0..=16"),
        "{e}"
    );
}

#[test]
fn a_duration_is_refused_where_nothing_undoes_the_step() {
    let e = err("[[faults]]\nat = \"10s\"\naction = \"transfer_leader\"\ntarget = \"tikv-2\"\nregion = 1\nduration = \"5s\"\n");
    assert!(
        e.contains("`faults[0].duration`: transfer_leader cannot be undone after a duration; only kill, pause, partition, loss, delay, pause_changefeed, remove_capture and evict_leader can"),
        "{e}"
    );
}
