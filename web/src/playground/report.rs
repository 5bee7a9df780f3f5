//! "Copy issue report": a Markdown text ready to paste into a GitHub issue.

use faultline_scenario::{Scenario, FAULTLINE_COMMIT, FAULTLINE_VERSION, MODEL_VERSION};
use faultline_sim::{format_hash, SimTime};

use super::toggles::{
    is_buggy, issue_url, toggle_is_buggy, toggle_value, toggles_of, BUGS, TOGGLES,
};
use crate::format;

/// What the report says about the run.
pub struct ReportInput<'a> {
    /// The scenario.
    pub scenario: &'a Scenario,
    /// The share URL (with the cursor).
    pub url: &'a str,
    /// Where the cursor is.
    pub cursor: SimTime,
    /// The trace hash at the cursor.
    pub trace_hash: u64,
    /// The expectations, evaluated at the cursor (as the engine reported them).
    pub results: &'a [crate::view_model::expectations::ExpectRow],
}

/// The Markdown report.
pub fn issue_report(r: &ReportInput<'_>) -> String {
    let s = r.scenario;
    let (story, details) = format::story(&s.description);
    let mut out = format!("## {}\n\n", s.name);
    if !story.is_empty() {
        out += &format!("{story}\n\n");
    }
    if !details.is_empty() {
        out += &format!("{details}\n\n");
    }
    out += &reproduce_section(r);
    out += &verdict_summary(r.results);
    if let Some(issue) = &s.issue {
        match issue_url(issue) {
            Some(u) => out += &format!("Models upstream issue [{issue}]({u}).\n\n"),
            None => out += &format!("Models upstream issue {issue}.\n\n"),
        }
    }
    out += &modelled_behaviour(s);
    out += &cluster_section(s);
    out += &fault_timeline(s);
    out += &expectation_list(r);
    out
}

/// How to replay the run (link, seed, cursor, hash) and which build made it.
fn reproduce_section(r: &ReportInput<'_>) -> String {
    format!(
        "**Reproduce:** [open in Faultline]({}) (seed {}, cursor at {}, trace hash `{}`)\n\n\
         **Built with:** Faultline {FAULTLINE_VERSION} (commit `{FAULTLINE_COMMIT}`), model \
         version {MODEL_VERSION}. The link checks itself: opening it replays the run and says \
         whether it reproduced (`faultline verify LINK` does the same).\n\n",
        r.url,
        r.scenario.seed,
        format::sim_time(r.cursor),
        format_hash(r.trace_hash)
    )
}

/// The cluster's size and load in one sentence.
fn cluster_section(s: &Scenario) -> String {
    format!(
        "\n### Cluster\n\n{} stores, {} regions x {} replicas, {} TiCDC captures, {} changefeeds; {} writes/s, {} txns/s; run length {}.\n",
        s.topology.stores,
        s.topology.regions,
        s.topology.replicas,
        s.topology.captures,
        s.changefeeds.len(),
        s.workload.writes_per_sec,
        s.workload.txns_per_sec,
        s.duration
    )
}

/// One line per fault, with every field the fault sets.
fn fault_timeline(s: &Scenario) -> String {
    let mut out = String::from("\n### Timeline of faults\n\n");
    if s.faults.is_empty() {
        out += "No faults.\n";
    }
    for f in &s.faults {
        let mut line = format!("- {} `{}` {}", f.at, f.action.name(), f.target);
        line += &link_words(f);
        if let Some(l) = f.loss_percent {
            line += &format!(", {l}% loss");
        }
        if let Some(d) = f.delay {
            line += &format!(", +{d}");
        }
        if let Some(from) = &f.from {
            line += &format!(", the leaders of {from}");
        }
        if let Some(r) = f.region {
            line += &format!(", region {r}");
        }
        line += &f.action.verb().report_words(f);
        if let Some(d) = f.duration {
            line += &format!(", for {d}");
        }
        out += &line;
        out += "\n";
    }
    out
}

/// Which way a network fault cuts: `<->` both ways, `->` from the target to its peers only
/// (`one_way`); peers left out are every other node.
fn link_words(f: &faultline_scenario::FaultSpec) -> String {
    let arrow = if f.one_way { "->" } else { "<->" };
    match (&f.peers, f.one_way) {
        (Some(p), _) => format!(" {arrow} {p}"),
        (None, true) => format!(" {arrow} every other node"),
        (None, false) => String::new(),
    }
}

/// Each expectation's verdict at the cursor, failures in capitals so they stand out.
fn expectation_list(r: &ReportInput<'_>) -> String {
    let mut out = format!("\n### Expectations (at {})\n\n", format::sim_time(r.cursor));
    if r.results.is_empty() {
        out += "None.\n";
    }
    for e in r.results {
        let verdict = match e.verdict.as_str() {
            "pass" => "pass",
            "fail" => "FAIL",
            _ => "pending",
        };
        let observed = e
            .observed
            .map(|v| format!(" (observed {v})"))
            .unwrap_or_default();
        out += &format!("- **{verdict}** {}: `{}`{observed}\n", e.name, e.check);
    }
    out
}

