//! The views rendered to HTML natively (yew's server renderer) from real runs: the stable
//! attributes the browser tests and the shell rely on, and the content that matters.

use std::rc::Rc;

use yew::{BaseComponent, Callback, LocalServerRenderer};

use super::*;
use crate::view_model as vm;
use crate::view_model::tests::{run_at, QUORUM_LOST, TIFLOW_4241, TIFLOW_9595};

/// Renders a component to an HTML string on a current-thread runtime.
fn html<C: BaseComponent>(props: C::Properties) -> String {
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a current-thread runtime");
    let local = tokio::task::LocalSet::new();
    local.block_on(&rt, LocalServerRenderer::<C>::with_props(props).render())
}

#[test]
fn metrics_strip_has_a_data_metric_per_headline_value() {
    let run = run_at(TIFLOW_9595, 300);
    let out = html::<MetricsStrip>(MetricsStripProps {
        data: Rc::new(vm::metrics_strip(&run)),
        run: None,
    });
    for name in [
        "leaderless_regions",
        "longest_leaderless_secs",
        "hibernated_peers",
        "orphaned_regions",
        "checkpoint_lag.redo-cf",
    ] {
        assert!(
            out.contains(&format!("data-metric=\"{name}\"")),
            "{name}: {out}"
        );
    }
    assert!(
        out.contains("data-alert=\"true\""),
        "orphaned region is an alert"
    );
}

#[test]
fn blame_view_shows_the_orphaned_region_of_tiflow_9595() {
    let run = run_at(TIFLOW_9595, 300);
    let data = vm::blame(&run);
    let holder = data.checkpoint_holder(0).expect("a holder").clone();
    let out = html::<WatermarkBlame>(WatermarkBlameProps {
        data: Rc::new(data),
        on_select_region: Callback::noop(),
    });
    assert!(out.contains("data-changefeed=\"redo-cf\""));
    assert!(out.contains(&format!(
        "data-table=\"{}\" data-holds-checkpoint=\"true\"",
        holder.table
    )));
    assert!(out.contains(&format!("data-region=\"{}\"", holder.region.region)));
    assert!(out.contains("data-reason=\"orphaned\""), "{out}");
}

#[test]
fn expectations_panel_has_index_and_verdict_attributes() {
    let run = run_at(TIFLOW_9595, 300);
    let data = vm::expectations(&run);
    let out = html::<ExpectationsPanel>(ExpectationsPanelProps {
        data: Rc::new(data.clone()),
        on_jump: Callback::noop(),
        title: "Expectations".into(),
    });
    for r in &data.rows {
        assert!(out.contains(&format!(
            "data-expect-index=\"{}\" data-verdict=\"{}\"",
            r.index, r.verdict
        )));
    }
    let mut with_violation = data;
    with_violation.violation = Some(vm::expectations::ViolationRow {
        at_us: 61_000_000,
        message: "two leaders in term 7".into(),
    });
    let out = html::<ExpectationsPanel>(ExpectationsPanelProps {
        data: Rc::new(with_violation),
        on_jump: Callback::noop(),
        title: "Expectations".into(),
    });
    assert!(out.contains("data-violation-at=\"61000000\""));
    assert!(out.contains("jump to the moment"));
}

#[test]
fn region_views_render_legend_and_peers() {
    let run = run_at(QUORUM_LOST, 120);
    let map = vm::region_map(&run);
    let out = html::<RegionMap>(RegionMapProps {
        map: Rc::new(map),
        selected: Some(5),
        on_select_region: Callback::noop(),
        on_hover_region: Callback::noop(),
        min_css_px: 320,
    });
    assert!(out.contains("data-regions=\"256\""));
    assert!(out.contains("led by tikv-3"));
    assert!(out.contains("region-map-selected"));
    let (r, _) = run
        .world
        .model
        .tikv
        .leaderless_regions()
        .next()
        .expect("a leaderless region");
    let out = html::<RegionDetailPanel>(RegionDetailProps {
        detail: vm::region_detail(&run, r),
    });
    assert!(out.contains("data-leaderless=\"true\""), "{out}");
    assert!(out.contains("leaderless for"));
    assert_eq!(out.matches("data-group-state=").count(), 3);
    // Each peer's GroupState explains itself on hover, as does the column.
    let detail = vm::region_detail(&run, r).expect("in range");
    for p in &detail.peers {
        let hover = super::glossary::explain(&p.group_state).expect("a known state");
        assert!(
            out.contains(&format!("title=\"{hover}\"")),
            "{}: {out}",
            p.group_state
        );
    }
    let column = super::glossary::explain("GroupState").expect("explained");
    assert!(out.contains(column));
}

