//! What each tab of the views panel shows, one function per tab. In compare mode the runs
//! stand side by side, buggy on the left: one chart per run on shared axes, two region maps
//! and two heatmaps drawn at the same size with the same colours.

use std::rc::Rc;

use faultline_sim::SimTime;
use yew::prelude::*;

use crate::engine::{CdcViews, ViewData, ViewTab};
use crate::playground::Action;
use crate::view_model::chart_order::place_charts;
use crate::view_model::small_multiples::{per_run, run_count};
use crate::view_model::{ChartData, HeatmapVm, RegionDetailVm, RegionMapVm};
use crate::views::*;

/// What the tab bodies need from the panel.
pub struct BodyContext {
    /// Where actions go.
    pub on_action: Callback<Action>,
    /// The selected region (region map, heatmap and blame select it).
    pub region: UseStateHandle<Option<u32>>,
    /// The space-time diagram's nodes.
    pub chosen: UseStateHandle<Vec<String>>,
    /// The scenario's key metrics, drawn first at full width.
    pub key_metrics: Vec<String>,
    /// The metric the guide step at the cursor names.
    pub metric: Option<String>,
    /// The compare twin's region map, while compare mode is on.
    pub twin_map: Option<Rc<RegionMapVm>>,
}

impl BodyContext {
    fn on_jump(&self) -> Callback<SimTime> {
        let cb = self.on_action.clone();
        Callback::from(move |t: SimTime| cb.emit(Action::Seek(t)))
    }

    fn on_region(&self) -> Callback<u32> {
        let region = self.region.clone();
        Callback::from(move |r: u32| region.set(Some(r)))
    }
}

/// The open tab's body, or None while the engine's data is for another tab (it answers a
/// tab change within a frame).
pub fn tab_body(tab: ViewTab, data: &ViewData, ctx: &BodyContext) -> Option<Html> {
    let on_jump = ctx.on_jump();
    Some(match (tab, data) {
        (ViewTab::Charts, ViewData::Charts(charts)) => charts_body(charts, ctx),
        (
            ViewTab::Regions,
            ViewData::Regions {
                map,
                detail,
                heatmaps,
            },
        ) => regions_body(map, detail.clone(), heatmaps, ctx),
        (ViewTab::Log, ViewData::Log { log, messages }) => html! {
            <LogPanel log={ log.clone() } messages={ messages.clone() } on_jump={ on_jump } />
        },
        (
            ViewTab::SpaceTime,
            ViewData::SpaceTime {
                data,
                nodes,
                recording,
            },
        ) => {
            let chosen = ctx.chosen.clone();
            let on_select = Callback::from(move |n: Vec<String>| chosen.set(n));
            html! {
                <SpaceTime data={ data.clone() } nodes={ nodes.clone() } on_select_nodes={ on_select }
                           { on_jump } recording={ *recording } />
            }
        }
        (ViewTab::Blame, ViewData::Blame(data)) => {
            html! { <WatermarkBlame data={ data.clone() } on_select_region={ ctx.on_region() } /> }
        }
        // The check replays the downstream tables: only while paused, not every frame.
        (ViewTab::Consistency, ViewData::Consistency(None)) => {
            html! { <p class="hint">{ "Pause to run the consistency check at the cursor." }</p> }
        }
        (ViewTab::Consistency, ViewData::Consistency(Some(data))) => html! {
            <ConsistencyTable data={ data.clone() } { on_jump } />
        },
        (ViewTab::Cdc, ViewData::Cdc(views)) => cdc_body(views, on_jump),
        _ => return None,
    })
}

/// The charts, key metrics first; in compare mode each chart is a pair of plots.
fn charts_body(charts: &[Rc<ChartData>], ctx: &BodyContext) -> Html {
    let placed = place_charts(charts, &ctx.key_metrics, ctx.metric.as_deref());
    let on_jump = ctx.on_jump();
    html! {
        <div class="charts">
            { for placed.into_iter().map(|p| chart_or_pair(p.data, p.key, p.highlighted, &on_jump)) }
        </div>
    }
}

