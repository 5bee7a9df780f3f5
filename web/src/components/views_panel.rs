//! The data views (built by `crate::views`), wired to the time cursor: charts (overlaid in
//! compare mode), region map with detail, event/message log, space-time diagram, watermark
//! blame, consistency table, the TiCDC lifecycle (changefeed list, sink state lanes, owner
//! tick), and the live expectations with violations. The engine computes only the open
//! tab's data (the panel tells it which tab and parameters), so playing stays cheap.

use faultline_sim::SimTime;
use yew::prelude::*;

use super::PanelProps;
use crate::engine::{CdcViews, ViewData, ViewRequest, ViewTab};
use crate::playground::Action;
use crate::views::*;

/// Tabs of the views panel.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Tab {
    Charts,
    Regions,
    Log,
    SpaceTime,
    Blame,
    Consistency,
    Cdc,
}

impl Tab {
    const ALL: [Tab; 7] = [
        Tab::Charts,
        Tab::Cdc,
        Tab::Regions,
        Tab::Log,
        Tab::SpaceTime,
        Tab::Blame,
        Tab::Consistency,
    ];

    fn label(self) -> &'static str {
        match self {
            Tab::Charts => "Charts",
            Tab::Regions => "Region map",
            Tab::Log => "Log",
            Tab::SpaceTime => "Space-time",
            Tab::Blame => "Watermark blame",
            Tab::Consistency => "Consistency",
            Tab::Cdc => "TiCDC",
        }
    }

    fn request(self) -> ViewTab {
        match self {
            Tab::Charts => ViewTab::Charts,
            Tab::Regions => ViewTab::Regions,
            Tab::Log => ViewTab::Log,
            Tab::SpaceTime => ViewTab::SpaceTime,
            Tab::Blame => ViewTab::Blame,
            Tab::Consistency => ViewTab::Consistency,
            Tab::Cdc => ViewTab::Cdc,
        }
    }

    fn id(self) -> &'static str {
        match self {
            Tab::Charts => "charts",
            Tab::Regions => "regions",
            Tab::Log => "log",
            Tab::SpaceTime => "space-time",
            Tab::Blame => "blame",
            Tab::Consistency => "consistency",
            Tab::Cdc => "cdc",
        }
    }
}

/// The views panel.
#[function_component]
pub fn ViewsPanel(props: &PanelProps) -> Html {
    let tab = use_state(|| Tab::Charts);
    let region = use_state(|| None::<u32>);
    let chosen = use_state(|| {
        vec![
            "pd-1".to_string(),
            "tikv-1".to_string(),
            "tikv-2".to_string(),
        ]
    });
    // Tell the engine what to compute whenever the tab or its parameters change.
    {
        let cb = props.on_action.clone();
        let req = ViewRequest {
            tab: tab.request(),
            region: *region,
            space_time_nodes: (*chosen).clone(),
        };
        use_effect_with(req, move |req| cb.emit(Action::Views(req.clone())));
    }
    let pg = props.state.pg.borrow();
    let on_jump = {
        let cb = props.on_action.clone();
        Callback::from(move |t: SimTime| cb.emit(Action::Seek(t)))
    };
    let on_region = {
        let region = region.clone();
        Callback::from(move |r: u32| region.set(Some(r)))
    };
    let waiting = html! { <p class="hint">{ "Computing…" }</p> };
    // The engine answers a tab change within a frame; until then the previous data may be
    // for another tab, and is not shown.
    let none = ViewData::None;
    let body = match (*tab, pg.frame.views.as_ref().unwrap_or(&none)) {
        (Tab::Charts, ViewData::Charts(charts)) => html! {
            <div class="charts">
                { for charts.iter().map(|c| html! {
                    <Chart data={ c.clone() } on_jump={ on_jump.clone() } />
                }) }
            </div>
        },
        (Tab::Regions, ViewData::Regions { map, detail }) => html! {
            <div class="regions">
                <RegionMap map={ map.clone() } selected={ *region } on_select_region={ on_region.clone() } />
                <RegionDetailPanel detail={ detail.clone() } />
            </div>
        },
        (Tab::Log, ViewData::Log { log, messages }) => html! {
            <LogPanel log={ log.clone() } messages={ messages.clone() } on_jump={ on_jump.clone() } />
        },
        (
            Tab::SpaceTime,
            ViewData::SpaceTime {
                data,
                nodes,
                recording,
            },
        ) => {
            let on_select = {
                let chosen = chosen.clone();
                Callback::from(move |n: Vec<String>| chosen.set(n))
            };
            html! {
                <SpaceTime data={ data.clone() } nodes={ nodes.clone() } on_select_nodes={ on_select }
                           on_jump={ on_jump.clone() } recording={ *recording } />
            }
        }
        (Tab::Blame, ViewData::Blame(data)) => {
            html! { <WatermarkBlame data={ data.clone() } on_select_region={ on_region.clone() } /> }
        }
        // The check replays the downstream tables: only while paused, not every frame.
        (Tab::Consistency, ViewData::Consistency(None)) => {
            html! { <p class="hint">{ "Pause to run the consistency check at the cursor." }</p> }
        }
        (Tab::Consistency, ViewData::Consistency(Some(data))) => html! {
            <ConsistencyTable data={ data.clone() } on_jump={ on_jump.clone() } />
        },
        (
            Tab::Cdc,
            ViewData::Cdc(CdcViews {
                list,
                sink_lanes,
                owner_tick,
                sessions,
            }),
        ) => html! {
            <div class="cdc-lifecycle">
                <ChangefeedList data={ list.clone() } />
                <StateLanes data={ sink_lanes.clone() } on_jump={ on_jump.clone() } />
                <Chart data={ owner_tick.clone() } on_jump={ on_jump.clone() } />
                // Capture sessions and scheduling (tiflow#9344), when the run has them.
                if let Some(s) = sessions {
                    <StateLanes data={ s.owner.clone() } on_jump={ on_jump.clone() } />
                    <StateLanes data={ s.tables.clone() } on_jump={ on_jump.clone() } />
                    <Chart data={ s.writers.clone() } on_jump={ on_jump.clone() } />
                    <Chart data={ s.lease.clone() } on_jump={ on_jump.clone() } />
                }
            </div>
        },
        _ => waiting,
    };
    html! {
        <section class="panel views" id="views">
            <div class="tabs row" role="tablist">
                { for Tab::ALL.iter().map(|&t| {
                    let tab = tab.clone();
                    html! {
                        <button role="tab" data-view={ t.id() } class={ classes!((*tab == t).then_some("on")) }
                                onclick={ Callback::from(move |_: MouseEvent| tab.set(t)) }>{ t.label() }</button>
                    }
                }) }
            </div>
            { body }
        </section>
    }
}
