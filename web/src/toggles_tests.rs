use super::*;
use faultline_scenario::{default_scenario, gallery, reference, Run, Verdict};

#[test]
fn issue_links() {
    assert_eq!(
        issue_url("tikv/tikv#14547").as_deref(),
        Some("https://github.com/tikv/tikv/issues/14547")
    );
    assert_eq!(
        issue_url("tiflow#9595").as_deref(),
        Some("https://github.com/pingcap/tiflow/issues/9595")
    );
    assert_eq!(issue_url("nonsense"), None);
}

#[test]
fn every_toggle_flips_its_own_key_and_round_trips() {
    let base = default_scenario();
    for (t, info) in TOGGLES.iter().enumerate() {
        let mut s = base.clone();
        let was = toggle_is_buggy(&s, t);
        set_toggle_buggy(&mut s, t, !was);
        assert_eq!(toggle_is_buggy(&s, t), !was, "{}", info.key);
        for other in (0..TOGGLES.len()).filter(|&o| o != t) {
            assert_eq!(
                toggle_is_buggy(&s, other),
                toggle_is_buggy(&base, other),
                "flipping {} changed {}",
                info.key,
                TOGGLES[other].key
            );
        }
        let value = toggle_value(&s, t);
        let side = if was {
            TOGGLES[t].values.1
        } else {
            TOGGLES[t].values.0
        };
        assert_eq!(value, side, "{}", TOGGLES[t].key);
    }
}

#[test]
fn the_list_names_every_toggle_the_reference_documents() {
    let documented: Vec<String> = reference::documented_keys()
        .into_iter()
        .filter_map(|k| {
            k.strip_prefix("toggles.")
                .map(|k| k.trim_matches('"').to_string())
        })
        .collect();
    let listed: Vec<&str> = TOGGLES.iter().map(|t| t.key).collect();
    assert_eq!(documented, listed);
    for (bug, info) in BUGS.iter().enumerate() {
        assert!(
            toggles_of(bug).next().is_some(),
            "{} has no toggle",
            info.issue
        );
    }
}

/// The gallery scenario about `bug` (its buggy one, not the `-fixed` twin).
fn scenario_about(bug: usize) -> Scenario {
    gallery()
        .into_iter()
        .find(|g| {
            !g.file.contains("fixed")
                && primary_toggle(&g.scenario) == bug
                && is_buggy(&g.scenario, bug)
        })
        .map(|g| g.scenario)
        .unwrap_or_else(|| panic!("no gallery scenario for {}", BUGS[bug].issue))
}

fn run_to_end(s: &Scenario) -> (u64, Vec<Verdict>) {
    let mut run = Run::new(s).expect("gallery scenario runs");
    run.run_to_end();
    let verdicts = run.evaluate().into_iter().map(|e| e.verdict).collect();
    (run.trace_hash(), verdicts)
}

#[test]
fn compare_twins_differ_for_each_reproduced_bug_and_match_where_the_model_says_not() {
    for (bug, info) in BUGS.iter().enumerate() {
        let s = scenario_about(bug);
        let twin = flipped(&s, bug);
        assert!(!is_buggy(&twin, bug), "{}: twin still buggy", info.issue);
        for t in toggles_of(bug) {
            assert_ne!(
                toggle_value(&s, t),
                toggle_value(&twin, t),
                "{}",
                TOGGLES[t].key
            );
        }
        let (hash, verdicts) = run_to_end(&s);
        let (twin_hash, twin_verdicts) = run_to_end(&twin);
        if info.not_reproduced.is_some() {
            // Compare mode tells the user both runs are the same run: they must be, event for
            // event, log line for log line and sample for sample (the trace hash covers all).
            assert_eq!(verdicts, twin_verdicts, "{}", info.issue);
            assert_eq!(hash, twin_hash, "{}: the notice says one run", info.issue);
            continue;
        }
        assert_ne!(hash, twin_hash, "{}: same run under two labels", info.issue);
        assert!(
            verdicts.iter().all(|v| *v == Verdict::Pass),
            "{}",
            info.issue
        );
        assert!(
            twin_verdicts.contains(&Verdict::Fail),
            "{}: the fixed twin shows the same symptom",
            info.issue
        );
    }
}

#[test]
fn a_partly_buggy_scenario_compares_against_the_wholly_fixed_one() {
    let mut s = default_scenario();
    set_buggy(&mut s, 2, false);
    set_toggle_buggy(&mut s, 4, true);
    assert!(is_buggy(&s, 2));
    let twin = flipped(&s, 2);
    assert!(toggles_of(2).all(|t| !toggle_is_buggy(&twin, t)));
}

#[test]
fn the_sink_close_toggle_offers_the_unmerged_closing_state_design_as_a_fixed_value() {
    let t = TOGGLES
        .iter()
        .position(|i| i.key == "cdc.sink_close")
        .expect("listed");
    let mut s = default_scenario();
    for (value, _) in TOGGLES[t].other_fixed {
        assert!(set_toggle_fixed_as(&mut s, t, value), "{value}");
        assert_eq!(toggle_value(&s, t), *value);
        assert!(!toggle_is_buggy(&s, t), "{value} is a fixed side");
        let twin = flipped(&s, TOGGLES[t].bug);
        assert_eq!(
            toggle_value(&twin, t),
            TOGGLES[t].values.0,
            "compare's buggy twin"
        );
    }
    assert!(set_toggle_fixed_as(&mut s, t, "async"));
    assert_eq!(s.toggles.cdc_sink_close, SinkClose::Async);
    assert!(!set_toggle_fixed_as(&mut s, t, "sometimes"));
}
