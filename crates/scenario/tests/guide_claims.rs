//! A tour's captions are checked: each `[[guide]]` step's claims are evaluated at the step's
//! time, and the fields naming a step's view are validated with messages naming the field.

use faultline_scenario::*;

/// Three stores; tikv-1 dies at 30 s, so its regions are leaderless just after.
const KILL: &str = r#"
name = "kill"
seed = 1
duration = "40s"
[topology]
stores = 3
regions = 6
[hibernate]
enabled = false
[[faults]]
at = "30s"
action = "kill"
target = "tikv-1"
"#;

fn with(extra: &str) -> Scenario {
    parse_scenario("t.toml", &format!("{KILL}{extra}")).expect("valid")
}

fn err(extra: &str) -> String {
    parse_scenario("bad.toml", &format!("{KILL}{extra}"))
        .unwrap_err()
        .to_string()
}

const TWO_STEPS: &str = r#"
[[guide]]
at = "20s"
caption = "Every region has a leader."
[[guide.expect]]
name = "no region is leaderless"
metric = "leaderless_regions"
op = "=="
value = 0

[[guide]]
at = "30s"
caption = "tikv-1 dies: its regions have no leader."
[[guide.expect]]
metric = "leaderless_regions"
op = ">"
value = 0
"#;

fn claims_after_run(s: &Scenario) -> Vec<GuideClaimResult> {
    let mut run = Run::new(s).expect("runs");
    run.run_to_end();
    run.evaluate_guide()
}

#[test]
fn true_claims_pass_at_their_steps_time() {
    let got = claims_after_run(&with(TWO_STEPS));
    assert_eq!(got.len(), 2);
    assert_eq!((got[0].step, got[1].step), (0, 1));
    assert!(
        got.iter().all(|c| c.result.verdict == Verdict::Pass),
        "{got:?}"
    );
    assert_eq!(got[0].result.observed, Some(0.0));
    assert!(got[1].result.observed.unwrap() > 0.0);
    // The same claim as the first step's, at the end of the run, no longer holds: the step's
    // time, not the run's end, decides.
    assert_eq!(got[0].result.check, "leaderless_regions at 20s == 0");
}

#[test]
fn a_false_claim_fails_and_reports_what_was_observed() {
    let wrong = TWO_STEPS.replace("value = 0\n\n[[guide]]", "value = 3\n\n[[guide]]");
    let got = claims_after_run(&with(&wrong));
    assert_eq!(got[0].result.verdict, Verdict::Fail);
    assert_eq!(got[0].result.observed, Some(0.0));
    assert_eq!(got[0].result.name, "no region is leaderless");
    assert_eq!(got[1].result.verdict, Verdict::Pass);
}

#[test]
fn a_claim_ahead_of_the_cursor_is_pending() {
    let s = with(TWO_STEPS);
    let mut run = Run::new(&s).unwrap();
    run.run_until(Dur::secs(25).to_time());
    let got = run.evaluate_guide();
    assert_eq!(got[0].result.verdict, Verdict::Pass);
    assert_eq!(got[1].result.verdict, Verdict::Pending);
}

#[test]
fn claims_read_metrics_only_and_end_at_the_step() {
    let e = err("[[guide]]\nat = \"20s\"\ncaption = \"x\"\n[[guide.expect]]\nlog = \"leader\"\nop = \">\"\nvalue = 0\n");
    assert!(
        e.contains("`guide[0].expect[0].log`: a caption's claim reads a metric"),
        "{e}"
    );
    let e = err("[[guide]]\nat = \"20s\"\ncaption = \"x\"\n[[guide.expect]]\nmetric = \"leaderless_regions\"\nto = \"30s\"\nop = \">\"\nvalue = 0\n");
    assert!(e.contains("`guide[0].expect[0].to`: a caption's claim is evaluated at its step's `at` (20s); remove `to`"), "{e}");
    let e = err("[[guide]]\nat = \"20s\"\ncaption = \"x\"\n[[guide.expect]]\nmetric = \"leaderless_regions\"\nagg = \"max\"\nfrom = \"25s\"\nop = \">\"\nvalue = 0\n");
    assert!(
        e.contains("`guide[0].expect[0].from`: 25s is after the step's `at` (20s)"),
        "{e}"
    );
    let e =
        err("[[guide]]\nat = \"20s\"\ncaption = \"x\"\n[[guide.expect]]\nop = \">\"\nvalue = 0\n");
    assert!(
        e.contains("`guide[0].expect[0].metric`: say what to check"),
        "{e}"
    );
}

#[test]
fn unknown_metric_names_in_claims_views_and_key_metrics_are_named() {
    let s = with("[[guide]]\nat = \"20s\"\ncaption = \"x\"\nmetric = \"leaderles\"\n[[guide.expect]]\nmetric = \"nope\"\nop = \">\"\nvalue = 0\n[view]\nkey_metrics = [\"leaderless_regions\", \"wat\"]\n");
    let e = Run::new(&s).err().expect("unknown metrics").to_string();
    for field in [
        "guide[0].expect[0].metric`: no metric named `nope`",
        "guide[0].metric`: no metric named `leaderles`",
        "view.key_metrics[1]`: no metric named `wat`",
    ] {
        assert!(e.contains(field), "{field} in {e}");
    }
}

#[test]
fn view_fields_are_validated_with_the_allowed_values() {
    let e = err("[[guide]]\nat = \"20s\"\ncaption = \"x\"\ntab = \"graphs\"\n");
    assert!(e.contains("graphs"), "{e}");
    assert!(
        e.contains("charts") && e.contains("space-time") && e.contains("blame"),
        "{e}"
    );
    let e = err("[[guide]]\nat = \"20s\"\ncaption = \"x\"\nnode = \"tikv-9\"\n");
    assert!(
        e.contains("`guide[0].node`: no node named `tikv-9`; nodes are pd-1, tikv-1..tikv-3"),
        "{e}"
    );
    let e = err("[view]\nkey_metrics = [\"leaderless_regions\", \"leaderless_regions\"]\n");
    assert!(
        e.contains("`view.key_metrics[1]`: `leaderless_regions` is listed twice"),
        "{e}"
    );
}

#[test]
fn guide_views_and_claims_survive_a_share_link_and_toml() {
    let viewed = TWO_STEPS.replace(
        "its regions have no leader.\"\n",
        "its regions have no leader.\"\ntab = \"regions\"\nnode = \"tikv-1\"\nmetric = \"leaderless_regions\"\n",
    );
    let s = with(&format!(
        "{viewed}[view]\nkey_metrics = [\"leaderless_regions\"]\n"
    ));
    assert_eq!(s.guide[1].tab, Some(GuideTab::Regions));
    assert_eq!(s.view.key_metrics, vec!["leaderless_regions".to_string()]);
    assert_eq!(decode_link(&encode_link(&s)).unwrap(), s);
    assert_eq!(parse_scenario("again.toml", &to_toml(&s)).unwrap(), s);
}
