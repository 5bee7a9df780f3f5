//! The charts rendered to SVG natively: the same drawing code the browser runs on a canvas.

use faultline_sim::SimTime;

use super::render_svg;
use crate::chart_data::{chart_data, ChartData, ChartKind, LabelledRun, Series};
use crate::palette::series_colour;
use crate::test_support::{
    chart_at, run_at, QUORUM_LOST, SCALE_OUT_IN, TIFLOW_9595, TIFLOW_9595_FIXED, TIKV_14547,
};

/// `#RRGGBB` as plotters' SVG backend writes a colour.
fn hex(c: plotters::style::RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

#[test]
fn cdc_lag_overlays_two_runs_with_the_alert_lines_and_the_cursor() {
    let buggy = run_at(TIFLOW_9595, 300);
    let fixed = run_at(TIFLOW_9595_FIXED, 300);
    let runs = [
        LabelledRun {
            label: "buggy",
            run: &buggy,
        },
        LabelledRun {
            label: "fixed",
            run: &fixed,
        },
    ];
    let data = chart_data(ChartKind::CdcLag, &runs, Some(SimTime(300_000_000)));
    assert_eq!(data.series.len(), 4, "checkpoint and resolved lag per run");
    let svg = render_svg(&data, 800, 400).expect("renders");
    std::fs::write(std::env::temp_dir().join("faultline-cdc-lag.svg"), &svg).ok();
    for label in [
        "buggy: checkpoint_lag.redo-cf",
        "buggy: resolved_lag.redo-cf",
        "fixed: checkpoint_lag.redo-cf",
        "fixed: resolved_lag.redo-cf",
        "resolved-ts lag alert (300 s)",
        "checkpoint lag alert (600 s)",
        "Changefeed checkpoint and resolved-ts lag",
    ] {
        assert!(svg.contains(label), "{label} missing");
    }
    // The alert lines are drawn in the alert red; the first run's series are solid polylines
    // in their palette colour.
    assert!(svg.contains(&hex(super::ALERT)), "no alert-red stroke");
    assert!(svg.contains(&hex(super::CURSOR)), "no cursor line");
    for s in data.series.iter().filter(|s| s.run == 0) {
        let stroke = hex(series_colour(s.colour));
        assert!(
            svg.contains(&format!(
                "<polyline fill=\"none\" opacity=\"1\" stroke=\"{stroke}\""
            )),
            "{} is not drawn as a polyline in {stroke}",
            s.label
        );
    }
}

#[test]
fn a_store_state_series_never_takes_a_stores_colour() {
    let run = run_at(SCALE_OUT_IN, 60);
    let runs = [LabelledRun {
        label: "run",
        run: &run,
    }];
    let data = chart_data(ChartKind::Stores, &runs, Some(run.now()));
    let colour_of = |prefix: &str| -> Vec<usize> {
        data.series
            .iter()
            .filter(|s| s.metric.starts_with(prefix))
            .map(|s| s.colour % crate::palette::CYCLE_LEN)
            .collect()
    };
    let nodes = colour_of("replicas.tikv-");
    let states = colour_of("stores.");
    assert!(
        nodes.len() >= 4 && states.len() >= 2,
        "{nodes:?} {states:?}"
    );
    for c in &states {
        assert!(
            !nodes.contains(c),
            "a stores.* series shares colour {c} with a store"
        );
    }
    let mut distinct = states.clone();
    distinct.dedup();
    assert_eq!(
        distinct.len(),
        states.len(),
        "store states differ from each other"
    );
}

#[test]
fn leaderless_chart_puts_hibernated_peers_on_the_right_axis() {
    let run = run_at(TIKV_14547, 240);
    let runs = [LabelledRun {
        label: "buggy",
        run: &run,
    }];
    let data = chart_data(ChartKind::Leaderless, &runs, Some(run.now()));
    assert_eq!(data.y2_label.as_deref(), Some("hibernated peers"));
    let svg = render_svg(&data, 640, 320).expect("renders");
    assert!(svg.contains("leaderless_regions"));
    assert!(svg.contains("hibernated_peers"));
    assert!(svg.contains("hibernated peers"), "right axis label");
    assert!(!svg.contains("alert"), "no alert lines on the Raft chart");
}

#[test]
fn every_available_chart_renders_and_empty_ones_too() {
    let run = run_at(TIFLOW_9595, 300);
    let runs = [LabelledRun {
        label: "run",
        run: &run,
    }];
    for kind in crate::available_charts(&run) {
        let data = chart_data(kind, &runs, None);
        assert!(!data.is_empty(), "{kind:?}");
        let svg = render_svg(&data, 400, 240).expect("renders");
        assert!(svg.contains(&data.series[0].label), "{kind:?}");
    }
    let tikv_only = run_at(TIKV_14547, 240);
    let runs = [LabelledRun {
        label: "run",
        run: &tikv_only,
    }];
    let empty = chart_data(ChartKind::SinkRows, &runs, None);
    assert!(empty.is_empty());
    assert!(render_svg(&empty, 400, 240).is_ok());
}

#[test]
fn clicks_map_back_to_time() {
    let layout = super::ChartLayout {
        left_px: 60,
        right_px: 560,
        x_max_secs: 600.0,
    };
    assert_eq!(layout.secs_at(60), 0.0);
    assert_eq!(layout.secs_at(310), 300.0);
    assert_eq!(layout.secs_at(9_999), 600.0);
    assert_eq!(layout.secs_at(-5), 0.0);
}

/// The `y` of the first SVG `<text>` element containing `needle`.
fn text_y(svg: &str, needle: &str) -> f64 {
    let at = svg
        .find(needle)
        .unwrap_or_else(|| panic!("{needle} not drawn"));
    let start = svg[..at].rfind("<text").expect("inside a text element");
    let tag = &svg[start..at];
    let y = tag.split(" y=\"").nth(1).expect("a y attribute");
    y[..y.find('"').unwrap()].parse().expect("a number")
}

#[test]
fn the_legend_sits_below_the_plot_and_the_fault_moment_is_marked() {
    let run = run_at(TIKV_14547, 240);
    let runs = [LabelledRun {
        label: "run",
        run: &run,
    }];
    let data = chart_data(ChartKind::Leaderless, &runs, Some(run.now()));
    assert_eq!(data.faults.len(), 1);
    assert_eq!(data.faults[0].label, "kill tikv-1");
    assert_eq!(data.faults[0].secs, 60.0);
    let svg = render_svg(&data, 640, 320).expect("renders");
    std::fs::write(std::env::temp_dir().join("faultline-leaderless.svg"), &svg).ok();
    // The x axis description is the lowest text of the plot; the legend is under it.
    let axis = text_y(&svg, "\nsimulated time (s)\n");
    assert!(
        text_y(&svg, "\nleaderless_regions\n") > axis,
        "legend inside the plot"
    );
    assert!(
        text_y(&svg, "\nkill tikv-1\n") < axis,
        "fault label above the axis"
    );
    assert!(svg.contains(&hex(super::FAULT)), "no fault line");
}

#[test]
fn an_alert_far_above_the_data_leaves_the_axis_to_the_data() {
    // Two minutes of tiflow#9595-fixed: lag is about a second, the alerts are at 300 and 600 s.
    let run = run_at(TIFLOW_9595_FIXED, 50);
    let runs = [LabelledRun {
        label: "run",
        run: &run,
    }];
    let data = chart_data(ChartKind::CdcLag, &runs, None);
    let svg = render_svg(&data, 640, 320).expect("renders");
    assert!(
        svg.contains("checkpoint lag alert (600 s) (off scale)"),
        "{svg}"
    );
    let (y_max, off) = super::left_axis(&data);
    assert_eq!(off, vec![true, true]);
    assert!(
        y_max < 10.0,
        "the axis scales to a lag of seconds, not to 600: {y_max}"
    );
}

#[test]
fn a_node_has_the_same_colour_in_every_chart() {
    let run = run_at(TIKV_14547, 120);
    let runs = [LabelledRun {
        label: "run",
        run: &run,
    }];
    let leaders = chart_data(ChartKind::LeadersPerStore, &runs, None);
    let slot = |m: &str| {
        leaders
            .series
            .iter()
            .find(|s| s.metric == m)
            .map(|s| s.colour)
    };
    assert_eq!(slot("leaders.tikv-2"), crate::node_colour_slot("tikv-2"));
    assert_eq!(slot("leaders.tikv-4"), crate::node_colour_slot("tikv-4"));
    assert_ne!(slot("leaders.tikv-2"), slot("leaders.tikv-3"));
}

/// tikv#14547's leaderless chart at 6 min with the samples of its series `pick` set to a
/// ten-sample spike of `peak` over a level of `level`; returns the chart and that metric.
fn spiked_leaderless_chart(
    pick: impl Fn(&Series) -> bool,
    (level, peak): (f64, f64),
) -> (ChartData, String) {
    let run = run_at(TIKV_14547, 360);
    let runs = [LabelledRun {
        label: "run",
        run: &run,
    }];
    let mut data = chart_data(ChartKind::Leaderless, &runs, None);
    let series = data
        .series
        .iter_mut()
        .find(|s| pick(s))
        .expect("the chart has such a series");
    for (i, p) in series.points.iter_mut().enumerate() {
        p.1 = if (60..70).contains(&i) { peak } else { level };
    }
    let metric = series.metric.clone();
    (data, metric)
}

#[test]
fn a_brief_spike_is_cut_at_the_top_with_its_peak_written() {
    // The leaderless chart of a run whose store failure leaves 250 regions leaderless for ten
    // seconds and then 5 for minutes (no gallery run has that shape since the raft client
    // reports queued messages, so the samples are set here; `axis` decides from them alone).
    let leaderless = |s: &Series| s.metric == "leaderless_regions";
    let (data, _) = spiked_leaderless_chart(leaderless, (5.0, 250.0));
    let (y_max, _) = super::left_axis(&data);
    assert!(y_max < 20.0, "the axis shows the handful: {y_max}");
    let svg = render_svg(&data, 640, 320).expect("renders");
    assert!(
        svg.contains("leaderless_regions: peak 250 (off scale)"),
        "{svg}"
    );
}

/// The same on the right axis: the Writes chart puts the failed-request counters there, and
/// a counter far above the others (thousands of NotLeader beside a few hundred of the rest)
/// is cut at the top with its peak written, never drawn as if it were the axis's top value.
#[test]
fn a_right_axis_series_cut_at_the_top_has_its_peak_written() {
    let (data, metric) = spiked_leaderless_chart(|s| s.secondary, (40.0, 9000.0));
    let (_, y2) = crate::axis::extents(&data);
    assert!(y2 < 100.0, "the right axis shows the level: {y2}");
    let svg = render_svg(&data, 640, 320).expect("renders");
    assert!(
        svg.contains(&format!("{metric}: peak 9000 (off scale)")),
        "{svg}"
    );
}

#[test]
fn faults_at_one_moment_share_one_label() {
    // raft-quorum-lost-two-stores kills tikv-1 and tikv-2 at 30 s.
    let run = run_at(QUORUM_LOST, 40);
    let runs = [LabelledRun {
        label: "run",
        run: &run,
    }];
    let data = chart_data(ChartKind::Leaderless, &runs, Some(run.now()));
    let at_30: Vec<_> = data.faults.iter().filter(|f| f.secs == 30.0).collect();
    assert_eq!(at_30.len(), 1, "one mark at 30 s: {:?}", data.faults);
    assert_eq!(at_30[0].label, "kill tikv-1, kill tikv-2");
    let svg = render_svg(&data, 640, 320).expect("renders");
    assert_eq!(svg.matches("kill tikv-1, kill tikv-2").count(), 1);
}

#[test]
fn a_fault_label_that_would_overlap_the_one_before_drops_a_row() {
    let mark = |secs: f64, label: &str| crate::FaultMark {
        secs,
        label: label.to_string(),
    };
    let marks = [
        mark(30.0, "kill tikv-1"),
        mark(32.0, "partition tikv-2"),
        mark(34.0, "heal tikv-2"),
        mark(200.0, "restart tikv-1"),
    ];
    let refs: Vec<_> = marks.iter().collect();
    // 1 s per pixel: "kill tikv-1" is about 60 s wide, so the next two stack under it and the
    // mark at 200 s goes back to the top row.
    assert_eq!(super::fault_label_rows(&refs, 1.0), vec![0, 1, 2, 0]);
    // Zoomed out far enough, every label fits on the top row.
    assert_eq!(super::fault_label_rows(&refs, 0.01), vec![0, 0, 0, 0]);
}

/// A chart drawn phone-wide keeps its title whole in a smaller font and spaces its time
/// labels out; at the usual width nothing changes.
#[test]
fn a_narrow_chart_shrinks_a_long_title_and_thins_its_time_labels() {
    let data = chart_at(ChartKind::Writes, TIFLOW_9595, 90);
    let title = "Writes per second, and failed client requests so far (right)";
    assert_eq!(data.title, title);
    assert_eq!(super::caption_px(title, 1102), 15);
    assert_eq!(super::caption_px(title, 353), 10);
    assert_eq!(super::caption_px("Leaders per store", 353), 15);
    let ticks = |svg: &str| {
        (0..=900)
            .step_by(10)
            .filter(|t| svg.contains(&format!("\n{t}\n")))
            .count()
    };
    let wide = render_svg(&data, 1100, 260).expect("renders");
    let narrow = render_svg(&data, 353, 260).expect("renders");
    assert!(
        title_font(&narrow, title) < title_font(&wide, title) * 0.75,
        "the title shrunk to fit"
    );
    assert!(
        ticks(&narrow) < ticks(&wide),
        "{} time labels phone-wide, {} wide",
        ticks(&narrow),
        ticks(&wide)
    );
}

/// A low plot (a phone's) gets fewer y labels than the usual one, never under three.
#[test]
fn a_low_plot_gets_fewer_y_labels() {
    assert_eq!(super::y_label_count(220), 8);
    assert_eq!(super::y_label_count(150), 5);
    assert_eq!(super::y_label_count(40), 3);
}

/// On a narrow canvas the legend takes more rows; the canvas grows by them and the plot keeps
/// its height.
#[test]
fn a_narrow_chart_grows_by_its_legend_rows_and_keeps_its_plot() {
    let data = chart_at(ChartKind::Writes, TIFLOW_9595, 90);
    let (wide, narrow) = (
        super::canvas_height(&data, 1100, 220),
        super::canvas_height(&data, 353, 220),
    );
    assert!(
        wide > 220 && narrow > wide,
        "wide {wide} px, narrow {narrow} px"
    );
    let axis_at = |width, height| {
        let svg = render_svg(&data, width, height).expect("renders");
        text_y(&svg, "\nsimulated time (s)\n")
    };
    assert_eq!(axis_at(353, narrow), axis_at(1100, wide));
}

/// An exported chart's text is the size the page's canvas draws it at: plotters-svg divides
/// sizes by 1.24, and the SVG path asks for that much more.
#[test]
fn an_svg_chart_has_the_text_sizes_of_the_canvas() {
    let data = chart_at(ChartKind::Writes, TIKV_14547, 90);
    let svg = render_svg(&data, 900, 450).expect("renders");
    let title = title_font(&svg, "Writes per second");
    assert!((title - 15.0).abs() < 0.01, "title at {title} px");
    let axis = title_font(&svg, "simulated time (s)");
    assert!((axis - 12.0).abs() < 0.01, "axis description at {axis} px");
    let legend = title_font(&svg, "writes_applied_per_sec");
    assert!((legend - 11.0).abs() < 0.01, "legend at {legend} px");
}

/// The font size plotters' SVG backend gave the text `title`.
fn title_font(svg: &str, title: &str) -> f64 {
    let at = svg
        .find(&format!("\n{title}\n"))
        .expect("the title is drawn");
    let tag = &svg[svg[..at].rfind("<text").expect("in a text element")..at];
    let size = tag.split("font-size=\"").nth(1).expect("with a font size");
    size[..size.find('"').expect("quoted")]
        .parse()
        .expect("a number")
}