/// Every toggle with its value, grouped under the bug it belongs to, so a reader sees which
/// side of each bug the run was on (a bug is present when any of its toggles is buggy).
fn modelled_behaviour(s: &Scenario) -> String {
    let mut out = String::from("### Modelled behaviour\n\n");
    for (b, bug) in BUGS.iter().enumerate() {
        let state = if is_buggy(s, b) { "present" } else { "fixed" };
        let link = issue_url(bug.issue).unwrap_or_default();
        out += &format!("- [{}]({link}) ({}): **{state}**\n", bug.issue, bug.symptom);
        for t in toggles_of(b) {
            let info = &TOGGLES[t];
            let (side, text) = if toggle_is_buggy(s, t) {
                ("buggy", info.buggy)
            } else {
                ("fixed", info.fixed)
            };
            out += &format!(
                "  - `{}` = `{}` ({side}): {text}\n",
                info.key,
                toggle_value(s, t)
            );
        }
    }
    out
}

/// `**Verdicts:** 2 pass, 1 FAIL, 0 pending`, so the outcome reads before the details.
fn verdict_summary(results: &[crate::view_model::expectations::ExpectRow]) -> String {
    let count = |v: &str| results.iter().filter(|e| e.verdict == v).count();
    let (pass, fail) = (count("pass"), count("fail"));
    format!(
        "**Verdicts:** {pass} pass, {fail} FAIL, {} pending\n\n",
        results.len() - pass - fail
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use faultline_scenario::{default_scenario, Run};

    #[test]
    fn report_names_the_link_toggles_faults_and_expectations() {
        let s = default_scenario();
        let run = Run::new(&s).unwrap();
        let results = crate::view_model::expectations(&run).rows;
        let text = issue_report(&ReportInput {
            scenario: &s,
            url: "http://x/#v1.abc",
            cursor: SimTime(0),
            trace_hash: 1,
            results: &results,
        });
        assert!(text.contains("http://x/#v1.abc"));
        assert!(text.contains("tikv.unreachable_broadcast"));
        assert!(text.contains("buggy"));
        assert!(text.contains("kill"));
        assert!(text.contains("https://github.com/tikv/tikv/issues/14547"));
        assert!(text.contains(&format!("model version {MODEL_VERSION}")));
        assert!(text.contains(&format!(
            "Faultline {FAULTLINE_VERSION} (commit `{FAULTLINE_COMMIT}`)"
        )));
        let pending = format!("**Verdicts:** 0 pass, 0 FAIL, {} pending", s.expect.len());
        assert!(s.expect.len() > 1, "the default scenario has expectations");
        assert!(text.contains(&pending), "{text}");
    }

    #[test]
    fn report_lists_every_toggle_with_its_value_and_bug() {
        let s = faultline_scenario::gallery()
            .into_iter()
            .find(|g| g.file == "tiflow-9344-double-write-after-cdc-network-loss.toml")
            .expect("shipped")
            .scenario;
        let text = issue_report(&ReportInput {
            scenario: &s,
            url: "u",
            cursor: SimTime(0),
            trace_hash: 1,
            results: &[],
        });
        for t in TOGGLES {
            assert!(
                text.contains(&format!("`{}`", t.key)),
                "{} missing:\n{text}",
                t.key
            );
        }
        assert!(
            text.contains("`cdc.processor_close_on_session_loss` = `deferred` (buggy)"),
            "{text}"
        );
        assert!(
            text.contains("`cdc.capture_remove_delay` = `0s` (buggy)"),
            "{text}"
        );
        assert!(
            text.contains("`cdc.sink_close` = `async` (fixed)"),
            "{text}"
        );
        assert!(
            text.contains("(double write after a capture's network loss): **present**"),
            "{text}"
        );
        assert!(
            text.contains("(a dying Kafka sink blocks the owner): **fixed**"),
            "{text}"
        );
    }

    /// A one-way fault reads as one: `->` from the target, never `<->`.
    #[test]
    fn a_one_way_fault_is_written_with_a_one_way_arrow() {
        let mut f = faultline_scenario::FaultSpec::new(
            faultline_scenario::Dur::secs(5),
            faultline_scenario::FaultAction::Partition,
            "tikv-1",
        );
        f.peers = Some("tikv-2,tikv-3".into());
        assert_eq!(link_words(&f), " <-> tikv-2,tikv-3");
        f.one_way = true;
        assert_eq!(link_words(&f), " -> tikv-2,tikv-3");
        f.peers = None;
        assert_eq!(link_words(&f), " -> every other node");
        f.one_way = false;
        assert_eq!(link_words(&f), "");
    }

    /// A split names its region and how many it becomes (its target is always PD).
    #[test]
    fn report_says_which_region_splits_into_how_many() {
        let s = faultline_scenario::gallery()
            .into_iter()
            .find(|g| g.file == "raft-region-split.toml")
            .expect("shipped")
            .scenario;
        let text = fault_timeline(&s);
        assert!(
            text.contains("- 20s `split` pd-1, region 5, into 4 regions"),
            "{text}"
        );
    }
}