/// A chart of one run, or of compare mode's two runs as a pair of plots.
fn chart_or_pair(
    data: Rc<ChartData>,
    key: bool,
    highlighted: bool,
    on_jump: &Callback<SimTime>,
) -> Html {
    if run_count(&data) > 1 {
        return chart_pair(&data, key, highlighted, on_jump);
    }
    html! { <Chart { data } wide={ key } { highlighted } on_jump={ on_jump.clone() } /> }
}

/// One chart of compare mode as small multiples: a plot per run, side by side, same axes.
fn chart_pair(data: &ChartData, key: bool, highlighted: bool, on_jump: &Callback<SimTime>) -> Html {
    let mut runs = per_run(data);
    runs.sort_by_key(|(label, _)| label != "buggy");
    let class = classes!("run-pair", "chart-pair", key.then_some("wide"));
    html! {
        <div {class} data-chart-pair={ data.kind.id() }>
            { for runs.into_iter().map(|(label, chart)| html! {
                <Chart data={ Rc::new(chart) } run={ AttrValue::from(label) } {highlighted}
                       on_jump={ on_jump.clone() } />
            }) }
        </div>
    }
}

/// The region map (two in compare mode), the selected region, and each run's heatmap.
fn regions_body(
    map: &Rc<RegionMapVm>,
    detail: Option<RegionDetailVm>,
    heatmaps: &[(String, Rc<HeatmapVm>)],
    ctx: &BodyContext,
) -> Html {
    // A heatmap cell selects its region and moves the cursor to its time.
    let on_cell = {
        let (region, cb) = (ctx.region.clone(), ctx.on_action.clone());
        Callback::from(move |(r, t): (u32, SimTime)| {
            region.set(Some(r));
            cb.emit(Action::Seek(t));
        })
    };
    let label = |i: usize| heatmaps.get(i).map_or("run", |(l, _)| l.as_str());
    let maps = match &ctx.twin_map {
        Some(twin) => {
            let mut pair = [
                ("primary", label(0), map.clone()),
                ("twin", label(1), twin.clone()),
            ];
            pair.sort_by_key(|(_, side, _)| *side != "buggy");
            html! {
                <div class="run-pair" data-pair="region-maps">
                    { for pair.into_iter().map(|(which, side, map)| html! {
                        <div class={ classes!("run-col", side.to_string()) } data-map={ which } data-side={ side.to_string() }>
                            <h4>{ format!("Region map ({side})") }</h4>
                            <RegionMap { map } selected={ *ctx.region } on_select_region={ ctx.on_region() } min_css_px={ 240 } />
                        </div>
                    }) }
                </div>
            }
        }
        None => html! {
            <RegionMap map={ map.clone() } selected={ *ctx.region } on_select_region={ ctx.on_region() } />
        },
    };
    let mut ordered: Vec<_> = heatmaps.iter().collect();
    ordered.sort_by_key(|(run, _)| run != "buggy");
    html! {
        <div class="regions">
            { maps }
            <RegionDetailPanel { detail } />
            <div class={ classes!((ordered.len() > 1).then_some("run-pair")) } data-pair="heatmaps">
                { for ordered.into_iter().map(|(run, data)| html! {
                    <Heatmap data={ data.clone() } run={ AttrValue::from(run.clone()) } on_select={ on_cell.clone() } />
                }) }
            </div>
        </div>
    }
}

/// The TiCDC lifecycle: changefeeds, sink lanes, owner tick, and the capture sessions when
/// the run has them (tiflow#9344).
fn cdc_body(views: &CdcViews, on_jump: Callback<SimTime>) -> Html {
    let CdcViews {
        list,
        sink_lanes,
        owner_tick,
        sessions,
    } = views;
    html! {
        <div class="cdc-lifecycle">
            <ChangefeedList data={ list.clone() } />
            <StateLanes data={ sink_lanes.clone() } on_jump={ on_jump.clone() } />
            { chart_or_pair(owner_tick.clone(), false, false, &on_jump) }
            if let Some(s) = sessions {
                <StateLanes data={ s.owner.clone() } on_jump={ on_jump.clone() } />
                <StateLanes data={ s.tables.clone() } on_jump={ on_jump.clone() } />
                { chart_or_pair(s.writers.clone(), false, false, &on_jump) }
                { chart_or_pair(s.lease.clone(), false, false, &on_jump) }
            }
        </div>
    }
}