#[test]
fn log_consistency_chart_and_space_time_render() {
    let run = run_at(TIFLOW_9595, 300);
    let out = html::<LogPanel>(LogPanelProps {
        log: Rc::new(vm::log_vm(&run)),
        messages: Rc::new(vm::messages_vm(&run, u64::MAX)),
        on_jump: Callback::noop(),
        max_rows: 50,
    });
    assert!(
        out.contains("Redo meta has not changed for a long time"),
        "redo warning"
    );
    assert!(out.contains("data-filter=\"node\""));
    assert!(out.matches("<tr").count() <= 50);

    let out = html::<ConsistencyTable>(ConsistencyTableProps {
        data: Rc::new(vm::consistency(&run)),
        on_jump: Callback::noop(),
    });
    assert!(out.contains("data-changefeed=\"redo-cf\""));

    let runs = [vm::LabelledRun {
        label: "buggy",
        run: &run,
    }];
    let data = vm::chart_data(vm::ChartKind::CdcLag, &runs, None);
    let out = html::<Chart>(ChartProps {
        data: Rc::new(data),
        width: 640,
        height: 260,
        on_jump: Callback::noop(),
        wide: true,
        highlighted: true,
        run: Some("buggy".into()),
    });
    assert!(out.contains("data-chart=\"cdc-lag\""));
    assert!(out.contains("data-run=\"buggy\""), "{out}");
    // A key chart spans the panel and the guided one is highlighted.
    assert!(out.contains("class=\"view chart wide highlight\""), "{out}");
    assert!(out.contains("width=\"1280\""), "{out}");
    assert!(out.contains("checkpoint_lag.redo-cf"));

    let m = |sent: u64, from: &str, to: &str, label: &str| vm::log::MessageRow {
        sent_us: sent,
        delivered_us: sent + 2_000,
        from: from.into(),
        to: to.into(),
        label: label.into(),
    };
    let msgs = [
        m(500_000, "a", "b", "ping"),
        m(900_000, "b", "a", "pong"),
        m(900_000, "a", "c", "not drawn: c is not a lane"),
    ];
    let st = vm::space_time(&msgs, &["a".into(), "b".into()], 1_000_000, 1_000_000);
    let out = html::<SpaceTime>(SpaceTimeProps {
        data: Rc::new(st),
        nodes: vec!["a".into(), "b".into(), "c".into()],
        on_select_nodes: Callback::noop(),
        on_jump: Callback::noop(),
        recording: true,
        width: 400,
        height: 300,
    });
    assert_eq!(out.matches("class=\"arrow\"").count(), 2);
    assert!(out.contains("<title>a → b: ping"), "{out}");
}

#[test]
fn sink_lanes_and_changefeed_list_of_tiflow_4241() {
    let run = run_at(TIFLOW_4241, 180);
    let lanes = html::<StateLanes>(StateLanesProps {
        data: Rc::new(vm::sink_lanes(&run)),
        on_jump: Callback::noop(),
        width: 640,
    });
    assert!(lanes.contains("data-lanes=\"sink-state\""), "{lanes}");
    assert!(lanes.contains("data-lane=\"kafka-cf-1\""), "{lanes}");
    assert!(lanes.contains("data-state=\"closing\""), "{lanes}");
    let list = html::<ChangefeedList>(ChangefeedListProps {
        data: Rc::new(vm::changefeed_list(&run)),
    });
    assert!(
        list.contains("data-changefeed=\"mysql-cf\" data-state=\"normal\" data-sink=\"running\""),
        "{list}"
    );
}

#[test]
fn tiflow_9344_table_lanes_owner_and_double_write_links() {
    let run = run_at(crate::view_model::tests::TIFLOW_9344, 150);
    let lanes = vm::table_lanes(&run);
    assert_eq!(lanes.lanes.len(), 10, "one lane per table");
    let out = html::<StateLanes>(StateLanesProps {
        data: Rc::new(lanes),
        on_jump: Callback::noop(),
        width: 640,
    });
    assert!(out.contains("data-lanes=\"table-capture\""), "{out}");
    assert!(out.contains("data-highlight=\"double-write\""), "{out}");
    let owner = html::<StateLanes>(StateLanesProps {
        data: Rc::new(vm::owner_lane(&run)),
        on_jump: Callback::noop(),
        width: 640,
    });
    assert!(owner.contains("data-lane=\"owner\""), "{owner}");
    let data = vm::consistency(&run);
    let feed = &data.feeds[0];
    assert!(feed.differing > 0, "the buggy run ends inconsistent");
    assert!(
        feed.rows.iter().all(|r| r.double_write_at_us.is_some()),
        "{feed:?}"
    );
    let out = html::<ConsistencyTable>(ConsistencyTableProps {
        data: Rc::new(data),
        on_jump: Callback::noop(),
    });
    assert!(out.contains("data-double-write-at="), "{out}");
}
