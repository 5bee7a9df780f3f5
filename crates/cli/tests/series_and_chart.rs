//! `run --series` prints one row per step of simulated time, and `chart` writes an SVG with
//! the series in it.

mod common;

use common::{faultline, root, stderr, stdout};

const TIKV_14547: &str = "scenarios/tikv-14547-leaders-lost-after-store-failure.toml";

fn duration_secs(file: &str) -> u64 {
    let text = std::fs::read_to_string(root().join(file)).expect("shipped scenario");
    let s = faultline_scenario::parse_scenario(file, &text).expect("parses");
    s.duration.0 / 1_000_000
}

#[test]
fn series_csv_has_one_row_per_simulated_second() {
    let o = faultline(&["run", TIKV_14547, "--series", "leaderless_regions", "--csv"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("time_s,leaderless_regions"));
    let rows: Vec<(f64, f64)> = lines
        .map(|l| {
            let (t, v) = l.split_once(',').expect("two columns");
            (t.parse().expect("time"), v.parse().expect("value"))
        })
        .collect();
    let secs = duration_secs(TIKV_14547);
    assert_eq!(rows.len() as u64, secs, "one row per simulated second");
    assert!(rows.iter().enumerate().all(|(i, r)| r.0 == (i + 1) as f64));
    // The bug: regions lose their leader after the store fails and some never get it back.
    assert!(rows.iter().any(|r| r.1 > 0.0), "leaderless regions appear");
}

#[test]
fn series_json_and_every_step() {
    let o = faultline(&[
        "run",
        TIKV_14547,
        "--for",
        "2m",
        "--series",
        "leaderless_regions,hibernated_peers",
        "--every",
        "10s",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(v["times_s"].as_array().unwrap().len(), 12);
    assert_eq!(
        v["series"]["hibernated_peers"].as_array().unwrap().len(),
        12
    );
}

#[test]
fn unknown_series_and_for_past_the_end_are_refused() {
    let o = faultline(&["run", TIKV_14547, "--series", "no_such_metric"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no metric named `no_such_metric`"),
        "{}",
        stderr(&o)
    );
    let o = faultline(&["run", TIKV_14547, "--for", "1h"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("past the end of the run"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn every_finer_than_the_models_sampling_is_refused() {
    let o = faultline(&[
        "run",
        TIKV_14547,
        "--series",
        "leaderless_regions",
        "--every",
        "100ms",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    let err = stderr(&o);
    let interval = faultline_scenario::build::SAMPLE_EVERY;
    assert!(err.contains("--every 100ms is shorter than"), "{err}");
    assert!(
        err.contains(&format!("the smallest --every is {interval}")),
        "{err}"
    );
    assert!(stdout(&o).is_empty(), "no rows: {}", stdout(&o));
}

#[test]
fn streamed_csv_rows_equal_the_json_series() {
    let series = |format: &str| {
        let o = faultline(&[
            "run",
            TIKV_14547,
            "--for",
            "3m",
            "--series",
            "leaderless_regions,hibernated_peers",
            "--every",
            "7s",
            format,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    let json: serde_json::Value = serde_json::from_str(&series("--json")).expect("JSON");
    let csv = series("--csv");
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    let times = json["times_s"].as_array().unwrap();
    assert_eq!(rows.len(), times.len());
    for (i, row) in rows.iter().enumerate() {
        let cells: Vec<f64> = row.split(',').map(|c| c.parse().unwrap()).collect();
        let at = |name: &str| json["series"][name][i].as_f64().unwrap();
        assert_eq!(
            cells,
            [
                times[i].as_f64().unwrap(),
                at("leaderless_regions"),
                at("hibernated_peers")
            ]
        );
    }
}

#[test]
fn chart_writes_an_svg_with_the_series() {
    // A short scenario: the chart code is the same whatever the run's length.
    let scenario = "scenarios/raft-basics-kill-a-store.toml";
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("leaderless.svg");
    let out_arg = out.to_str().unwrap();
    let o = faultline(&[
        "chart",
        scenario,
        "--metric",
        "leaderless_regions",
        "-o",
        out_arg,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let svg = std::fs::read_to_string(&out).expect("written");
    let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let legend = doc
        .descendants()
        .any(|n| n.has_tag_name("text") && n.text().map(str::trim) == Some("leaderless_regions"));
    assert!(legend, "the series is named in the legend");
    let longest_line = doc
        .descendants()
        .filter(|n| n.has_tag_name("polyline"))
        .filter_map(|n| n.attribute("points"))
        .map(|p| p.split_whitespace().count())
        .max()
        .unwrap_or(0);
    assert!(
        longest_line > 50,
        "the series is drawn ({longest_line} points)"
    );

    let page_chart = dir.path().join("page.svg");
    let o = faultline(&[
        "chart",
        scenario,
        "--chart",
        "leaderless",
        "-o",
        page_chart.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let svg = std::fs::read_to_string(&page_chart).unwrap();
    assert!(svg.contains("Leaderless regions and hibernated peers"));
}
